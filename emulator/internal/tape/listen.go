package tape

import (
	"sync/atomic"

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
	// woken for every trade of the others.
	only atomic.Pointer[map[string]bool]
}

// Only restricts the listener to the updates of symbols from now on (nil:
// every update again). The caller must not change the map afterwards.
func (l *Listener) Only(symbols map[string]bool) {
	if symbols == nil {
		l.only.Store(nil)
		return
	}
	l.only.Store(&symbols)
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
	t.listeners[l] = struct{}{}
	t.mu.Unlock()
	return l
}

// Close stops a listener; it may be called more than once.
func (l *Listener) Close() {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	if _, ok := l.t.listeners[l]; ok {
		delete(l.t.listeners, l)
		close(l.c)
	}
}

func (t *Tape) publish(u Update) {
	shared := &u // one pointer per update, not a copy per listener
	for l := range t.listeners {
		if only := l.only.Load(); only != nil && !u.Reset && !(*only)[u.Symbol] {
			continue
		}
		select {
		case l.c <- shared:
		default:
			l.dropped = true
			delete(t.listeners, l)
			close(l.c)
		}
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
