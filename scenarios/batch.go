package scenarios

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
)

// Config is what a run of the scenarios needs to know about its target.
type Config struct {
	// REST and WS are the base URLs (before /api/3).
	REST, WS string
	// Symbol is a listed spot symbol, for the paths that name one.
	Symbol string
	// Identities are keys of different accounts; with anonymous requests
	// they are the identities V3-LIMIT-PER-IP mixes on one address.
	Identities []client.Credential
	// AccountKeys are two keys of one account, for the per-account rows.
	AccountKeys []client.Credential
	// Addresses hands out source addresses.
	Addresses *Addresses
	// TLS configures every connection to the target (nil: the system's roots).
	TLS *tls.Config
	// Guard is the live-trading guard: a row whose requests are
	// authenticated and mutating runs only where it permits trading, and
	// every offer carries it (nil refuses, see client.Guard).
	Guard *client.Guard
	// Wants reports whether the spec of a rule will run (the label filter);
	// nil means every rule.
	Wants func(rule string) bool
}

func (c Config) wants(rules ...string) bool {
	if c.Wants == nil {
		return true
	}
	for _, r := range rules {
		if c.Wants(r) {
			return true
		}
	}
	return false
}

// Rules whose specs judge the outcomes of other scenarios.
const (
	ruleWindow     = "V3-LIMIT-WINDOW"
	rule429        = "V3-LIMIT-429"
	rule429Code    = "V3-LIMIT-429-CODE"
	rulePerIP      = "V3-LIMIT-PER-IP"
	rulePerAccount = "V3-LIMIT-PER-ACCOUNT"
	ruleRowShared  = "V3-LIMIT-ROW-SHARED"
	ruleMsgRefusal = "V3-LIMIT-WS-MSG-REFUSAL"
	ruleConn       = "V3-LIMIT-WS-CONN"
	ruleConnHow    = "V3-LIMIT-WS-CONN-REFUSAL"
	ruleConnScope  = "V3-LIMIT-WS-CONN-SCOPE"
)

// Results are the outcomes of one run of the scenarios.
type Results struct {
	Rows map[string]*RowResult
	// Identity is V3-LIMIT-PER-IP: mixed identities from each of two
	// addresses (IdentitySkipped says why not).
	Identity        []Outcome
	IdentitySkipped string
	// IdentityInconclusive says why the identity check could not be
	// judged at all (from one address, over a path too slow for it).
	IdentityInconclusive string
	// Readings are the outcomes of the readings (Readings), by rule.
	Readings map[string]Outcome
	Caps     []CapOutcome
	Scope    *ScopeOutcome
	Shared   *SharedOutcome
	Elapsed  time.Duration
	// OneAddress says the scenarios ran from one source address
	// (RunOneAddress), where the parts of a rule that need a second
	// address cannot be checked; Path is what was measured of the path.
	OneAddress bool
	Path       *PathStats
	// Undecidable says why no burst was offered at all (a path too slow
	// for the window).
	Undecidable string
	// Lanes say how long each lane of the one-address run took.
	Lanes []string
}

// RowResult is how one row fared.
type RowResult struct {
	Row Row
	// Skipped says why the row did not run.
	Skipped string
	// Inconclusive says why the row was not offered where it could not
	// be judged (from one address, a per-account budget the address's
	// own hides).
	Inconclusive string
	// Full are the outcomes of the first target, one per address (one in
	// all for a per-account row); Others of each further target.
	Full, Others []Outcome
}

// Outcomes lists every outcome of the row.
func (r *RowResult) Outcomes() []Outcome {
	return append(append([]Outcome(nil), r.Full...), r.Others...)
}

// SharedOutcome is V3-LIMIT-ROW-SHARED: after the budget of one path of a
// row is spent, is another path of the row still served?
type SharedOutcome struct {
	Spent      Outcome
	Then       string
	ThenServed bool
}

// Run runs the scenarios the wanted rules need, all at once: every
// scenario has addresses (and so budgets) of its own, so none disturbs
// another and the whole set takes about as long as its longest row.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	ctx = WithTLS(ctx, cfg.TLS)
	if cfg.Addresses == nil {
		cfg.Addresses = &Addresses{}
	}
	start := time.Now()
	res := &Results{Rows: map[string]*RowResult{}, Readings: map[string]Outcome{}}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	goRun := func(f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				fail(err)
			}
		}()
	}
	heavy := 0
	// The per-account stream rows of one stream share its login budget.
	streamLogins := map[string]*logins{}
	for _, row := range Table() {
		if row.Kind == Stream && row.Scope == PerAccount && !row.Logins && cfg.wants(row.Rule, ruleWindow, ruleMsgRefusal, rulePerAccount) {
			p := row.Targets[0].Path
			if streamLogins[p] == nil {
				streamLogins[p] = newLogins(p)
			}
			streamLogins[p].others.Add(1)
		}
	}
	for _, row := range Table() {
		if !cfg.wants(aggregates(row)...) {
			continue
		}
		rr := &RowResult{Row: row}
		res.Rows[row.Rule] = rr
		// The heavy rows (hundreds of requests a burst) start a little
		// apart, so that their bursts, which must each fit in a fraction
		// of the window, do not all compete for the CPU at once.
		var delay time.Duration
		if row.Budget() >= heavyBudget {
			delay = time.Duration(heavy) * heavyStagger
			heavy++
		}
		if row.Kind == Stream && row.Scope == PerAccount {
			p := row.Targets[0].Path
			if streamLogins[p] == nil {
				streamLogins[p] = newLogins(p)
			}
			lg := streamLogins[p]
			goRun(func() error { return runAccountStreamRow(ctx, cfg, rr, lg) })
			continue
		}
		goRun(func() error {
			if err := sleepUntil(ctx, start.Add(delay)); err != nil {
				return err
			}
			return runRow(ctx, cfg, rr)
		})
	}
	if cfg.wants(rulePerIP) {
		goRun(func() error { return runIdentity(ctx, cfg, res) })
	}
	for _, rd := range Readings() {
		if !cfg.wants(rd.Rule) {
			continue
		}
		goRun(func() error {
			ip, err := cfg.Addresses.Next()
			if err != nil {
				return err
			}
			s := &restSender{url: cfg.url(rd.Target), method: rd.Target.Method, from: ip, workers: 16, guard: cfg.Guard}
			if rd.Keyed {
				if len(cfg.AccountKeys) == 0 {
					return nil // judged "not run"
				}
				s.cred = &cfg.AccountKeys[0]
			}
			o := reading(ctx, fmt.Sprintf("%s from %s", cfg.resolve(rd.Target), ip), rd, s, Plan{})
			mu.Lock()
			res.Readings[rd.Rule] = o
			mu.Unlock()
			return nil
		})
	}
	if cfg.wants(ruleConn, ruleConnHow) {
		res.Caps = make([]CapOutcome, len(capStreams()))
		for i, s := range capStreams() {
			goRun(func() error {
				ips, err := cfg.Addresses.Take(2)
				if err != nil {
					return err
				}
				res.Caps[i] = checkCap(ctx, cfg.WS+"/api/3"+s, ips[0], ips[1])
				return nil
			})
		}
	}
	if cfg.wants(ruleConnScope) {
		goRun(func() error {
			ip, err := cfg.Addresses.Next()
			if err != nil {
				return err
			}
			o := checkScope(ctx, cfg.WS, ip)
			res.Scope = &o
			return nil
		})
	}
	wg.Wait()
	// The row-shared observation spends a heavy budget with no timing to
	// keep: it runs last, out of the way of the slides.
	if cfg.wants(ruleRowShared) {
		if err := runShared(ctx, cfg, res); err != nil {
			fail(err)
		}
	}
	res.Elapsed = time.Since(start)
	return res, firstErr
}

// Rows whose budget reaches heavyBudget start heavyStagger apart.
const (
	heavyBudget  = 500
	heavyStagger = 350 * time.Millisecond
)

// capStreams are the streams whose connection cap is checked.
func capStreams() []string { return []string{"/ws/public", "/ws/trading", "/ws/wallet"} }

// url is the target's absolute URL: its path is relative to /api/3 unless it
// names its version (/api/2/...).
func (c Config) url(t Target) string {
	p := c.resolve(t).Path
	if strings.HasPrefix(p, "/api/") {
		return c.REST + p
	}
	return c.REST + "/api/3" + p
}

// resolve fills in the placeholders of a target's path.
func (c Config) resolve(t Target) Target {
	t.Path = strings.ReplaceAll(t.Path, "{symbol}", c.Symbol)
	return t
}

// sender builds the sender of a per-IP row's target from one address.
func (c Config) sender(r Row, t Target, from net.IP) Sender {
	if r.Kind == Stream {
		return &wsSender{url: c.WS + "/api/3" + t.Path, from: from, conns: 2, message: t.Message, guard: c.Guard}
	}
	return &restSender{url: c.url(t), method: t.Method, from: from, workers: r.Workers, guard: c.Guard}
}

func closeSender(s Sender) {
	if ws, ok := s.(*wsSender); ok {
		ws.close()
	}
}

func runRow(ctx context.Context, cfg Config, rr *RowResult) error {
	r := rr.Row
	if r.Scope == PerAccount {
		return runAccountRow(ctx, cfg, rr)
	}
	addrs, err := cfg.Addresses.Take(r.Addresses + len(r.Targets) - 1)
	if err != nil {
		return err
	}
	plan := Plan{Budget: r.Budget(), Extra: r.Extra()}
	rr.Full = make([]Outcome, r.Addresses)
	rr.Others = make([]Outcome, len(r.Targets)-1)
	var wg sync.WaitGroup
	check := func(out *Outcome, t Target, from net.IP, slide bool) {
		defer wg.Done()
		s := cfg.sender(r, t, from)
		defer closeSender(s)
		p := plan
		p.Slide = slide
		*out = Check(ctx, fmt.Sprintf("%s from %s", cfg.resolve(t), from), s, p)
	}
	for i := range rr.Full {
		wg.Add(1)
		go check(&rr.Full[i], r.Targets[0], addrs[i], true)
	}
	// The further paths need no timing beyond one burst: they run once
	// the slides, which do, are over.
	wg.Wait()
	for i, t := range r.Targets[1:] {
		wg.Add(1)
		go check(&rr.Others[i], t, addrs[r.Addresses+i], false)
	}
	wg.Wait()
	return nil
}

// runAccountRow offers a per-account row's requests from several addresses
// with two keys of one account, so that only the account's budget binds.
// It first checks that the target serves the path at all: an unserved path
// answers 404 before anyone is authenticated, so nothing is counted per
// account and the row cannot be checked there.
func runAccountRow(ctx context.Context, cfg Config, rr *RowResult) error {
	r := rr.Row
	if len(cfg.AccountKeys) < 2 {
		rr.Skipped = "needs two keys of one account (roles full and read-only)"
		return nil
	}
	if err := cfg.Guard.Check(r.Targets[0].Method, cfg.url(r.Targets[0]), true); err != nil {
		rr.Skipped = err.Error()
		return nil
	}
	ips, err := cfg.Addresses.Take(r.Addresses + 1)
	if err != nil {
		return err
	}
	probe := &restSender{url: cfg.url(r.Targets[0]), method: r.Targets[0].Method, from: ips[0], workers: 1, cred: &cfg.AccountKeys[0], guard: cfg.Guard}
	b, err := probe.Send(ctx, 1)
	if err != nil {
		return err
	}
	if probe.normal == 404 || len(b.Failed) > 0 {
		rr.Skipped = fmt.Sprintf("the target does not serve %s (HTTP %d), so nothing is counted per account", cfg.resolve(r.Targets[0]), probe.normal)
		return nil
	}
	// The probe spent one request of the account's budget: let it age out.
	if err := sleepUntil(ctx, b.End.Add(Window+margin)); err != nil {
		return err
	}
	var senders fanout
	for _, ip := range ips[1:] {
		for i := range cfg.AccountKeys[:2] {
			senders = append(senders, &restSender{url: cfg.url(r.Targets[0]), method: r.Targets[0].Method, from: ip, workers: 2, cred: &cfg.AccountKeys[i], guard: cfg.Guard})
		}
	}
	who := fmt.Sprintf("%s, two keys of one account over %d addresses", cfg.resolve(r.Targets[0]), r.Addresses)
	rr.Full = []Outcome{Check(ctx, who, senders, Plan{Budget: r.Budget(), Extra: r.Extra(), Slide: true})}
	return nil
}

// identityPath is a path of the default per-IP class that answers
// authenticated and anonymous requests alike (200 or 401).
const identityPath = "/spot/balance"

// runIdentity offers the default class from two addresses with mixed
// identities (anonymous and each key in turn) and from a third with
// anonymous requests only. Per IP, each mixed address accepts what the
// anonymous one does: the identities share one budget. Comparing with the
// reference, not with the documented 50, leaves the number to
// V3-LIMIT-IP-DEFAULT.
func runIdentity(ctx context.Context, cfg Config, res *Results) error {
	if len(cfg.Identities) == 0 {
		res.IdentitySkipped = "needs at least one key to mix with anonymous requests"
		return nil
	}
	ips, err := cfg.Addresses.Take(3)
	if err != nil {
		return err
	}
	url := cfg.REST + "/api/3" + identityPath
	res.Identity = make([]Outcome, len(ips))
	var wg sync.WaitGroup
	for i, ip := range ips {
		senders := fanout{&restSender{url: url, method: "GET", from: ip, workers: 2}}
		who := fmt.Sprintf("GET %s from %s, anonymous only (the reference)", identityPath, ip)
		if i < len(ips)-1 {
			for j := range cfg.Identities {
				senders = append(senders, &restSender{url: url, method: "GET", from: ip, workers: 2, cred: &cfg.Identities[j], guard: cfg.Guard})
			}
			who = fmt.Sprintf("GET %s from %s, anonymous and with %d keys in turn", identityPath, ip, len(cfg.Identities))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Identity[i] = Check(ctx, who, senders, Plan{Budget: identityBudget, Extra: identityExtra})
		}()
	}
	wg.Wait()
	return nil
}

// The documented default budget and what the identity check offers on top.
const (
	identityBudget = 50
	identityExtra  = 25
)

// identityProblems says how the identity outcomes depart from V3-LIMIT-PER-IP.
func identityProblems(os []Outcome) []string {
	if len(os) == 0 {
		return nil
	}
	ref := os[len(os)-1]
	var p []string
	timingMissed := false
	for _, o := range append([]Outcome{ref}, os[:len(os)-1]...) {
		if o.Err != nil {
			p = append(p, fmt.Sprintf("%s: %v", o.Who, o.Err))
		} else if len(o.Exact.Failed) > 0 {
			p = append(p, fmt.Sprintf("%s: %d requests failed (e.g. %s)", o.Who, len(o.Exact.Failed), o.Exact.Failed[0]))
		}
		timingMissed = timingMissed || len(o.Timing) > 0
	}
	if len(p) > 0 || timingMissed {
		return p // a comparison of outcomes the harness could not time says nothing
	}
	if ref.Exact.Accepted == ref.Exact.Offered {
		return []string{fmt.Sprintf("%s: %s; no request was refused, so there is no per-IP budget to compare", ref.Who, ref.Exact)}
	}
	for _, o := range os[:len(os)-1] {
		if o.Exact.Accepted != ref.Exact.Accepted {
			p = append(p, fmt.Sprintf("%s: %s; one identity alone from another address had %d accepted", o.Who, o.Exact, ref.Exact.Accepted))
		}
	}
	return p
}

// runShared spends the budget of /margin/order/* from one address, then
// asks /margin/account/* at once.
func runShared(ctx context.Context, cfg Config, res *Results) error {
	ip, err := cfg.Addresses.Next()
	if err != nil {
		return err
	}
	var row Row
	for _, r := range Table() {
		if r.Rule == "V3-LIMIT-IP-MARGIN" {
			row = r
		}
	}
	o := &SharedOutcome{Spent: Check(ctx, fmt.Sprintf("%s from %s", cfg.resolve(row.Targets[0]), ip), cfg.sender(row, row.Targets[0], ip), Plan{Budget: row.Budget(), Extra: row.Extra()})}
	then := cfg.sender(row, row.Targets[1], ip).(*restSender)
	b, err := then.Send(ctx, 1)
	if err != nil {
		return err
	}
	o.describe(cfg, row, then, b)
	res.Shared = o
	return nil
}

// describe says how the row's second path answered (b, by then) once the
// first path's budget was spent.
func (o *SharedOutcome) describe(cfg Config, row Row, then *restSender, b Burst) {
	switch {
	case len(b.Failed) > 0:
		o.Then = "failed: " + b.Failed[0]
	case then.normal == 429:
		o.Then = fmt.Sprintf("%s answered HTTP 429 at once: the paths share one budget", cfg.resolve(row.Targets[1]))
	default:
		o.ThenServed = true
		o.Then = fmt.Sprintf("%s answered HTTP %d at once: the paths have budgets of their own", cfg.resolve(row.Targets[1]), then.normal)
	}
}
