// Package limits is the emulator's rate limiter and connection cap: the
// v3 Limits section as code. Window is an exact sliding-window counter;
// Table classifies REST paths, stream messages and stream methods into the
// documented classes; Guard puts the two together for the HTTP router and
// the streams, with the limit faults applied.
package limits

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
)

// Limit is a documented rate and burst: at most Rate+Burst events are
// accepted in any window of one second.
type Limit struct {
	Rate  int
	Burst int
}

// Max is how many events one window holds.
func (l Limit) Max() int { return l.Rate + l.Burst }

// DefaultWindow is the documented window: one second, sliding.
const DefaultWindow = time.Second

// shardCount spreads keys over independently locked shards so that
// concurrent requests from different addresses rarely wait for each other.
const shardCount = 64

// Window counts accepted events per key in an exact sliding window: an
// event is accepted iff fewer than Max events were accepted in the window
// before it. Rejected events do not count. It is safe for concurrent use.
//
// Each key keeps a ring of the timestamps of its last Max accepted events
// (grown on demand, so a key that sends little holds little); the event is
// accepted iff the ring is not full or its oldest entry has left the
// window. Keys idle for a whole window hold nothing that matters and are
// evicted once per window, so memory is bounded by the keys active in the
// last two windows.
type Window struct {
	clock  clock.Clock
	window int64 // nanoseconds
	fixed  bool
	seed   maphash.Seed
	// swept is when idle keys were last evicted from every shard.
	swept  atomic.Int64
	shards [shardCount]shard
}

// WindowOption configures a Window.
type WindowOption func(*Window)

// WithFixedWindow makes the window fixed instead of sliding: a key's budget
// resets one window after the first event accepted since the last reset.
// It is the fault of V3-LIMIT-WINDOW, and otherwise wrong.
func WithFixedWindow() WindowOption {
	return func(w *Window) { w.fixed = true }
}

// NewWindow returns a limiter reading time from c (the wall clock when nil).
func NewWindow(c clock.Clock, opts ...WindowOption) *Window {
	if c == nil {
		c = clock.Real{}
	}
	w := &Window{clock: c, window: int64(DefaultWindow), seed: maphash.MakeSeed()}
	for _, o := range opts {
		o(w)
	}
	for i := range w.shards {
		w.shards[i].keys = map[Key]*entry{}
	}
	return w
}

// Key names what is counted: a class of the limit tables and who is
// counted in it (an IP address or an account).
type Key struct {
	Class string
	Who   string
}

type shard struct {
	mu   sync.Mutex
	keys map[Key]*entry
	// pad keeps neighbouring shards' locks off one cache line.
	_ [48]byte
}

type entry struct {
	times []int64 // accepted timestamps (ns); a ring once len == Max
	head  int     // index of the oldest timestamp when the ring is full
	last  int64   // newest accepted timestamp
	// The fixed-window fault counts here instead.
	start int64
	count int
}

// Allow records an event for key under lim and reports whether it is
// accepted; when it is not, wait is how long until it would be.
func (w *Window) Allow(key Key, lim Limit) (ok bool, wait time.Duration) {
	if t := w.clock.Now().UnixNano(); t-w.swept.Load() >= w.window {
		if last := w.swept.Load(); t-last >= w.window && w.swept.CompareAndSwap(last, t) {
			w.sweep()
		}
	}
	s := &w.shards[maphash.Comparable(w.seed, key)%shardCount]
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read the clock under the lock, so that a key's timestamps are in
	// the order its events were counted in.
	now := w.clock.Now().UnixNano()
	n := lim.Max()
	if n <= 0 {
		return false, time.Duration(w.window)
	}
	e := s.keys[key]
	if e == nil {
		e = &entry{}
		s.keys[key] = e
	}
	switch {
	case now < e.last-w.window || len(e.times) > n:
		// The clock went back by more than a window (a test clock moved
		// back) or the limit shrank: start afresh rather than refuse
		// until the clock catches up.
		*e = entry{}
	case now < e.last:
		// A wall clock stepped back a little: keep the ring in order.
		now = e.last
	}
	if w.fixed {
		return e.allowFixed(now, w.window, n)
	}
	if len(e.times) < n {
		e.times = append(e.times, now)
		e.last = now
		return true, 0
	}
	oldest := e.times[e.head]
	if age := now - oldest; age < w.window {
		return false, time.Duration(w.window - age)
	}
	e.times[e.head] = now
	e.head = (e.head + 1) % n
	e.last = now
	return true, 0
}

func (e *entry) allowFixed(now, window int64, n int) (bool, time.Duration) {
	if e.count == 0 || now-e.start >= window {
		e.start, e.count = now, 0
	}
	if e.count >= n {
		return false, time.Duration(window - (now - e.start))
	}
	e.count++
	e.last = now
	return true, 0
}

// sweep drops, from every shard, the keys whose newest event has left the
// window: their ring would accept the next event anyway. It runs at most
// once per window, so its cost is spread over every event of the window.
func (w *Window) sweep() {
	for i := range w.shards {
		s := &w.shards[i]
		s.mu.Lock()
		now := w.clock.Now().UnixNano()
		for k, e := range s.keys {
			if now-e.last >= w.window {
				delete(s.keys, k)
			}
		}
		s.mu.Unlock()
	}
}

// Len is the number of keys held (for tests of eviction).
func (w *Window) Len() int {
	n := 0
	for i := range w.shards {
		s := &w.shards[i]
		s.mu.Lock()
		n += len(s.keys)
		s.mu.Unlock()
	}
	return n
}
