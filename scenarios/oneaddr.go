package scenarios

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
)

// The limit scenarios from one source address: against a target off this
// machine, or behind a proxy that connects from one address for all, every
// request of the harness counts in the same per-IP budgets. The phase then
// runs alone (its specs are Serial and ordered last, see suites/limits), so the
// rest of the run's traffic is over before it starts, and it keeps its own
// rows apart:
//
//   - It first measures the path (round trips of a few requests on an
//     opened connection) and opens the stream connections it needs, then
//     lets all of that, and the run's last requests, age out of the window.
//   - Rows that might count in one budget run one after the other in a
//     lane (the REST class of a path, a stream); lanes of separate budgets
//     run side by side. Before each row its lane waits until the window
//     holds none of its earlier requests.
//   - Each row's connections are opened before its window drains (opening
//     one sends no request), so that rate plus burst plus a few more
//     leave together and arrive inside one window; the slide and recovery
//     follow as on loopback (Check).
//   - A burst whose answers came back spread over more than the window is
//     inconclusive with the numbers (the burst and the path), never a
//     pass; a row that one address cannot decide at all (a per-account
//     budget the address's own budget hides) is inconclusive with the
//     reason and is not offered.

// maxConns bounds the connections one row opens from one address: enough
// that the heaviest row (825 requests) leaves in a few round trips.
const maxConns = 128

// Lanes that rows share (the others have one of their own).
const (
	laneDefault = "REST /* (default)"
	lanePublic  = "REST /public/*"
	laneHeavy   = "REST order paths"
	laneConns   = "WebSocket connections"
)

// laneOf names the budget a row spends from one address: rows that might
// share one run one after the other. The default class takes the identity
// check and v2's other requests (a target may count v2 per IP too), the
// public class v2's market data; the heavy rows share the machine's CPU,
// which their bursts of hundreds need alone.
func laneOf(r Row) string {
	switch {
	case r.Kind == Stream:
		return "stream " + r.Targets[0].Path
	case r.Rule == "V3-LIMIT-IP-DEFAULT", r.Rule == "V2-LIMIT-OTHER", r.Scope == PerAccount:
		return laneDefault
	case r.Rule == "V3-LIMIT-IP-PUBLIC", r.Rule == "V2-LIMIT-MARKETDATA":
		return lanePublic
	case r.Budget() >= heavyBudget:
		return laneHeavy
	}
	return "REST " + r.Targets[0].Path
}

// lane runs steps one after the other, each after the window has let go
// of the previous one's requests.
type lane struct {
	name  string
	last  time.Time
	steps []func(context.Context, *lane) error
	// after are the lanes that must be over before this one starts.
	after []*lane
	done  chan struct{}
	took  time.Duration
}

// drain waits until the lane's last request is a window old.
func (l *lane) drain(ctx context.Context) error {
	return sleepUntil(ctx, l.last.Add(Window+margin))
}

// mark records the end of the outcomes' last offer.
func (l *lane) mark(os ...Outcome) {
	for _, o := range os {
		for _, b := range o.Bursts() {
			if b.End.After(l.last) {
				l.last = b.End
			}
		}
	}
	if now := time.Now(); l.last.IsZero() || l.last.After(now) {
		l.last = now
	}
}

// oneAddr is one run from one address.
type oneAddr struct {
	cfg  Config
	res  *Results
	path PathStats
	// undecidable is set when the path is too slow for any row.
	undecidable string
	mu          sync.Mutex // guards res's maps written by several lanes
}

// RunOneAddress runs the scenarios the wanted rules need from the one
// source address this machine has towards cfg's target. It must run
// alone: any other request of the harness to the target in the meantime
// spends the budgets it measures.
func RunOneAddress(ctx context.Context, cfg Config) (*Results, error) {
	ctx = WithTLS(ctx, cfg.TLS)
	start := time.Now()
	one := &oneAddr{cfg: cfg, res: &Results{Rows: map[string]*RowResult{}, Readings: map[string]Outcome{}, OneAddress: true}}
	var err error
	one.path, err = measurePath(ctx, cfg.url(Target{Path: "/public/symbol/{symbol}"}), pathSamples)
	if err != nil {
		return one.res, err
	}
	one.res.Path = &one.path
	one.undecidable = one.path.Undecidable()
	one.res.Undecidable = one.undecidable

	lanes := map[string]*lane{}
	var order []string
	add := func(name string, step func(context.Context, *lane) error) {
		if lanes[name] == nil {
			lanes[name] = &lane{name: name, done: make(chan struct{})}
			order = append(order, name)
		}
		lanes[name].steps = append(lanes[name].steps, step)
	}
	var streams []*wsSender // opened before the window drains, closed at the end
	defer func() {
		for _, s := range streams {
			s.close()
		}
	}()
	for _, row := range Table() {
		if !cfg.wants(aggregates(row)...) {
			continue
		}
		rr := &RowResult{Row: row}
		one.res.Rows[row.Rule] = rr
		// A row whose messages trade is not for a target that may not
		// trade, decidable or not: it says so first.
		if row.Kind == Stream && row.Scope == PerAccount {
			if err := cfg.Guard.CheckStream(cfg.WS+"/api/3"+row.Targets[0].Path, streamMethod(row.Targets[0].Message)); err != nil {
				rr.Skipped = err.Error()
				continue
			}
		}
		if why := one.cannotDecide(row); why != "" {
			rr.Inconclusive = why
			continue
		}
		switch {
		case row.Kind == Stream && row.Scope == PerAccount:
			senders, skipped, err := one.accountStreamSenders(ctx, rr)
			if err != nil {
				return one.res, err
			}
			if skipped {
				continue
			}
			streams = append(streams, senders...)
			add(laneOf(row), func(ctx context.Context, l *lane) error { return one.accountStreamRow(ctx, l, rr, senders) })
		case row.Kind == Stream:
			t := row.Targets[0]
			s := &wsSender{url: cfg.WS + "/api/3" + t.Path, conns: 2, message: t.Message, guard: cfg.Guard}
			if err := s.connect(ctx); err != nil {
				return one.res, err
			}
			streams = append(streams, s)
			add(laneOf(row), func(ctx context.Context, l *lane) error { return one.streamRow(ctx, l, rr, s) })
		case row.Scope == PerAccount:
			add(laneOf(row), func(ctx context.Context, l *lane) error { return one.accountRow(ctx, l, rr) })
		default:
			add(laneOf(row), func(ctx context.Context, l *lane) error { return one.restRow(ctx, l, rr) })
		}
	}
	if cfg.wants(rulePerIP) {
		add(laneDefault, one.identity)
	}
	if cfg.wants(ruleRowShared) {
		add(laneHeavy, one.shared)
	}
	for _, rd := range Readings() {
		if cfg.wants(rd.Rule) {
			// Market data beside v3's public class, the per-user one in
			// the default lane (a target may count it per IP there).
			name := laneDefault
			if !rd.Keyed {
				name = lanePublic
			}
			add(name, func(ctx context.Context, l *lane) error { return one.reading(ctx, l, rd) })
		}
	}
	// Connections after the default class and the streams, alone with
	// the lanes of other classes: every connection the harness opens
	// counts towards the address's cap, and a target may count a
	// handshake as a request of the default REST class.
	if cfg.wants(ruleConn, ruleConnHow, ruleConnScope) {
		add(laneConns, one.connections)
		c := lanes[laneConns]
		for _, name := range order {
			if name != laneConns && (name == laneDefault || strings.HasPrefix(name, "stream ")) {
				c.after = append(c.after, lanes[name])
			}
		}
	}

	// Everything sent so far (the path's requests, the handshakes, the
	// run's last requests before this phase) ages out before any row.
	ready := time.Now()
	for _, l := range lanes {
		l.last = ready
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	// The lanes start a little apart, so that their first bursts do not
	// all compete for the CPU at once.
	for i, name := range order {
		l := lanes[name]
		l.last = l.last.Add(time.Duration(i) * laneStagger)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(l.done)
			for _, before := range l.after {
				select {
				case <-before.done:
					l.last = latest(l.last, before.last)
				case <-ctx.Done():
					return
				}
			}
			began := time.Now()
			defer func() { l.took = time.Since(began) }()
			for _, step := range l.steps {
				if err := step(ctx, l); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", l.name, err)
					}
					mu.Unlock()
					if ctx.Err() != nil {
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, name := range order {
		one.res.Lanes = append(one.res.Lanes, fmt.Sprintf("%s: %d steps in %s", name, len(lanes[name].steps), lanes[name].took.Round(time.Millisecond)))
	}
	one.res.Elapsed = time.Since(start)
	return one.res, firstErr
}

// connections checks the cap of each stream, then its scope, with no
// other connection of the harness open.
func (one *oneAddr) connections(ctx context.Context, l *lane) error {
	// The row's connections were closed as their lanes ended: let the
	// target see them go.
	if err := sleepUntil(ctx, l.last.Add(Window)); err != nil {
		return err
	}
	if one.cfg.wants(ruleConn, ruleConnHow) {
		for _, s := range capStreams() {
			url := one.cfg.WS + "/api/3" + s
			c := checkCap(ctx, url, nil, nil)
			if c.Opened < ConnCap && !c.ExtraAccepted {
				// A connection of the run's (or of a row's) may not have
				// been let go of yet: once more, a little later.
				if err := sleepUntil(ctx, time.Now().Add(2*time.Second)); err != nil {
					return err
				}
				c = checkCap(ctx, url, nil, nil)
				c.Attempts = 2
			}
			one.res.Caps = append(one.res.Caps, c)
		}
	}
	if one.cfg.wants(ruleConnScope) {
		o := checkScope(ctx, one.cfg.WS, nil)
		one.res.Scope = &o
	}
	l.last = time.Now()
	return ctx.Err()
}

// pathSamples is how many requests measure the path.
const pathSamples = 8

// laneStagger is how far apart the lanes start.
const laneStagger = 150 * time.Millisecond

// aggregates are the rules whose verdicts a row's outcomes feed, its own
// first.
func aggregates(r Row) []string {
	out := []string{r.Rule, ruleWindow}
	if r.Kind == REST {
		out = append(out, rule429, rule429Code)
	} else {
		out = append(out, ruleMsgRefusal)
	}
	if r.Scope == PerAccount {
		out = append(out, rulePerAccount)
	}
	return out
}

// cannotDecide says why one address cannot judge a row at all, before
// anything is offered.
func (one *oneAddr) cannotDecide(r Row) string {
	if one.undecidable != "" {
		return one.undecidable
	}
	if r.Scope != PerAccount || r.IPBudget == 0 {
		return ""
	}
	// From one address every request of the account counts in the
	// address's budget of the path too: when that is no larger than the
	// account's (with room for a few extra requests at every phase of the
	// slide), the address's budget binds first or at the same count, and
	// no count can tell the account's budget.
	if r.IPBudget < r.Budget()+2 {
		return fmt.Sprintf("from one source address, the per-IP budget of %s (%d in a window) is not above this per-account budget (%d): "+
			"the address's budget binds first or at the same count, so the account's cannot be told; it needs requests of the account from a second address",
			one.cfg.resolve(r.Targets[0]), r.IPBudget, r.Budget())
	}
	return ""
}

// plan is the plan of a row's budget over this path.
func (one *oneAddr) plan(budget, extra int, slide bool) Plan {
	return Plan{Budget: budget, Extra: extra, Slide: slide, Gap: one.path.Gap(), Path: one.path.String()}
}

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
