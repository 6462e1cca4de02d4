// Package clock gives the emulator an injectable notion of now, so that
// windows, expiries and candles are deterministic under test.
package clock

import (
	"sync"
	"sync/atomic"
	"time"
)

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock.
type Real struct{}

// Now implements Clock.
func (Real) Now() time.Time { return time.Now().UTC() }

// Offset is a clock that runs with the wall clock but can be moved forward
// (or back) by the control plane. It is safe for concurrent use.
type Offset struct {
	// offset is read without a lock: every engine call reads the clock.
	offset atomic.Int64 // nanoseconds
	base   Clock
}

// NewOffset wraps base (Real when nil).
func NewOffset(base Clock) *Offset {
	if base == nil {
		base = Real{}
	}
	return &Offset{base: base}
}

// Now implements Clock.
func (o *Offset) Now() time.Time {
	return o.base.Now().Add(time.Duration(o.offset.Load()))
}

// Advance moves the clock by d.
func (o *Offset) Advance(d time.Duration) { o.offset.Add(int64(d)) }

// Reset puts the clock back on its base.
func (o *Offset) Reset() { o.offset.Store(0) }

// Manual is a clock that moves only when told to: the one test clock of
// the emulator and of the projects that embed it. It is safe for
// concurrent use.
type Manual struct {
	mu sync.Mutex // serializes the writers
	// t is read without the lock: the engine reads the clock on every
	// call, and a mutex there was a locked instruction per request.
	t atomic.Pointer[time.Time]
}

// NewManual returns a manual clock stopped at t.
func NewManual(t time.Time) *Manual {
	m := &Manual{}
	m.t.Store(&t)
	return m
}

// Now implements Clock.
func (m *Manual) Now() time.Time { return *m.t.Load() }

// Advance moves the clock by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.t.Load().Add(d)
	m.t.Store(&t)
}

// Set stops the clock at t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.Store(&t)
}
