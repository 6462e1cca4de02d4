package client

import (
	"context"
	"strings"
	"sync"
	"time"
)

// PathClass is one row of the spec's per-IP REST limit table (v3 Limits).
// The client keeps its own copy of the table, read from the spec, so that a
// misreading in the emulator's limiter cannot hide in the suites.
type PathClass struct {
	Prefixes []string // relative to /api/3; the longest match wins
	Rate     int      // requests per second
}

// V3PerIP is the per-IP REST table of the v3 Limits section (rates only: a
// paced client never spends the burst).
var V3PerIP = []PathClass{
	{Prefixes: []string{"/"}, Rate: 20},
	{Prefixes: []string{"/public/"}, Rate: 30},
	{Prefixes: []string{"/wallet/"}, Rate: 10},
	{Prefixes: []string{"/buy-crypto/provider/"}, Rate: 10},
	{Prefixes: []string{"/buy-crypto/fiat2crypto/"}, Rate: 10},
	{Prefixes: []string{"/spot/order"}, Rate: 300},
	{Prefixes: []string{"/margin/order", "/margin/account", "/margin/position"}, Rate: 300},
	{Prefixes: []string{"/futures/order", "/futures/account", "/futures/position"}, Rate: 300},
	{Prefixes: []string{"/transfer-convert/config"}, Rate: 10},
}

// V3PerAccount is the per-account REST table of the v3 Limits section for
// the classes with a per-account budget (rate plus burst in any 1-second
// window, Limits); other paths are not paced by it.
var V3PerAccount = []PathClass{
	{Prefixes: []string{"/"}, Rate: 1 << 20},
	{Prefixes: []string{"/wallet/", "/transfer-convert/config"}, Rate: 50},
	{Prefixes: []string{"/buy-crypto/"}, Rate: 50},
	{Prefixes: []string{"/sub-account"}, Rate: 50},
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
