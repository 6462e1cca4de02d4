package scenarios

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// PathStats is what the harness measured of the path to a target before
// the limit scenarios from one address: the round trip of a request on an
// opened connection, and how much it varies.
type PathStats struct {
	// Samples is how many requests were timed.
	Samples int
	// Min, Median and Max round-trip times.
	Min, Median, Max time.Duration
	// Open is how long the slowest of the opened connections took
	// (TCP and TLS handshakes).
	Open time.Duration
}

// Spread is how much the round trip varied: what a burst's arrivals may
// scatter by beyond its own length.
func (p PathStats) Spread() time.Duration { return p.Max - p.Min }

func (p PathStats) String() string {
	if p.Samples == 0 {
		return "path not measured"
	}
	return fmt.Sprintf("path: round trip %s min, %s median, %s max over %d requests (spread %s); opening a connection %s",
		p.Min.Round(100*time.Microsecond), p.Median.Round(100*time.Microsecond), p.Max.Round(100*time.Microsecond), p.Samples,
		p.Spread().Round(100*time.Microsecond), p.Open.Round(100*time.Microsecond))
}

// Gap is the pause of the slide between the first part of a budget and
// the rest (Plan.Gap) on this path: the offer after the window must finish
// within it, so it grows with the round trip.
func (p PathStats) Gap() time.Duration {
	return max(300*time.Millisecond, 3*p.Max+50*time.Millisecond)
}

// Undecidable says why no burst can be judged over this path: a round
// trip so long that a burst, its answers and the slide's phases cannot fit
// in one window (the median, so that one slow answer does not decide it;
// each burst still answers for its own spread). Empty when the path is fit.
func (p PathStats) Undecidable() string {
	if p.Samples > 0 && p.Median >= Window/4 {
		return fmt.Sprintf("the round trip is %s (%s), a quarter of the %s window: a burst and the slide's phases cannot be placed inside one window", p.Median.Round(time.Millisecond), p, Window)
	}
	return ""
}

// measurePath times n requests one after the other on an opened
// connection (the first opens it and is not counted). The requests spend
// a budget of url's class: the caller lets it age out before the rows.
func measurePath(ctx context.Context, url string, n int) (PathStats, error) {
	w, err := newWarmClient(url, 1, tlsOf(ctx))
	if err != nil {
		return PathStats{}, err
	}
	defer w.Close()
	var p PathStats
	if p.Open, err = w.Warm(ctx, 1); err != nil {
		return p, err
	}
	var rtts []time.Duration
	for i := range n + 1 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return p, err
		}
		req.Header.Set("Accept", "application/json")
		start := time.Now()
		resp, err := w.Do(req)
		if err != nil {
			return p, fmt.Errorf("measuring the path to %s: %w", url, err)
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		_ = resp.Body.Close()
		if i > 0 {
			rtts = append(rtts, time.Since(start))
		}
	}
	slices.Sort(rtts)
	p.Samples, p.Min, p.Median, p.Max = len(rtts), rtts[0], rtts[len(rtts)/2], rtts[len(rtts)-1]
	return p, nil
}
