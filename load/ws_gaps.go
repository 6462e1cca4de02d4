package load

import (
	"sort"
	"sync"
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

// tradeUnion is every trade id any subscriber received, per symbol. Trade
// ids need not be consecutive (a target may number trades across symbols),
// so a subscriber's gaps are judged against what the others received.
type tradeUnion struct {
	mu  sync.Mutex
	ids map[string]map[int64]struct{}
}

func newTradeUnion() *tradeUnion { return &tradeUnion{ids: map[string]map[int64]struct{}{}} }

func (u *tradeUnion) add(symbol string, id int64) {
	u.mu.Lock()
	m := u.ids[symbol]
	if m == nil {
		m = map[int64]struct{}{}
		u.ids[symbol] = m
	}
	m[id] = struct{}{}
	u.mu.Unlock()
}

// sorted returns each symbol's ids in order.
func (u *tradeUnion) sorted() map[string][]int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string][]int64, len(u.ids))
	for sym, m := range u.ids {
		s := make([]int64, 0, len(m))
		for id := range m {
			s = append(s, id)
		}
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
