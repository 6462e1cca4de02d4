package scenarios

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/client"
)

// identity is V3-LIMIT-PER-IP from one address: the default class offered
// anonymously (the reference), then, once that has aged out, mixing
// anonymous requests with each key in turn. Per IP, both accept the same.
func (one *oneAddr) identity(ctx context.Context, l *lane) error {
	cfg := one.cfg
	if one.undecidable != "" {
		one.res.IdentityInconclusive = one.undecidable
		return nil
	}
	if len(cfg.Identities) == 0 {
		one.res.IdentitySkipped = "needs at least one key to mix with anonymous requests"
		return nil
	}
	url := cfg.REST + "/api/3" + identityPath
	n := identityBudget + identityExtra
	w, err := newWarmClient(cfg.REST, n, cfg.TLS)
	if err != nil {
		return err
	}
	defer w.Close()
	_, warmErr := w.Warm(ctx, n) // once: the second offer reuses them
	offer := func(who string, creds []*client.Credential) Outcome {
		if warmErr != nil {
			return Outcome{Who: who, Err: warmErr}
		}
		if err := l.drain(ctx); err != nil {
			return Outcome{Who: who, Err: err}
		}
		var senders fanout
		for _, c := range creds {
			senders = append(senders, &restSender{url: url, method: "GET", workers: (n + len(creds) - 1) / len(creds), cred: c, guard: cfg.Guard, hc: w.Client})
		}
		o := Check(ctx, who, senders, one.plan(identityBudget, identityExtra, false))
		l.mark(o)
		return o
	}
	ref := offer(fmt.Sprintf("GET %s from one address, anonymous only (the reference)", identityPath), []*client.Credential{nil})
	mixed := []*client.Credential{nil}
	for i := range cfg.Identities {
		mixed = append(mixed, &cfg.Identities[i])
	}
	mix := offer(fmt.Sprintf("GET %s from the same address a window later, anonymous and with %d keys in turn", identityPath, len(cfg.Identities)), mixed)
	one.res.Identity = []Outcome{mix, ref} // the reference last
	return ctx.Err()
}

// reading makes a reading's offer at once over opened connections.
func (one *oneAddr) reading(ctx context.Context, l *lane, rd Reading) error {
	cfg := one.cfg
	who := fmt.Sprintf("%s from one address", cfg.resolve(rd.Target))
	if one.undecidable != "" {
		return nil // judged inconclusive (Results.Undecidable)
	}
	n := min(rd.Offer, maxConns)
	w, err := newWarmClient(cfg.REST, n, cfg.TLS)
	if err != nil {
		return err
	}
	defer w.Close()
	s := &restSender{url: cfg.url(rd.Target), method: rd.Target.Method, workers: n, hc: w.Client, guard: cfg.Guard}
	if rd.Keyed {
		if len(cfg.AccountKeys) == 0 {
			return nil // judged "not run"
		}
		s.cred = &cfg.AccountKeys[0]
	}
	var o Outcome
	if _, err := w.Warm(ctx, n); err != nil {
		o = Outcome{Who: who, Err: err}
	} else {
		if err := l.drain(ctx); err != nil {
			return err
		}
		o = reading(ctx, who, rd, s, one.plan(0, 0, false))
		l.mark(o)
	}
	one.mu.Lock() // the readings are in two lanes
	defer one.mu.Unlock()
	one.res.Readings[rd.Rule] = o
	return nil
}

// shared is V3-LIMIT-ROW-SHARED from one address: the budget of
// /margin/order/* spent, then /margin/account/* asked at once.
func (one *oneAddr) shared(ctx context.Context, l *lane) error {
	if one.undecidable != "" {
		return nil
	}
	var row Row
	for _, r := range Table() {
		if r.Rule == "V3-LIMIT-IP-MARGIN" {
			row = r
		}
	}
	n := min(row.Budget()+row.Extra(), maxConns)
	w, err := newWarmClient(one.cfg.REST, n, one.cfg.TLS)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := w.Warm(ctx, n); err != nil {
		return err
	}
	if err := l.drain(ctx); err != nil {
		return err
	}
	spend := &restSender{url: one.cfg.url(row.Targets[0]), method: row.Targets[0].Method, workers: n, hc: w.Client, guard: one.cfg.Guard}
	o := &SharedOutcome{Spent: Check(ctx, fmt.Sprintf("%s from one address", one.cfg.resolve(row.Targets[0])), spend, one.plan(row.Budget(), row.Extra(), false))}
	then := &restSender{url: one.cfg.url(row.Targets[1]), method: row.Targets[1].Method, workers: 1, hc: w.Client, guard: one.cfg.Guard}
	b, err := then.Send(ctx, 1)
	if err != nil {
		return err
	}
	l.mark(o.Spent, Outcome{Exact: b})
	o.describe(one.cfg, row, then, b)
	one.res.Shared = o
	return nil
}
