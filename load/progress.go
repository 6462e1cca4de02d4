package load

import (
	"fmt"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// progress keeps the running figures of the progress line; it is used
// from the goroutine that reads the results.
type progress struct {
	pacing   Pacing
	duration time.Duration
	first    time.Time
	n, ok    uint64
	lat      Histogram
}

func newProgress(p Pacing, d time.Duration) *progress { return &progress{pacing: p, duration: d} }

func (p *progress) add(r *vegeta.Result) {
	if p.n == 0 || r.Timestamp.Before(p.first) {
		p.first = r.Timestamp
	}
	p.n++
	if r.Code >= 200 && r.Code < 400 {
		p.ok++
	}
	p.lat.Record(r.Latency)
}

// line is one progress line: elapsed time, requests done, achieved rate
// against the requested one, success ratio and p99 so far.
func (p *progress) line(now time.Time) string {
	if p.n == 0 {
		return "load: waiting for the first result"
	}
	el := now.Sub(p.first)
	rate := 0.0
	if el > 0 {
		rate = float64(p.n) / el.Seconds()
	}
	asked := "max"
	if !p.pacing.IsUnlimited() && el > 0 {
		asked = fmt.Sprintf("%.1f/s", p.pacing.hitsBy(min(el, p.duration), p.duration)/min(el, p.duration).Seconds())
	}
	return fmt.Sprintf("load: %5.1fs/%s  %d requests  %.1f/s (asked %s)  success %.2f%%  p99 %s",
		min(el, p.duration).Seconds(), p.duration, p.n, rate, asked, 100*float64(p.ok)/float64(p.n), fmtDur(p.lat.Quantile(0.99)))
}

// fmtDur prints a latency with three significant digits.
func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3gs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3gms", float64(d)/float64(time.Millisecond))
	case d >= time.Microsecond:
		return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%dns", int64(d))
}
