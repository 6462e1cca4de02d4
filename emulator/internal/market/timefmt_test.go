package market

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestFormatTimeAgainstLayout checks the hand-written DateTime against
// time.Format of TimeLayout: every year time.Time can hold, zones other
// than UTC, sub-millisecond parts.
func TestFormatTimeAgainstLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	zone := time.FixedZone("X", -7*3600-30*60)
	fixed := []time.Time{
		{}, time.Unix(0, 0), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 28, 0, 0, 0, 999999, zone),
	}
	for i := 0; i < 20000; i++ {
		tm := time.Unix(r.Int64N(1<<40)-1<<39, r.Int64N(1e9))
		if i%2 == 0 {
			tm = tm.In(zone)
		}
		fixed = append(fixed, tm)
	}
	for _, tm := range fixed {
		if got, want := FormatTime(tm), tm.UTC().Format(TimeLayout); got != want {
			t.Fatalf("FormatTime(%v) = %q, want %q", tm, got, want)
		}
	}
}
