package tape

import (
	"github.com/conform-harness/conform/emulator/internal/market"
)

// ListenQueue is a listener's queue length.
const ListenQueue = 4096

// Listener receives every Update after the moment it was made. When its
// queue overflows the tape drops it: C is closed and Dropped is set.
type Listener struct {
	t       *Tape
	c       chan *Update
	dropped bool // under t.mu
	// only, when set, holds the symbols whose updates the listener wants
	// (resets always come): a connection subscribed to one symbol is not
	// woken for every trade of the others. Under t.mu.
	only map[string]bool
}

// listeners are a tape's listeners, indexed by the symbols they follow, so
// that a trade costs the tape its symbol's listeners rather than every
// listener (5,000 subscribers over ten symbols: 500, not 5,000, under the
// engine's lock).
type listeners struct {
	all      map[*Listener]struct{}
	every    map[*Listener]struct{}            // only unset
	bySymbol map[string]map[*Listener]struct{} // only set
}

func newListeners() listeners {
	return listeners{all: map[*Listener]struct{}{}, every: map[*Listener]struct{}{}, bySymbol: map[string]map[*Listener]struct{}{}}
}

// index adds l where its only puts it; unindex removes it from there.
func (ls *listeners) index(l *Listener) {
	if l.only == nil {
		ls.every[l] = struct{}{}
		return
	}
	for sym, on := range l.only {
		if !on {
			continue
		}
		m := ls.bySymbol[sym]
		if m == nil {
			m = map[*Listener]struct{}{}
			ls.bySymbol[sym] = m
		}
		m[l] = struct{}{}
	}
}

func (ls *listeners) unindex(l *Listener) {
	if l.only == nil {
		delete(ls.every, l)
		return
	}
	for sym := range l.only {
		if m := ls.bySymbol[sym]; m != nil {
			delete(m, l)
			if len(m) == 0 {
				delete(ls.bySymbol, sym)
			}
		}
	}
}

// remove forgets l and closes its queue; false when it was gone already.
func (ls *listeners) remove(l *Listener) bool {
	if _, ok := ls.all[l]; !ok {
		return false
	}
	ls.unindex(l)
	delete(ls.all, l)
	close(l.c)
	return true
}

// Only restricts the listener to the updates of symbols from now on (nil:
// every update again). The caller must not change the map afterwards.
func (l *Listener) Only(symbols map[string]bool) {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	if _, ok := l.t.listeners.all[l]; !ok {
		l.only = symbols
		return
	}
	l.t.listeners.unindex(l)
	l.only = symbols
	l.t.listeners.index(l)
}

// C is the listener's queue; every listener gets the same *Update, which
// it must not change.
func (l *Listener) C() <-chan *Update { return l.c }

// Dropped reports whether the tape dropped the listener for falling behind.
func (l *Listener) Dropped() bool {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	return l.dropped
}

// Listen starts a listener.
func (t *Tape) Listen() *Listener {
	l := &Listener{t: t, c: make(chan *Update, ListenQueue)}
	t.mu.Lock()
	t.listeners.all[l] = struct{}{}
	t.listeners.index(l)
	t.mu.Unlock()
	return l
}

// Close stops a listener; it may be called more than once.
func (l *Listener) Close() {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	l.t.listeners.remove(l)
}

func (t *Tape) publish(u Update) {
	shared := &u // one pointer per update, not a copy per listener
	send := func(l *Listener) {
		select {
		case l.c <- shared:
		default:
			l.dropped = true
			t.listeners.remove(l)
		}
	}
	if u.Reset {
		for l := range t.listeners.all {
			send(l)
		}
		return
	}
	for l := range t.listeners.every {
		send(l)
	}
	for l := range t.listeners.bySymbol[u.Symbol] {
		send(l)
	}
}

// Snapshot is a consistent read of the tape: the latest trades or candles
// of some symbols and the Seq of the last Update before it, so that a
// listener skips the Updates the snapshot already holds.
type Snapshot struct {
	Seq     uint64
	Trades  map[string][]Trade
	Candles map[string][]Candle
}

// SnapshotTrades reads up to limit latest trades of each symbol.
func (t *Tape) SnapshotTrades(symbols []string, limit int) Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := Snapshot{Seq: t.seq, Trades: map[string][]Trade{}}
	for _, sym := range symbols {
		s.Trades[sym] = t.tradesLocked(sym, limit)
	}
	return s
}

// SnapshotCandles reads up to limit latest candles of a period of each symbol.
func (t *Tape) SnapshotCandles(symbols []string, p market.Period, limit int) Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := Snapshot{Seq: t.seq, Candles: map[string][]Candle{}}
	for _, sym := range symbols {
		s.Candles[sym] = t.candlesLocked(sym, p, limit)
	}
	return s
}
