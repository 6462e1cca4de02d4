package load

import (
	"sort"
	"sync"
	"sync/atomic"
)

// tradeTrack is what one subscriber received of one symbol's trades: the
// first and last trade id, how many distinct in-order ids, and how many
// came below the last one.
type tradeTrack struct {
	first, last int64
	received    uint64
	outOfOrder  uint64
	started     bool
}

// see notes one received trade id.
func (t *tradeTrack) see(id int64) {
	switch {
	case !t.started:
		t.first, t.last, t.started = id, id, true
		t.received = 1
	case id > t.last:
		t.last = id
		t.received++
	default:
		t.outOfOrder++ // a repeat or an id below the last: not counted as received
	}
}

// expect starts a track at id, not yet received: what a v2 order book
// snapshot says of the following update.
func (t *tradeTrack) expect(id int64) {
	if !t.started {
		t.first, t.last, t.started = id, id-1, true
	}
}

// tradeUnion is every trade id any subscriber received, per symbol. Trade
// ids need not be consecutive (a target may number trades across symbols),
// so a subscriber's gaps are judged against what the others received.
// Every subscriber of a symbol adds the same ids: all but the first find
// theirs in a small lock-free table of recent ids and take no lock.
type tradeUnion struct {
	mu   sync.Mutex                            // adding a symbol
	syms atomic.Pointer[map[string]*symbolIDs] // copied on write
}

// symbolIDs are one symbol's ids: the set, and recent, where id sits at
// index id%len(recent) once it is in the set.
type symbolIDs struct {
	recent [256]atomic.Uint64
	mu     sync.Mutex
	ids    map[int64]struct{}
}

func newSymbolIDs() *symbolIDs {
	s := &symbolIDs{ids: map[int64]struct{}{}}
	for k := range s.recent {
		s.recent[k].Store(uint64(k + 1)) // never an id whose index is k
	}
	return s
}

func newTradeUnion() *tradeUnion {
	u := &tradeUnion{}
	u.syms.Store(&map[string]*symbolIDs{})
	return u
}

func (u *tradeUnion) add(symbol string, id int64) {
	s := (*u.syms.Load())[symbol]
	if s == nil {
		s = u.symbol(symbol)
	}
	slot := &s.recent[uint64(id)%uint64(len(s.recent))]
	if slot.Load() == uint64(id) {
		return
	}
	s.mu.Lock()
	s.ids[id] = struct{}{}
	s.mu.Unlock()
	slot.Store(uint64(id)) // after the set holds id
}

// symbol returns the ids of symbol, adding them.
func (u *tradeUnion) symbol(symbol string) *symbolIDs {
	u.mu.Lock()
	defer u.mu.Unlock()
	old := *u.syms.Load()
	if s := old[symbol]; s != nil {
		return s
	}
	m := make(map[string]*symbolIDs, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	s := newSymbolIDs()
	m[symbol] = s
	u.syms.Store(&m)
	return s
}

// sorted returns each symbol's ids in order.
func (u *tradeUnion) sorted() map[string][]int64 {
	syms := *u.syms.Load()
	out := make(map[string][]int64, len(syms))
	for sym, ids := range syms {
		ids.mu.Lock()
		s := make([]int64, 0, len(ids.ids))
		for id := range ids.ids {
			s = append(s, id)
		}
		ids.mu.Unlock()
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		out[sym] = s
	}
	return out
}

// countGaps judges one subscriber's track of a symbol against the union
// of its ids (sorted): gaps are ids between its first and last it did not
// receive; undelivered are ids after its last, counted only when it was
// still connected at the end (a lost connection is a disconnect, not a
// gap).
func countGaps(union []int64, t tradeTrack, openAtEnd bool) (gaps, undelivered uint64) {
	if !t.started {
		return 0, 0
	}
	lo := sort.Search(len(union), func(i int) bool { return union[i] >= t.first })
	hi := sort.Search(len(union), func(i int) bool { return union[i] > t.last })
	if in := uint64(hi - lo); in > t.received {
		gaps = in - t.received
	}
	if openAtEnd {
		undelivered = uint64(len(union) - hi)
	}
	return gaps, undelivered
}
