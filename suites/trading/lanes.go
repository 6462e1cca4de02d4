package trading

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
)

// Lanes. Specs that trade between the suite's two accounts need a symbol's
// book to themselves: no other process's trades or resting orders near
// their price. They used to be Serial (run alone after every parallel
// spec, one process working and the others idle: over a path 20 ms each
// way, two of a remote certification's six minutes). Instead each takes the
// symbols it trades on exclusively, across the run's Ginkgo processes, with
// an advisory lock per symbol (flock on a file in a directory of the run),
// and a fill spec of another process takes other symbols or waits. Orders
// that parallel specs park never meet a fill spec's (buys at a few ticks,
// triggers at a few ticks, sells far above mid); specs whose orders sweep
// the book (market orders meeting whatever rests) stay Serial.

// laneSet is this process's held lanes: a symbol is held once per process
// however many of its fill specs' markets use it (a nested FillMarkets of
// the same spec reuses its own).
type laneSet struct {
	mu   sync.Mutex
	dir  string
	held map[string]*laneLock
}

type laneLock struct {
	f    *os.File
	refs int
}

var lanes = &laneSet{held: map[string]*laneLock{}}

// LaneDir is the directory of the run's lane locks (framework.RunDir).
func LaneDir() string { return framework.RunDir("lanes") }

// RemoveLanes removes the run's lock directory (process 1, after the suite).
func RemoveLanes() { _ = os.RemoveAll(LaneDir()) }

// hold takes symbol for this process: true when it was free or this process
// holds it already, false when another process holds it.
func (l *laneSet) hold(symbol string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.held[symbol]; ok {
		h.refs++
		return true, nil
	}
	if l.dir == "" {
		l.dir = LaneDir()
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return false, fmt.Errorf("lanes: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(l.dir, symbol+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return false, fmt.Errorf("lanes: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, nil
		}
		return false, fmt.Errorf("lanes: locking %s: %w", symbol, err)
	}
	l.held[symbol] = &laneLock{f: f, refs: 1}
	return true, nil
}

// release gives back one hold of symbol; the last one unlocks it.
func (l *laneSet) release(symbol string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, ok := l.held[symbol]
	if !ok {
		return
	}
	if h.refs--; h.refs > 0 {
		return
	}
	delete(l.held, symbol)
	_ = h.f.Close() // closing the descriptor releases its flock
}

// owns reports whether this process already holds symbol.
func (l *laneSet) owns(symbol string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.held[symbol]
	return ok
}

// laneWait is how long FillMarkets waits for symbols other processes'
// fill specs hold before it says so and skips: far beyond any fill spec's
// time, so it only ends a wait that cannot end.
const laneWait = 3 * time.Minute

// waitForLanes sleeps a little before FillMarkets tries again, or reports
// false once waiting has lasted laneWait or the spec's context is done.
func waitForLanes(ctx context.Context, since time.Time) bool {
	GinkgoHelper()
	if time.Since(since) > laneWait {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}
