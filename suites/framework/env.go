package framework

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// Timeouts used by every spec, from one place.
var Timeouts = struct {
	Request    time.Duration
	Eventually time.Duration
	Poll       time.Duration
}{Request: 10 * time.Second, Eventually: 5 * time.Second, Poll: 20 * time.Millisecond}

// Flags are the suite binary's own flags (after -- on the ginkgo command
// line). The target is not among them: conform run hands it down whole and
// finished in the environment (target.SuiteEnv), and the suite overlays
// nothing on it.
type Flags struct {
	// Faults are the rule IDs whose faults the embedded emulator switches on.
	Faults string
	// Report is where the suite writes the report of the specs its label
	// filter selects (see WriteSelectedReport).
	Report string
	// Progress is the progress file conform tails (see Progress).
	Progress string
}

// RegisterFlags binds the suite flags to fs (flag.CommandLine in the suite).
func RegisterFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{}
	fs.StringVar(&f.Faults, "conform.faults", "", "comma-separated rule IDs whose faults the embedded emulator switches on")
	fs.StringVar(&f.Progress, "conform.progress", "", "append a line to this `file` whenever a spec starts or ends (internal: set by the CLI, which shows the run's progress and notices a stall)")
	fs.StringVar(&f.Report, "conform.report", "", "write a Ginkgo JSON report of the suite nodes and the specs the label filter selects to this `path` (a mutation run's: without the other specs)")
	return f
}

// handedTarget is the run's target as conform run handed it down
// (target.SuiteEnv): finished, or the zero config of the embedded emulator.
// A suite run without conform run that names a target the way conform run
// reads one (CONFORM_TARGET) is refused rather than run on the embedded
// emulator: the suite resolves no target of its own.
func handedTarget() (target.Config, error) {
	v, handed := os.LookupEnv(target.SuiteEnv)
	if !handed {
		for _, name := range []string{"CONFORM_TARGET", "CONFORM_WS_TARGET"} {
			if os.Getenv(name) != "" {
				return target.Config{}, fmt.Errorf("%s names a target, but the suite takes its target only from conform run (%s): run it with conform run", name, target.SuiteEnv)
			}
		}
	}
	return target.FromHandoff(v)
}

// Env is the resolved target of this Ginkgo process.
type Env struct {
	Config    target.Config
	transport *http.Transport
	// tls configures every TLS connection to the target (nil: the system's
	// roots); the target config's ca_file adds a private CA.
	tls *tls.Config
	// On a loopback target every client gets a source address of its own in
	// 127.(16+process).0.0/16, so per-IP budgets are never shared between
	// specs. Elsewhere one address is all there is: clients share pacer,
	// which keeps this process under its share of every class's rate.
	loopback bool
	// forward names each client's own address in X-Forwarded-For, for an
	// emulator behind a proxy on this machine that connects from one
	// address for all (see limits.ClientIP in the emulator).
	forward  bool
	nextAddr atomic.Uint32
	pacer    *client.Pacer
	// v2pacer keeps this process under its share of the per-IP rows of
	// version 2 (market data), which counts apart from version 3.
	v2pacer *client.Pacer
	// acctPacer keeps this process's account (its own, as every process's)
	// under the per-account budgets of /sub-account, /buy-crypto and /wallet.
	acctPacer *client.Pacer
	// guard refuses authenticated mutating requests unless the target may
	// trade; every client and load offer of the suite carries it.
	guard *client.Guard
	// v2budget keeps the process's authenticated v2 requests within the
	// per-user rates of the v2 Limits section (its account is its own).
	v2budget *client.Budget
	// redactor knows every configured secret (and on the emulator every
	// fixture secret); failures and transcripts pass through it.
	redactor *client.Redactor
	// streamPacers pace the messages of this process on a stream when its
	// connections share one source address (a target off loopback).
	streamMu     sync.Mutex
	streamPacers map[string]*client.Pacer
	// retrying is set while a spec body runs under retryOnInterference, so
	// that Interfered may end the attempt instead of skipping.
	retrying bool
}

// LabelProvokes429 marks specs that exceed a rate limit on purpose; any other
// spec that meets a 429 fails, since it means the suite's pacing is wrong.
const LabelProvokes429 = "provokes-429"

// env is set once per process by Setup, before any spec runs, and only read
// afterwards (but for retrying, which only the running spec touches): the
// suite process's equivalent of main's wiring.
var env *Env

// Current returns the process's target.
func Current() *Env {
	if env == nil {
		RedactedFail("framework: the target is not set up (SynchronizedBeforeSuite did not run)")
	}
	return env
}

// StartTarget runs on Ginkgo process 1: it takes the target conform run
// handed down, finished, or, when none is given, starts the embedded
// emulator and resolves it. It returns the config to hand to every process
// and a function that stops what it started.
func StartTarget(f *Flags) ([]byte, func(), error) {
	dieWithParent()
	cfg, err := handedTarget()
	if err != nil {
		return nil, nil, err
	}
	stop := func() {}
	if cfg.REST == "" {
		if cfg, stop, err = startEmulator(cfg, f.Faults); err != nil {
			return nil, nil, err
		}
	} else if f.Faults != "" {
		return nil, nil, fmt.Errorf("-conform.faults applies to the embedded emulator only, not to target %s", cfg.REST)
	}
	b, err := json.Marshal(cfg)
	return b, stop, err
}

// startEmulator starts the embedded emulator with the faults named (comma
// separated) and returns cfg aimed at it, resolved.
func startEmulator(cfg target.Config, faultIDs string) (target.Config, func(), error) {
	var fs []string
	if faultIDs != "" {
		fs = strings.Split(faultIDs, ",")
	}
	emu, err := emulator.New(emulator.Options{Faults: fs, ControlPlane: true})
	if err != nil {
		return cfg, nil, fmt.Errorf("embedded emulator: %w", err)
	}
	if err := emu.Start(); err != nil {
		return cfg, nil, fmt.Errorf("embedded emulator: %w", err)
	}
	stop := func() { _ = emu.Close() }
	cfg.REST = emu.URL()
	// It knows only its fixture accounts (Setup hands each process its
	// own): keys configured for another target do not apply.
	cfg.Accounts, cfg.AccountSets = nil, nil
	if err := cfg.Validate(); err != nil {
		stop()
		return cfg, nil, err
	}
	res, err := target.Resolve(context.Background(), cfg, nil)
	if err != nil {
		stop()
		return cfg, nil, err
	}
	cfg.Apply(res)
	return cfg, stop, nil
}

// Setup runs on every process with the config from StartTarget. On the
// emulator, process p takes fixture account p so parallel specs never share
// balances or orders.
func Setup(data []byte) error {
	dieWithParent()
	var cfg target.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return fmt.Errorf("framework: target config: %w", err)
	}
	suiteCfg, _ := GinkgoConfiguration()
	p, n := GinkgoParallelProcess(), max(1, suiteCfg.ParallelTotal)
	cfg, err := cfg.ForProcess(p, n)
	if err != nil {
		return fmt.Errorf("framework: %w", err)
	}
	if cfg.Emulator && len(cfg.Accounts) == 0 {
		accts, err := fixtures.Accounts()
		if err != nil {
			return err
		}
		// Process p owns account p and, as its counterparty, the account half
		// the list away, so no two processes share an account.
		half := len(accts) / 2
		if p > half {
			return fmt.Errorf("framework: process %d of %d has no fixture account of its own (there are %d): run with --procs %d or fewer", p, n, half, half)
		}
		own := accts[p-1]
		other := accts[half+p-1]
		cfg.Accounts = map[string]target.Account{}
		for _, k := range own.Keys {
			cfg.Accounts[k.Role] = target.Account{APIKey: k.APIKey, Secret: k.Secret, Rights: k.Rights}
		}
		for _, k := range other.Keys {
			if k.Role == target.RoleFull {
				cfg.Accounts[target.RoleCounterparty] = target.Account{APIKey: k.APIKey, Secret: k.Secret, Rights: k.Rights,
					Username: other.Username(), Email: other.Email()}
			}
		}
		// The first two keyed sub-accounts of the process's own account
		// are its sub and sub2: sub-account state is never shared either.
		subRoles := []string{target.RoleSub, target.RoleSub2}
		for _, s := range own.SubAccounts {
			if len(s.Keys) > 0 && len(subRoles) > 0 {
				k := s.Keys[0]
				cfg.Accounts[subRoles[0]] = target.Account{APIKey: k.APIKey, Secret: k.Secret, Rights: k.Rights, SubAccountID: s.SubAccountID, SubAccountUserID: s.UserID}
				subRoles = subRoles[1:]
			}
		}
		// Its disabled sub-account is what a v2 activation must answer
		// false for; a target config names one the same way.
		for _, s := range own.SubAccounts {
			if full, ok := cfg.Accounts[target.RoleFull]; ok && s.Status == "disable" {
				full.DisabledSubAccountUserID = s.UserID
				cfg.Accounts[target.RoleFull] = full
				break
			}
		}
	}
	// Behind a proxy that merges source addresses, an emulator still tells
	// clients apart by the address each names (X-Forwarded-For); any other
	// target behind one gets paced clients.
	forward := cfg.SharedSource && cfg.Emulator && cfg.IsLoopback()
	conf, err := cfg.TLS()
	if err != nil {
		return fmt.Errorf("framework: %w", err)
	}
	tr := client.DefaultTransport()
	tr.TLSClientConfig = conf
	env = &Env{Config: cfg, streamPacers: map[string]*client.Pacer{}, transport: tr, tls: conf, loopback: cfg.OwnSourceAddresses() || forward, forward: forward,
		guard: tradingGuard(cfg), redactor: newRedactor(cfg), v2budget: client.NewBudget(v2PerUserClasses())}
	if !env.loopback {
		env.pacer, env.v2pacer = runPacer("rest-v3", perIPClasses(), n), runPacer("rest-v2", v2PerIPClasses(), n)
	} else {
		env.pacer, env.v2pacer = client.NewPacer(perIPClasses(), 1/float64(n)), client.NewPacer(v2PerIPClasses(), 1/float64(n))
	}
	env.acctPacer = client.NewPacer(perAccountClasses(), 1)
	return nil
}

// Scheme selects how a signed client authenticates.
type Scheme int

// Authentication schemes of the v3 Authentication section.
const (
	Basic Scheme = iota
	HS256
)

func (s Scheme) String() string { return [...]string{"Basic", "HS256"}[s] }

// recorded makes a client whose exchanges are attached to the current spec's
// report when it fails.
func (e *Env) recorded(opts ...client.Option) *client.Client {
	rec := &client.Recorder{}
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() && len(rec.Exchanges()) > 0 {
			reportEntry("exchanges", rec.String(), ReportEntryVisibilityFailureOrVerbose)
		}
	})
	DeferCleanup(func() {
		if slices.Contains(CurrentSpecReport().Labels(), LabelProvokes429) {
			return
		}
		for _, ex := range rec.Exchanges() {
			if ex.Status == http.StatusTooManyRequests {
				RedactedFail(fmt.Sprintf("the target answered HTTP 429 to a request this spec did not mean to rate-limit; the suite's pacing or source addresses are wrong:\n%s", ex))
			}
		}
	})
	hc, local := e.httpClient()
	opts = append([]client.Option{client.WithRecorder(rec), client.WithHTTPClient(hc),
		client.WithGuard(e.guard), client.WithRedactor(e.redactor), client.OnRefused(skipRefused), client.WithAccountPacer(e.acctPacer)}, opts...)
	switch {
	case !e.loopback:
		opts = append(opts, client.WithPacer(e.pacer), client.WithPacerFor("/api/3", e.pacer), client.WithPacerFor(V2Prefix, e.v2pacer))
	case e.forward:
		opts = append(opts, client.WithHeader("X-Forwarded-For", local.String()))
	}
	c, err := client.New(e.Config.REST, opts...)
	if err != nil {
		RedactedFail(err.Error())
	}
	return c
}

// httpClient returns the HTTP client for a new API client and its source
// address: on loopback a transport bound to a fresh source address,
// elsewhere the shared one (and no address of its own).
func (e *Env) httpClient() (*http.Client, net.IP) {
	if !e.loopback {
		return &http.Client{Transport: e.transport, Timeout: Timeouts.Request}, nil
	}
	n := e.nextAddr.Add(1)
	local := &net.TCPAddr{IP: net.IPv4(127, byte(16+GinkgoParallelProcess()), byte(n>>8), byte(n))}
	t := client.DefaultTransport()
	t.TLSClientConfig = e.tls
	t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, LocalAddr: local}).DialContext
	DeferCleanup(t.CloseIdleConnections)
	return &http.Client{Transport: t, Timeout: Timeouts.Request}, local.IP
}

// TLS is the TLS configuration of every connection to the target, for
// specs and scenarios that dial themselves (nil: the system's roots). It
// must not be changed; Clone it to set a ServerName.
func (e *Env) TLS() *tls.Config { return e.tls }

// HTTPClient is a plain HTTP client for the target's hosts (the control
// plane, for one), on the process's shared keep-alive transport.
func (e *Env) HTTPClient() *http.Client {
	return &http.Client{Transport: e.transport, Timeout: Timeouts.Request}
}

// Public returns a client without credentials.
func (e *Env) Public() *client.Client { return e.recorded() }

// Account returns the key for a role, skipping the spec when the target
// config has none.
func (e *Env) Account(role string) target.Account {
	a, ok := e.Config.Accounts[role]
	if !ok {
		Skip(fmt.Sprintf("no key configured for role %q (set CONFORM_KEY_%s or accounts.%s in the target config)",
			role, strings.ToUpper(strings.ReplaceAll(role, "-", "_")), role))
	}
	return a
}

// Signed returns a client authenticating as role with the given scheme.
func (e *Env) Signed(role string, s Scheme) *client.Client {
	a := e.Account(role)
	var au client.Authenticator = client.Basic{Key: a.APIKey, Secret: a.Secret}
	if s == HS256 {
		au = client.HS256{Key: a.APIKey, Secret: a.Secret}
	}
	return e.recorded(client.WithAuth(au))
}

// HostPort is the target's TCP address, for specs that speak raw HTTP.
func (e *Env) HostPort() string {
	u, _ := url.Parse(e.Config.REST)
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// RequireTrading skips the spec unless orders may be placed on the REST
// target: the emulator, a declared sandbox, or --allow-live-trading.
func (e *Env) RequireTrading() {
	if ok, why := e.Config.MayTrade(); !ok {
		Skip("places orders: " + why)
	}
}

// RequireStreamTrading skips the spec unless orders may be placed on the
// stream target too, which may be another host than the REST target's:
// specs that trade on a stream call it (after RequireTrading when they
// also clean up over REST).
func (e *Env) RequireStreamTrading() {
	if ok, why := e.Config.MayTradeStream(); !ok {
		Skip("places orders on the stream: " + why)
	}
}

// RequireEmulator skips the spec unless the target is a conform emulator
// with its control plane, saying why its rule needs one (the catalogue's
// EmulatorOnly).
func (e *Env) RequireEmulator() {
	if !e.Config.Emulator {
		msg := "emulator-only: needs the conform emulator's control plane (reset, fund, clock), which this target does not have"
		for _, id := range rules.FromLabels(CurrentSpecReport().Labels()) {
			if r, ok := rules.Default().Lookup(id); ok && r.EmulatorOnly != "" {
				msg += "; " + id + ": " + r.EmulatorOnly
			}
		}
		Skip(msg)
	}
}

// perAccountClasses are the per-account REST rows of the limit tables, for
// the process's own account: rate plus burst in any 1-second window (the
// Limits section's reading); other paths are left unpaced by them.
func perAccountClasses() []client.PathClass {
	cs := []client.PathClass{{Prefixes: []string{"/"}, Rate: 1 << 20}}
	for _, l := range rules.Limits() {
		if !l.Stream && l.PerAccount && !strings.HasPrefix(l.Rule, "V2-") {
			cs = append(cs, client.PathClass{Prefixes: l.Prefixes, Rate: l.Rate + l.Burst})
		}
	}
	return cs
}

// v2PerUserClasses are the per-user rows of the harness's reading of the
// v2 Limits section, for the budget of v2 clients; market data is counted
// per IP only (Rate 0: not counted there).
func v2PerUserClasses() []client.PathClass {
	cs := []client.PathClass{{Prefixes: []string{"/public/"}, Rate: 0}}
	for _, l := range rules.V2Limits() {
		if l.PerAccount {
			cs = append(cs, client.PathClass{Prefixes: l.Prefixes, Rate: l.Rate})
		}
	}
	return cs
}

// v2PerIPClasses are the per-IP rows of the harness's reading of the v2
// Limits section (market data), for pacing v2 requests; the others are
// counted per user (v2PerUserClasses), not here.
func v2PerIPClasses() []client.PathClass {
	cs := []client.PathClass{{Prefixes: []string{"/"}, Rate: 1 << 20}}
	for _, l := range rules.V2Limits() {
		if !l.PerAccount {
			cs = append(cs, client.PathClass{Prefixes: l.Prefixes, Rate: l.Rate, Burst: l.Burst})
		}
	}
	return cs
}

// perIPClasses are the per-IP REST rows of the harness's reading of the
// limit tables, for pacing clients.
func perIPClasses() []client.PathClass {
	var cs []client.PathClass
	for _, l := range rules.Limits() {
		if !l.Stream && !l.PerAccount {
			cs = append(cs, client.PathClass{Prefixes: l.Prefixes, Rate: l.Rate, Burst: l.Burst})
		}
	}
	return cs
}
