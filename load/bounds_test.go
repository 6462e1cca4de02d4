package load

import (
	"errors"
	"testing"
	"time"
)

func TestBoundsCheck(t *testing.T) {
	r := func(s string) Pacing {
		p, err := ParseRate(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ramp, _ := ParseRamp("100:20000")
	ok := Shape{Pacing: r("1000/s"), Duration: 10 * time.Second, Workers: 10, MaxWorkers: 100, Connections: 100}
	with := func(f func(*Shape)) Shape { s := ok; f(&s); return s }
	cases := []struct {
		name        string
		shape       Shape
		outOfBounds bool // refused, but an override lifts it
		invalid     bool // refused whatever the override
	}{
		{"within", ok, false, false},
		{"rate at the cap", with(func(s *Shape) { s.Pacing = r("10000/s") }), false, false},
		{"rate above the cap", with(func(s *Shape) { s.Pacing = r("10001/s") }), true, false},
		{"ramp peak above the cap", with(func(s *Shape) { s.Pacing = ramp }), true, false},
		{"unlimited", with(func(s *Shape) { s.Pacing = Unlimited }), true, false},
		{"long", with(func(s *Shape) { s.Duration = 11 * time.Minute }), true, false},
		{"many workers", with(func(s *Shape) { s.MaxWorkers = 20000 }), true, false},
		{"many connections", with(func(s *Shape) { s.Connections = 20000 }), true, false},
		{"no duration", with(func(s *Shape) { s.Duration = 0 }), false, true},
		{"workers above max", with(func(s *Shape) { s.Workers = 1000 }), false, true},
		{"no connections", with(func(s *Shape) { s.Connections = 0 }), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := DefaultBounds().Check(c.shape)
			if got := errors.Is(err, ErrOutOfBounds); got != c.outOfBounds {
				t.Errorf("out of bounds %v, want %v (%v)", got, c.outOfBounds, err)
			}
			if got := err != nil && !errors.Is(err, ErrOutOfBounds); got != c.invalid {
				t.Errorf("invalid %v, want %v (%v)", got, c.invalid, err)
			}
		})
	}
}
