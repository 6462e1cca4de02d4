package load

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Bounds are the safety limits of a run. A run outside them is refused
// unless the user overrides the bounds explicitly.
type Bounds struct {
	MaxRate        float64       // requests per second, at the peak of a ramp
	MaxDuration    time.Duration // of one run
	MaxWorkers     uint64        // goroutines sending requests
	MaxConnections int           // open connections to the target
}

// DefaultBounds are the limits applied unless overridden.
func DefaultBounds() Bounds {
	return Bounds{MaxRate: 10000, MaxDuration: 10 * time.Minute, MaxWorkers: 10000, MaxConnections: 10000}
}

// Shape is what a run asks for, as far as Bounds are concerned.
type Shape struct {
	Pacing      Pacing
	Duration    time.Duration
	Workers     uint64
	MaxWorkers  uint64
	Connections int
}

// ErrOutOfBounds marks a run refused by Bounds (it can be overridden).
var ErrOutOfBounds = errors.New("out of bounds")

// Check validates a run's shape. Problems that no override can lift (a
// zero duration, no workers) are plain errors; runs beyond b wrap
// ErrOutOfBounds.
func (b Bounds) Check(s Shape) error {
	switch {
	case s.Duration <= 0:
		return errors.New("duration must be positive (a run never goes on until interrupted)")
	case s.Workers < 1 || s.MaxWorkers < 1:
		return errors.New("workers and max workers must be at least 1")
	case s.Workers > s.MaxWorkers:
		return fmt.Errorf("workers (%d) exceed max workers (%d)", s.Workers, s.MaxWorkers)
	case s.Connections < 1:
		return errors.New("connections must be at least 1")
	}
	if peak := s.Pacing.Peak(); peak > b.MaxRate {
		if math.IsInf(peak, 1) {
			return fmt.Errorf("%w: an unlimited rate exceeds the cap of %g requests per second", ErrOutOfBounds, b.MaxRate)
		}
		return fmt.Errorf("%w: rate %g requests per second exceeds the cap of %g", ErrOutOfBounds, peak, b.MaxRate)
	}
	if s.Duration > b.MaxDuration {
		return fmt.Errorf("%w: duration %s exceeds the cap of %s", ErrOutOfBounds, s.Duration, b.MaxDuration)
	}
	if s.MaxWorkers > b.MaxWorkers {
		return fmt.Errorf("%w: max workers %d exceed the cap of %d", ErrOutOfBounds, s.MaxWorkers, b.MaxWorkers)
	}
	if s.Connections > b.MaxConnections {
		return fmt.Errorf("%w: connections %d exceed the cap of %d", ErrOutOfBounds, s.Connections, b.MaxConnections)
	}
	return nil
}
