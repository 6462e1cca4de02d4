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
	Rate     int      // requests per second, sustained
	// Burst is how many requests beyond the rate the row allows at once;
	// a Pacer lets its share of them go without waiting (0: none, every
	// request spaced at the rate).
	Burst int
}

// Pacer keeps requests per path class under its share of each class's
// rate and burst, and waits out the window after a 429. It is a token
// bucket per class holding share of the burst, refilled at share of the
// rate, both with a 10% margin: a spec that sends a few requests pays no
// wait (over a path 40 ms away, spacing every request at the rate made a
// sequence of reads wait longer than it took), and what it sends stays
// within the row under either reading of "rate and burst" (at most
// rate+burst in any 1-second window; a bucket of burst refilled at rate).
// It is safe for concurrent use; share one per source address.
type Pacer struct {
	classes []PathClass
	share   float64 // fraction of each rate and burst this pacer may use
	mu      sync.Mutex
	buckets map[int]*bucket
	now     func() time.Time
	// shared holds the buckets in a file every process of the run paces
	// against (NewSharedPacer); after a failure to read or write it, the
	// pacer goes on alone at fallback of each row.
	shared   *sharedBuckets
	fallback float64
}

// bucket is one class's tokens as of at; a request takes one, and a
// request that finds none reserves the next (tokens go negative) and waits
// until it has come. After a 429, at is a second ahead: nothing refills or
// goes before then.
type bucket struct {
	tokens float64
	at     time.Time
}

// NewPacer paces to share (0..1] of each class's rate and burst, e.g. 1/N
// when N processes share one source address, with a 10% margin below them.
func NewPacer(classes []PathClass, share float64) *Pacer {
	if share <= 0 || share > 1 {
		share = 1
	}
	return &Pacer{classes: classes, share: share * 0.9, buckets: map[int]*bucket{}, now: time.Now}
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

// capacity is how many requests of class c may go at once: its share of
// the burst, and at least one.
func (p *Pacer) capacity(c PathClass) float64 { return max(1, float64(c.Burst)*p.share) }

// Wait blocks until a request to path may be sent.
func (p *Pacer) Wait(ctx context.Context, path string) error {
	if d := p.reserve(path); d > 0 {
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

// reserve takes a token for a request to path and says how long to wait
// before sending it.
func (p *Pacer) reserve(path string) time.Duration {
	i := p.classOf(path)
	c := p.classes[i]
	rate := float64(c.Rate) * p.share // tokens per second
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.sync()()
	now := p.now()
	b := p.buckets[i]
	if b == nil {
		b = &bucket{tokens: p.capacity(c), at: now}
		p.buckets[i] = b
	}
	if now.After(b.at) {
		b.tokens = min(p.capacity(c), b.tokens+now.Sub(b.at).Seconds()*rate)
		b.at = now
	}
	b.tokens--
	d := b.at.Sub(now) // held back after a 429
	if b.tokens < 0 {
		d += time.Duration(-b.tokens / rate * float64(time.Second))
	}
	return d
}

// Backoff makes the class of path wait out a full window after a 429, and
// start again from an empty bucket.
func (p *Pacer) Backoff(path string) {
	i := p.classOf(path)
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.sync()()
	now := p.now()
	b := p.buckets[i]
	if b == nil {
		b = &bucket{}
		p.buckets[i] = b
	}
	b.tokens = min(b.tokens, 0)
	if t := now.Add(time.Second); t.After(b.at) {
		b.at = t
	}
}

// sync reads a shared pacer's buckets (holding the file's lock) and
// returns what writes them back (releasing it); for a pacer of its own
// both do nothing. Called with p.mu held.
func (p *Pacer) sync() func() {
	if p.shared == nil {
		return func() {}
	}
	if err := p.shared.load(p.buckets); err != nil {
		p.alone()
		return func() {}
	}
	return func() {
		if err := p.shared.store(p.buckets); err != nil {
			p.alone()
		}
	}
}

// alone stops sharing after a failure of the file: the pacer keeps its
// buckets and paces to its fallback share of each row from now on.
func (p *Pacer) alone() {
	_ = p.shared.f.Close()
	p.shared = nil
	p.share = p.fallback * 0.9
}
