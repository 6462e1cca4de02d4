package client

import (
	"context"
	"sync"
	"time"
)

// Budget keeps a client's requests within a per-second count per path class
// as a sliding window: up to the rate at once, then as slots free up.
// Unlike Pacer it does not space requests evenly, so a spec that sends a
// few requests pays nothing; one that sends many waits only as long as the
// limit requires. Share one per account whose budget is counted together.
// It is safe for concurrent use.
type Budget struct {
	pacer  *Pacer // for classOf
	margin time.Duration
	mu     sync.Mutex
	sent   map[int][]time.Time // class -> send times within the last window
	now    func() time.Time
}

// NewBudget returns a budget over classes, keeping one request below each
// rate and a margin over the one-second window.
func NewBudget(classes []PathClass) *Budget {
	return &Budget{pacer: NewPacer(classes, 1), margin: 100 * time.Millisecond, sent: map[int][]time.Time{}, now: time.Now}
}

// Wait blocks until a request to path fits its class's budget, and counts it.
func (b *Budget) Wait(ctx context.Context, path string) error {
	i := b.pacer.classOf(path)
	rate := b.pacer.classes[i].Rate
	if rate <= 0 {
		return nil
	}
	keep := max(rate-1, 1)
	window := time.Second + b.margin
	for {
		b.mu.Lock()
		now := b.now()
		ts := b.sent[i]
		for len(ts) > 0 && now.Sub(ts[0]) >= window {
			ts = ts[1:]
		}
		if len(ts) < keep {
			b.sent[i] = append(ts, now)
			b.mu.Unlock()
			return nil
		}
		wait := window - now.Sub(ts[0])
		b.sent[i] = ts
		b.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// WithBudget keeps requests within b (see Budget).
func WithBudget(b *Budget) Option { return func(c *Client) { c.budget = b } }

// WithPrefix sets the API version prefix of relative paths (default
// "/api/3"; "/api/2" for version 2).
func WithPrefix(prefix string) Option { return func(c *Client) { c.prefix = prefix } }

// Quiet blocks until every request the budget counted has left its window,
// so that whatever comes next starts from a full budget on the target
// (the limit scenarios measure per-user budgets from there).
func (b *Budget) Quiet(ctx context.Context) error {
	window := time.Second + b.margin
	b.mu.Lock()
	var last time.Time
	for _, ts := range b.sent {
		if n := len(ts); n > 0 && ts[n-1].After(last) {
			last = ts[n-1]
		}
	}
	b.mu.Unlock()
	if d := last.Add(window).Sub(b.now()); d > 0 {
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

// Saturate counts a full window of requests in every class now: for
// requests the budget did not see (a limit scenario spending the same
// account's budget), so that the next ones wait for the window to pass.
func (b *Budget) Saturate() {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	for i, c := range b.pacer.classes {
		if c.Rate <= 0 {
			continue
		}
		ts := make([]time.Time, max(c.Rate-1, 1))
		for j := range ts {
			ts[j] = now
		}
		b.sent[i] = ts
	}
}
