package scenarios

import (
	"context"
	"fmt"
	"time"
)

// restRow checks a per-IP REST row: the first target in full, each
// further one for exactness, all over connections opened beforehand.
func (one *oneAddr) restRow(ctx context.Context, l *lane, rr *RowResult) error {
	r := rr.Row
	n := min(r.Budget()+r.Extra(), maxConns)
	w, err := newWarmClient(one.cfg.REST, n, one.cfg.TLS)
	if err != nil {
		return err
	}
	defer w.Close()
	// Opened once: the row's further targets are on the same host, and
	// the transport keeps the connections between offers.
	_, warmErr := w.Warm(ctx, n)
	for i, t := range r.Targets {
		who := fmt.Sprintf("%s from this machine's one address", one.cfg.resolve(t))
		o := Outcome{Who: who, Err: warmErr}
		if warmErr == nil {
			if err := l.drain(ctx); err != nil {
				return err
			}
			s := &restSender{url: one.cfg.url(t), method: t.Method, workers: n, hc: w.Client, guard: one.cfg.Guard}
			o = Check(ctx, who, s, one.plan(r.Budget(), r.Extra(), i == 0))
			l.mark(o)
		}
		if i == 0 {
			rr.Full = append(rr.Full, o)
		} else {
			rr.Others = append(rr.Others, o)
		}
	}
	return nil
}

// accountRow checks a per-account REST row whose path's per-IP budget is
// above the account's (v2's other requests: no per-IP row): two keys of
// the account over connections of one address.
func (one *oneAddr) accountRow(ctx context.Context, l *lane, rr *RowResult) error {
	r, cfg := rr.Row, one.cfg
	t := r.Targets[0]
	if len(cfg.AccountKeys) < 2 {
		rr.Skipped = "needs two keys of one account (roles full and read-only)"
		return nil
	}
	if err := cfg.Guard.Check(t.Method, cfg.resolve(t).Path, true); err != nil {
		rr.Skipped = err.Error()
		return nil
	}
	n := min(r.Budget()+r.Extra(), maxConns)
	w, err := newWarmClient(cfg.REST, n, cfg.TLS)
	if err != nil {
		return err
	}
	defer w.Close()
	if err := l.drain(ctx); err != nil {
		return err
	}
	probe := &restSender{url: cfg.url(t), method: t.Method, workers: 1, cred: &cfg.AccountKeys[0], guard: cfg.Guard, hc: w.Client}
	b, err := probe.Send(ctx, 1)
	if err != nil {
		return err
	}
	l.mark(Outcome{Exact: b})
	if probe.normal == 404 || len(b.Failed) > 0 {
		rr.Skipped = fmt.Sprintf("the target does not serve %s (HTTP %d), so nothing is counted per account", cfg.resolve(t), probe.normal)
		return nil
	}
	if _, err := w.Warm(ctx, n); err != nil {
		rr.Full = []Outcome{{Who: cfg.resolve(t).String(), Err: err}}
		return nil
	}
	if err := l.drain(ctx); err != nil {
		return err
	}
	// Both keys' requests leave at once over the opened connections; a
	// sender learns what an accepted answer is from its first answer that
	// is not a 429, so one whose requests all came late is still counted.
	workers := (n + 1) / 2
	var senders fanout
	for i := range cfg.AccountKeys[:2] {
		senders = append(senders, &restSender{url: cfg.url(t), method: t.Method, workers: workers, cred: &cfg.AccountKeys[i], guard: cfg.Guard, hc: w.Client})
	}
	who := fmt.Sprintf("%s, two keys of one account from one address", cfg.resolve(t))
	o := Check(ctx, who, senders, one.plan(r.Budget(), r.Extra(), true))
	l.mark(o)
	rr.Full = []Outcome{o}
	return nil
}

// streamRow checks a per-IP stream row over its two opened connections.
func (one *oneAddr) streamRow(ctx context.Context, l *lane, rr *RowResult, s *wsSender) error {
	r := rr.Row
	if err := l.drain(ctx); err != nil {
		return err
	}
	o := Check(ctx, fmt.Sprintf("%s from this machine's one address, two connections", r.Targets[0].Path), s, one.plan(r.Budget(), r.Extra(), true))
	l.mark(o)
	rr.Full = []Outcome{o}
	s.close()
	return nil
}

// accountStreamSenders opens the connections of a per-account stream row,
// one per key of the account, before the window drains; skipped says the
// row cannot run here (its reason is in rr).
func (one *oneAddr) accountStreamSenders(ctx context.Context, rr *RowResult) (senders []*wsSender, skipped bool, err error) {
	r, cfg := rr.Row, one.cfg
	t := r.Targets[0]
	if len(cfg.AccountKeys) < 2 {
		rr.Skipped = "needs two keys of one account (roles full and read-only)"
		return nil, true, nil
	}
	if err := cfg.Guard.CheckStream(cfg.WS+"/api/3"+t.Path, streamMethod(t.Message)); err != nil {
		rr.Skipped = err.Error()
		return nil, true, nil
	}
	for i := range 2 {
		s := &wsSender{url: cfg.WS + "/api/3" + t.Path, conns: 1, message: fill(t.Message, cfg.AccountKeys[i]), guard: cfg.Guard}
		if err := s.connect(ctx); err != nil {
			for _, o := range senders {
				o.close()
			}
			return nil, false, err
		}
		senders = append(senders, s)
	}
	return senders, false, nil
}

// accountStreamRow checks a per-account stream row whose per-account
// budget fits in the address's budget of the stream: it logs each
// connection in with a key of its own (paced under the stream's login
// row), learns an accepted answer, lets all that age out, then offers the
// budget with as few extra messages as keep every phase of the slide
// within the address's budget.
func (one *oneAddr) accountStreamRow(ctx context.Context, l *lane, rr *RowResult, senders []*wsSender) error {
	r := rr.Row
	t := r.Targets[0]
	defer func() {
		for _, s := range senders {
			s.close()
		}
	}()
	if err := l.drain(ctx); err != nil {
		return err
	}
	lg := newLogins(t.Path)
	var all fanout
	for i, s := range senders {
		m, err := lg.login(ctx, s.clients[0], fill(msgAcctLogin, one.cfg.AccountKeys[i]))
		if err != nil {
			return fmt.Errorf("logging in on %s: %w", s.url, err)
		}
		if m.Error != nil {
			rr.Skipped = fmt.Sprintf("the login (the real service's BASIC login; the document shows none) on %s was refused: %s", s.url, m.Describe())
			return nil
		}
		l.last = latest(l.last, m.At)
		if err := lg.pacer.Wait(ctx, streamMethod(s.message)); err != nil {
			return err
		}
		b, err := s.Send(ctx, 1)
		if err != nil {
			return err
		}
		if b.Accepted != 1 {
			return fmt.Errorf("the first %s on %s got no answer: %v", streamMethod(s.message), s.url, b.Failed)
		}
		l.last = latest(l.last, b.End)
		all = append(all, s)
	}
	if err := l.drain(ctx); err != nil {
		return err
	}
	// Rest and slide together hold budget plus twice the extra in one
	// window: that must stay within the address's budget of the stream.
	extra := max(1, min(r.Extra(), (r.IPBudget-r.Budget())/2))
	who := fmt.Sprintf("%s %s, two keys of one account from one address", t.Path, streamMethod(t.Message))
	o := Check(ctx, who, all, one.plan(r.Budget(), extra, true))
	l.mark(o)
	rr.Full = []Outcome{o}
	return nil
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
