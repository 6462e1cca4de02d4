package engine

import "sort"

// history is an account's order history in ID order, oldest first: a ring
// of entries. Retention deletes the oldest final orders, so deleted
// entries gather at the front, where the ring lets them go by moving its
// head. A slice let them linger until compaction copied the live half
// down, every entry once per deletion (a twentieth of the engine's time
// at 100,000 orders per account). Entries deleted behind an active order
// still linger in the middle, and compaction still takes them out.
//
// Entries have logical indexes 0..len()-1, which shift when the front
// goes, and positions, which do not (an order's histAt): a position is
// the entry's logical index plus the number of entries ever let go at the
// front, modulo 2^32 (a history holds far fewer).
type history struct {
	buf    []histEntry // a power of two long
	head   int         // buf index of entry 0
	n      int
	popped uint32 // entries let go at the front, modulo 2^32
}

// len is the number of entries, deleted ones included.
func (h *history) len() int { return h.n }

// at is entry i, for 0 <= i < len().
func (h *history) at(i int) *histEntry { return &h.buf[(h.head+i)&(len(h.buf)-1)] }

// pos is the position of entry i.
func (h *history) pos(i int) uint32 { return h.popped + uint32(i) }

// index is the logical index of position p (len() or more when the entry
// has gone).
func (h *history) index(p uint32) int {
	i := p - h.popped
	if i >= uint32(h.n) {
		return h.n
	}
	return int(i)
}

// push appends e and returns its position.
func (h *history) push(e histEntry) uint32 {
	if h.n == len(h.buf) {
		h.grow()
	}
	*h.at(h.n) = e
	h.n++
	return h.pos(h.n - 1)
}

func (h *history) grow() {
	buf := make([]histEntry, max(64, 2*len(h.buf)))
	for i := 0; i < h.n; i++ {
		buf[i] = *h.at(i)
	}
	h.buf, h.head = buf, 0
}

// popDeleted lets the deleted entries at the front go and reports how
// many went.
func (h *history) popDeleted() int {
	k := 0
	for h.n > 0 && h.buf[h.head].deleted {
		h.buf[h.head] = histEntry{}
		h.head = (h.head + 1) & (len(h.buf) - 1)
		h.n--
		h.popped++
		k++
	}
	return k
}

// compact takes the deleted entries out, keeping the others in order, and
// keeps the positions of records still held true.
func (h *history) compact() {
	kept := 0
	for i := 0; i < h.n; i++ {
		e := h.at(i)
		if e.deleted {
			continue
		}
		if kept != i {
			*h.at(kept) = *e
		}
		if o := h.at(kept).o; o != nil {
			o.histAt = h.pos(kept)
		}
		kept++
	}
	for i := kept; i < h.n; i++ {
		*h.at(i) = histEntry{}
	}
	h.n = kept
}

// search is the least logical index i for which f(at(i)) holds, len()
// when none does; f must be false then true along the history.
func (h *history) search(f func(*histEntry) bool) int {
	return sort.Search(h.n, func(i int) bool { return f(h.at(i)) })
}
