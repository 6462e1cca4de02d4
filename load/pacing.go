package load

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Pacing is the offered rate of a run: constant, a linear ramp, or as fast
// as the workers allow (Unlimited).
type Pacing struct {
	// Rate is the constant rate (Freq requests per Per); unused for a ramp.
	Rate vegeta.Rate
	// From and To are the start and end rates of a ramp, in requests per
	// second; both zero for a constant rate.
	From, To int
}

// Unlimited is the pacing that sends as fast as the workers allow.
var Unlimited = Pacing{}

// IsRamp reports whether p is a linear ramp.
func (p Pacing) IsRamp() bool { return p.From > 0 || p.To > 0 }

// IsUnlimited reports whether p sends as fast as the workers allow.
func (p Pacing) IsUnlimited() bool { return !p.IsRamp() && (p.Rate.Freq == 0 || p.Rate.Per == 0) }

// ParseRate reads a constant rate: N, N/s, N/1s, N/m, N/100ms (any Go
// duration, a bare unit meaning one of it), or "max" for Unlimited.
func ParseRate(s string) (Pacing, error) {
	s = strings.TrimSpace(s)
	if s == "max" {
		return Unlimited, nil
	}
	freq, per, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(freq)
	if err != nil || n < 1 {
		return Pacing{}, fmt.Errorf("rate %q: want a positive whole number of requests, optionally per a duration (1000/s, 60/1m), or max", s)
	}
	d := time.Second
	if ok {
		if d, err = parsePer(per); err != nil {
			return Pacing{}, fmt.Errorf("rate %q: %w", s, err)
		}
	}
	return Pacing{Rate: vegeta.Rate{Freq: n, Per: d}}, nil
}

// parsePer reads the time unit of a rate: a Go duration or a bare unit.
func parsePer(s string) (time.Duration, error) {
	if s != "" && (s[0] < '0' || s[0] > '9') {
		s = "1" + s
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("time unit %q: want s, m, 100ms or another positive duration", s)
	}
	return d, nil
}

// ParseRamp reads a linear ramp FROM:TO in requests per second (each
// optionally written N/s); both ends must be at least 1.
func ParseRamp(s string) (Pacing, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Pacing{}, fmt.Errorf("ramp %q: want FROM:TO in requests per second, e.g. 100:1000", s)
	}
	from, err1 := strconv.Atoi(strings.TrimSuffix(a, "/s"))
	to, err2 := strconv.Atoi(strings.TrimSuffix(b, "/s"))
	if err1 != nil || err2 != nil || from < 1 || to < 1 {
		return Pacing{}, fmt.Errorf("ramp %q: want FROM:TO, two whole numbers of requests per second of at least 1", s)
	}
	return Pacing{From: from, To: to}, nil
}

// Pacer returns the Vegeta pacer of p for a run of duration d.
func (p Pacing) Pacer(d time.Duration) vegeta.Pacer {
	if p.IsRamp() {
		return vegeta.LinearPacer{StartAt: vegeta.Rate{Freq: p.From, Per: time.Second}, Slope: float64(p.To-p.From) / d.Seconds()}
	}
	return p.Rate
}

// Mean is the mean requested rate in requests per second (0 when unlimited).
func (p Pacing) Mean() float64 {
	switch {
	case p.IsRamp():
		return float64(p.From+p.To) / 2
	case p.IsUnlimited():
		return 0
	}
	return float64(p.Rate.Freq) / p.Rate.Per.Seconds()
}

// Peak is the highest requested rate in requests per second (+Inf when
// unlimited).
func (p Pacing) Peak() float64 {
	switch {
	case p.IsRamp():
		return float64(max(p.From, p.To))
	case p.IsUnlimited():
		return math.Inf(1)
	}
	return p.Mean()
}

// Expected is the number of requests the pacing asks for in a run of
// duration d (0 when unlimited).
func (p Pacing) Expected(d time.Duration) uint64 {
	return uint64(math.Round(p.hitsBy(d, d)))
}

// hitsBy is the number of requests the pacing asks for by time t of a run
// of duration d.
func (p Pacing) hitsBy(t, d time.Duration) float64 {
	switch {
	case p.IsUnlimited():
		return 0
	case !p.IsRamp():
		return p.Mean() * t.Seconds()
	}
	a := float64(p.To-p.From) / d.Seconds()
	x := t.Seconds()
	return a*x*x/2 + float64(p.From)*x
}

// ScheduledAt is when (after the start, up to a constant) Vegeta's pacer
// asks for request number k (from 0), for measuring how far behind
// schedule the generator sent it. A constant rate sends request k at
// (k+1) intervals; a ramp sends the first at once and request k >= 1 when
// k+1 are due (as vegeta.LinearPacer does).
func (p Pacing) ScheduledAt(k uint64, d time.Duration) time.Duration {
	switch {
	case p.IsUnlimited():
		return 0
	case !p.IsRamp():
		return time.Duration(k+1) * (p.Rate.Per / time.Duration(p.Rate.Freq))
	case k == 0:
		return 0
	}
	k++
	// hits(t) = a t²/2 + b t = k, so t = (-b + sqrt(b² + 2ak)) / a.
	a := float64(p.To-p.From) / d.Seconds()
	b := float64(p.From)
	if a == 0 {
		return time.Duration(float64(k) / b * 1e9)
	}
	disc := b*b + 2*a*float64(k)
	if disc < 0 { // a decreasing ramp asked for more than it ever sends
		return d
	}
	return time.Duration((-b + math.Sqrt(disc)) / a * 1e9)
}

// String describes the pacing: "1000/s", "60/1m0s", "ramp 100/s to 1000/s"
// or "max".
func (p Pacing) String() string {
	switch {
	case p.IsRamp():
		return fmt.Sprintf("ramp %d/s to %d/s", p.From, p.To)
	case p.IsUnlimited():
		return "max"
	case p.Rate.Per == time.Second:
		return fmt.Sprintf("%d/s", p.Rate.Freq)
	}
	return fmt.Sprintf("%d/%s", p.Rate.Freq, p.Rate.Per)
}

// ConstantRate is n requests per second.
func ConstantRate(n int) vegeta.Rate { return vegeta.Rate{Freq: n, Per: time.Second} }
