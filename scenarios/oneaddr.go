package scenarios

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
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
	laneMargin  = "REST margin paths"
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
	case r.Rule == "V3-LIMIT-IP-MARGIN":
		return laneMargin
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
		add(laneMargin, one.shared) // it spends the margin row's budget
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
