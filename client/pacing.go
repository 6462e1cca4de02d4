package client

import (
	"context"
	"strings"
	"sync"
	"time"
)

// PathClass is one row of a per-IP REST limit table: the harness builds
// them from its one reading of the document (rules.Limits), so that a
// misreading in the emulator's limiter cannot hide in the suites.
type PathClass struct {
	Prefixes []string // relative to the API prefix; the longest match wins
	Rate     int      // requests per second (a paced client never spends the burst)
}

// Pacer spaces requests per path class so that a client stays just under
// each class's rate, and waits out the window after a 429. It is safe for
// concurrent use; share one per source address.
type Pacer struct {
	classes []PathClass
	share   float64 // fraction of each rate this pacer may use
	mu      sync.Mutex
	next    map[int]time.Time // class index -> earliest time of the next request
	now     func() time.Time
}

// NewPacer paces to share (0..1] of each class's rate, e.g. 1/N when N
// processes share one source address, with a 10% margin below the rate.
func NewPacer(classes []PathClass, share float64) *Pacer {
	if share <= 0 || share > 1 {
		share = 1
	}
	return &Pacer{classes: classes, share: share * 0.9, next: map[int]time.Time{}, now: time.Now}
}

// classOf returns the index of the class of an API path (after /api/3).
func (p *Pacer) classOf(path string) int {
	best, bestLen := 0, -1
	for i, c := range p.classes {
		for _, pre := range c.Prefixes {
			if (strings.HasPrefix(path, pre) || path+"/" == pre) && len(pre) > bestLen {
				best, bestLen = i, len(pre)
			}
		}
	}
	return best
}

// Wait blocks until a request to path may be sent.
func (p *Pacer) Wait(ctx context.Context, path string) error {
	i := p.classOf(path)
	gap := time.Duration(float64(time.Second) / (float64(p.classes[i].Rate) * p.share))
	p.mu.Lock()
	now := p.now()
	at := p.next[i]
	if at.Before(now) {
		at = now
	}
	p.next[i] = at.Add(gap)
	p.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Backoff makes the class of path wait out a full window after a 429.
func (p *Pacer) Backoff(path string) {
	i := p.classOf(path)
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.now().Add(time.Second); t.After(p.next[i]) {
		p.next[i] = t
	}
}
