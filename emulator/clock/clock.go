// Package clock gives the emulator an injectable notion of now, so that
// windows, expiries and candles are deterministic under test.
package clock

import (
	"sync"
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
	mu     sync.RWMutex
	offset time.Duration
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
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.base.Now().Add(o.offset)
}

// Advance moves the clock by d.
func (o *Offset) Advance(d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.offset += d
}

// Reset puts the clock back on its base.
func (o *Offset) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.offset = 0
}

// Manual is a clock that moves only when told to: the one test clock of
// the emulator and of the projects that embed it. It is safe for
// concurrent use.
type Manual struct {
	mu sync.Mutex
	t  time.Time
}

// NewManual returns a manual clock stopped at t.
func NewManual(t time.Time) *Manual { return &Manual{t: t} }

// Now implements Clock.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

// Advance moves the clock by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = m.t.Add(d)
}

// Set stops the clock at t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t = t
}
