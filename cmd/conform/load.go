package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/load"
	"github.com/conform-harness/conform/target"
)

// Exit codes of conform load, documented in `conform help`.
const (
	exitThreshold = 4 // a load threshold was breached
	exitInvalid   = 5 // the load run is invalid: the achieved rate fell short of the requested one by more than 1%
)

const loadSynopsis = `usage: conform load --scenario NAME (--rate N[/s] | --ramp FROM:TO) --duration D [flags]
       conform load merge --out DIR [--threshold EXPR ...] [--requested-rate N] FILE.bin|stream.json ...

Offers a named scenario to the target at a constant (--rate) or linearly
ramping (--ramp) rate for --duration, with Vegeta, and writes to --out:
results.bin (Vegeta's gob encoding: vegeta report/plot read it),
summary.json, report.html (summary, latency histogram, latency over time),
and prints the summary. A progress line goes to stderr every second.

Without --target (or CONFORM_TARGET), the embedded emulator is started on
loopback with its rate limits on (--emulator-no-limits switches them off,
for capacity runs of the emulator itself).

Scenarios: public (GET /public/symbol, /public/currency and the futures
candles lists, in turn); orders (place a resting limit buy far below the
market, cancel it once placed; every request with a fresh client_order_id,
timestamp and HS256 signature, with the key of role full or trade-only);
mixed (one public request for every four order requests).

Stream scenarios write stream.json (the figures of the run, which conform
load merge combines), summary.json and report.html (latency, messages and
connections over time). ws-market opens --subscribers market data
connections spread over --channels and the traded symbols (from 127.1.x.y
source addresses on a loopback target, one per 20 connections), then a
driver trades at --rate between the key of role full and the counterparty
(--trade SYMBOL:QUANTITY@PRICE, swapping sides every round); it measures each
trade's own timestamp to its receipt (trades channel), messages per second,
gaps (trade ids a subscriber missed that others of its symbol received),
disconnects and --slow-consumers. ws-connect opens --rate connections per
second for --duration, held open, and reports when and how they start
failing (the per-address cap). ws-trading logs in on the trading stream
with the key of role full and places and cancels resting orders (the
--order-* flags) at --rate, measuring each request to its answer; one
address may send 10 stream messages per second (and 10 of burst).
ws2-market and ws2-trading are their counterparts on the v2 JSON-RPC
streams (/api/2/ws/public, /api/2/ws/trading): ws2-market subscribes
(subscribeTicker, subscribeOrderbook, subscribeTrades, subscribeCandles;
--channels ticker,orderbook,trades,candles[/PERIOD]) with the same REST
driver, takes latency from each updateTrades entry's own timestamp and
counts gaps in trade ids and in the order book's sequence; ws2-trading
logs in (BASIC), subscribes to reports and sends newOrder and cancelOrder,
measuring each request to its order's report. There is no v2 ws-connect:
the v2 document states no stream limits. The stream scenarios' default
thresholds: success>=0.99, gaps==0, disconnects==0 (ws-connect:
disconnects==0). Placing orders on
a target that is neither the emulator nor a sandbox needs
--allow-live-trading.

Runs are bounded: a peak rate above 10000/s, a duration above 10m, more than
10000 workers or connections are refused unless --override-bounds is given.
Requests only ever go to the target's scheme and host; redirects are not
followed.

Verdict: INVALID (exit 5) when the achieved rate falls short of the
requested one by more than 1%; otherwise
thresholds decide: exit 4 when one is breached. Without --threshold the
default is success>=0.99 (the share of 429 answers is reported beside it);
--threshold none opts out. SIGINT or SIGTERM stops the run, keeps what was
measured (results.bin, summary.json, report.html, verdict INTERRUPTED) and
exits 130 or 143. Thresholds:
p50|p90|p95|p99|max<DURATION, success>RATIO (or 99%), rate>N; also <= and >=;
stream scenarios also gaps==N, disconnects==N, messages>N (per second).

conform load merge combines the results.bin files of several workers
(hosts) into one report in --out; each file's runs are read from the
summary.json beside it, so every worker is judged against its own
requested rate (--requested-rate gives the total for bare Vegeta files).`

// defaultThreshold applies when no --threshold is given: a capacity run
// whose answers were mostly refusals (a 429 storm) must not exit 0.
const defaultThreshold = "success>=0.99"

// withDefault returns l, or the default threshold when none was given
// (nil: the flag never set; "none" leaves an empty list).
func (l thresholdList) withDefault() thresholdList {
	if l != nil {
		return l
	}
	t, err := load.ParseThreshold(defaultThreshold)
	if err != nil {
		panic(err) // a constant
	}
	return thresholdList{t}
}

// thresholdList is a repeatable --threshold flag.
type thresholdList []load.Threshold

func (l *thresholdList) String() string { return joinFlag(*l) }

// joinFlag is a repeatable flag's String: its values, space-separated.
func joinFlag[T fmt.Stringer](vs []T) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, " ")
}

func (l *thresholdList) Set(s string) error {
	if strings.TrimSpace(s) == "none" {
		// Opts out of the default; an empty, non-nil list.
		*l = thresholdList{}
		return nil
	}
	t, err := load.ParseThreshold(s)
	if err != nil {
		return err
	}
	*l = append(*l, t)
	return nil
}

// loadOptions are the flags of conform load.
type loadOptions struct {
	target, config, caFile    string
	sandbox, allowLiveTrading bool
	emulatorNoLimits          bool
	netHTTP                   bool
	scenario, rate, ramp      string
	duration, timeout         time.Duration
	workers, maxWorkers       uint64
	connections               int
	out                       string
	thresholds                thresholdList
	localAddr                 string
	workerID                  int
	overrideBounds            bool
	orderSymbol, orderSide    string
	orderQuantity, orderPrice string
	stream                    streamOptions
	// set records which flags were given (for the target config overrides).
	set map[string]bool
	// Parsed from the flags above.
	pacing  load.Pacing
	localIP net.IP
}

func loadFlagSet(o *loadOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	def := load.DefaultOrderParams()
	fs.StringVar(&o.target, "target", "", "REST base URL of the target, before /api/3 (empty: start the embedded emulator)")
	fs.StringVar(&o.config, "config", "", "target config `file` (JSON: rest, sandbox, accounts by role), as for conform run")
	fs.StringVar(&o.caFile, "ca-file", "", "PEM `file` of the CA that issued the target's TLS certificate, trusted beside the system's roots (ca_file in the config)")
	fs.BoolVar(&o.sandbox, "sandbox", false, "declare the target a sandbox, where orders may be placed")
	fs.BoolVar(&o.allowLiveTrading, "allow-live-trading", false, "let the order scenarios place orders on a target that is not a sandbox")
	fs.BoolVar(&o.emulatorNoLimits, "emulator-no-limits", false, "start the embedded emulator with its rate limits off")
	fs.BoolVar(&o.netHTTP, "net-http", false, "send through Go's net/http client even on plain http targets (the generator's own HTTP/1.1 client is faster)")
	fs.StringVar(&o.scenario, "scenario", "", "scenario `name` (required): "+strings.Join(load.ScenarioNames(), ", "))
	fs.StringVar(&o.rate, "rate", "", "constant rate: N, N/s, N/1m, or max (needs --override-bounds)")
	fs.StringVar(&o.ramp, "ramp", "", "linear ramp FROM:TO requests per second over the duration")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "duration of the run")
	fs.Uint64Var(&o.workers, "workers", 10, "initial number of sending workers")
	fs.Uint64Var(&o.maxWorkers, "max-workers", 1000, "maximum number of sending workers")
	fs.IntVar(&o.connections, "connections", 100, "maximum open connections to the target")
	fs.DurationVar(&o.timeout, "timeout", load.DefaultTimeout, "time limit of each request")
	fs.StringVar(&o.out, "out", "reports/load", "output `dir` for results.bin, summary.json and report.html")
	fs.Var(&o.thresholds, "threshold", "a threshold `expr` such as p99<50ms, success>0.99, rate>1000 (repeatable)")
	fs.StringVar(&o.localAddr, "local-addr", "", "source `IP` of every connection (e.g. 127.0.0.2, to count as another client address)")
	fs.IntVar(&o.workerID, "worker-id", 0, "this worker's number in a multi-host run (e.g. JOB_COMPLETION_INDEX); goes into attack names and client_order_ids")
	fs.BoolVar(&o.overrideBounds, "override-bounds", false, "allow a rate above 10000/s (or max), a duration above 10m, more than 10000 workers or connections")
	fs.StringVar(&o.orderSymbol, "order-symbol", def.Symbol, "symbol of the order scenarios' orders")
	fs.StringVar(&o.orderSide, "order-side", def.Side, "side of the order scenarios' orders (keep it far from the market: a buy far below)")
	fs.StringVar(&o.orderQuantity, "order-quantity", def.Quantity, "quantity of the order scenarios' orders")
	fs.StringVar(&o.orderPrice, "order-price", def.Price, "price of the order scenarios' orders (far from the market, so that they rest)")
	streamFlags(fs, &o.stream)
	return fs
}

// parseLoad parses and checks the flags of conform load.
func parseLoad(args []string, e *env) (*loadOptions, error) {
	o := &loadOptions{}
	fs := loadFlagSet(o)
	if err := parseFlags("load", fs, args, e); err != nil {
		return nil, err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	var err error
	switch {
	case o.rate != "" && o.ramp != "":
		return nil, usageErrorf("load: give --rate or --ramp, not both")
	case o.rate != "":
		o.pacing, err = load.ParseRate(o.rate)
	case o.ramp != "":
		o.pacing, err = load.ParseRamp(o.ramp)
	default:
		return nil, usageErrorf("load: give the rate: --rate N/s or --ramp FROM:TO")
	}
	if err != nil {
		return nil, usageErrorf("load: %v", err)
	}
	if o.scenario == "" {
		// No default: a capacity figure is only meaningful for a workload
		// the user chose.
		return nil, usageErrorf("load: --scenario is required: one of %s", strings.Join(load.ScenarioNames(), ", "))
	}
	if !slices.Contains(load.ScenarioNames(), o.scenario) {
		return nil, usageErrorf("load: unknown scenario %q (want one of %s)", o.scenario, strings.Join(load.ScenarioNames(), ", "))
	}
	if o.out == "" {
		return nil, usageErrorf("load: --out must not be empty")
	}
	if o.timeout <= 0 {
		return nil, usageErrorf("load: --timeout must be positive")
	}
	if o.workerID < 0 {
		return nil, usageErrorf("load: --worker-id must be 0 or more")
	}
	if o.localAddr != "" {
		if o.localIP = net.ParseIP(o.localAddr); o.localIP == nil {
			return nil, usageErrorf("load: --local-addr %q: want an IP address", o.localAddr)
		}
	}
	if err := checkStream(o); err != nil {
		return nil, err
	}
	b := load.DefaultBounds()
	if err := b.Check(load.Shape{Pacing: o.pacing, Duration: o.duration, Workers: o.workers, MaxWorkers: o.maxWorkers, Connections: o.connections}); err != nil {
		if !errors.Is(err, load.ErrOutOfBounds) {
			return nil, usageErrorf("load: %v", err)
		}
		if !o.overrideBounds {
			return nil, usageErrorf("load: %v (pass --override-bounds if you mean it)", err)
		}
	}
	return o, nil
}

// loadTarget resolves the target of a load run: the given one (config
// file, environment and flags as for conform run) or nothing, meaning the
// embedded emulator.
func loadTarget(o *loadOptions, getenv func(string) string) (target.Config, error) {
	ro := &runOptions{target: o.target, config: o.config, caFile: o.caFile, sandbox: o.sandbox, allowLiveTrading: o.allowLiveTrading, set: o.set}
	cfg, err := resolveTarget(ro, getenv)
	if err != nil {
		return cfg, err
	}
	if cfg.REST != "" && o.emulatorNoLimits {
		return cfg, usageErrorf("load: --emulator-no-limits applies to the embedded emulator only, not to --target %s", cfg.REST)
	}
	return cfg, nil
}

// tradingKey picks the key that signs the order scenarios' requests.
func tradingKey(cfg target.Config) (client.Credential, error) {
	for _, role := range []string{target.RoleFull, target.RoleTradeOnly} {
		if a, ok := cfg.Accounts[role]; ok {
			return client.Credential{Key: a.APIKey, Secret: a.Secret}, nil
		}
	}
	return client.Credential{}, fmt.Errorf("the order scenarios need a key of role %s or %s in the target config (or CONFORM_KEY_FULL)", target.RoleFull, target.RoleTradeOnly)
}

// checkTrading refuses a scenario that places orders on a target that may
// not be traded on or has no key for it.
func checkTrading(scenario string, cfg target.Config) error {
	if !load.Trades(scenario) {
		return nil
	}
	if ok, why := cfg.MayTrade(); !ok {
		return usageErrorf("load: scenario %s places orders, but %s", scenario, why)
	}
	if _, err := tradingKey(cfg); err != nil {
		return usageErrorf("load: %v", err)
	}
	return nil
}

func cmdLoad(args []string, e *env) error {
	if len(args) > 0 && args[0] == "merge" {
		return cmdLoadMerge(args[1:], e)
	}
	o, err := parseLoad(args, e)
	if err != nil {
		return err
	}
	cfg, err := loadTarget(o, e.getenv)
	if err != nil {
		return err
	}
	if cfg.REST != "" { // the embedded emulator may always be traded on, with its fixture keys
		if err := checkTrading(o.scenario, cfg); err != nil {
			return err
		}
	}
	loadFiles := []string{load.ResultsFile, load.SummaryFile, load.ReportFile}
	stale := append(loadFiles, load.StreamResultsFile)
	if load.IsStream(o.scenario) {
		loadFiles = []string{load.StreamResultsFile, load.SummaryFile, load.ReportFile}
	}
	out, err := openOut("load", o.out, args, e, stale...)
	if err != nil {
		return err
	}
	defer out.Close()
	if err := out.Record(loadFiles...); err != nil { // written by package load
		return outError("load", o.out, err)
	}
	outDir := out.Path()
	ctx, caught := interruptible(context.Background())

	where, elsewhere := cfg.REST, cfg.REST != ""
	if !elsewhere {
		emu, err := startLoadEmulator(!o.emulatorNoLimits)
		if err != nil {
			return harnessErrorf("load: %w", err)
		}
		defer emu.Close()
		cfg = emu.config
		where = fmt.Sprintf("%s (embedded emulator, limits %s)", cfg.REST, map[bool]string{true: "off", false: "on"}[o.emulatorNoLimits])
	} else if err := preflight(ctx, cfg); err != nil {
		return err
	}
	base, err := load.ParseBase(cfg.REST)
	if err != nil {
		return usageErrorf("load: %v", err)
	}
	if load.IsStream(o.scenario) {
		a, err := runStream(ctx, o, cfg, base, where, outDir, e)
		if err != nil {
			return err
		}
		return streamOutcome(a, outDir, e.stdout, caught())
	}
	sc := load.ScenarioConfig{Base: base, WorkerID: o.workerID,
		Order: load.OrderParams{Symbol: o.orderSymbol, Side: o.orderSide, Quantity: o.orderQuantity, Price: o.orderPrice}}
	if load.Trades(o.scenario) {
		if sc.Key, err = tradingKey(cfg); err != nil {
			return usageErrorf("load: %v", err)
		}
	}
	scenario, err := load.NewScenario(o.scenario, sc)
	if err != nil {
		return usageErrorf("load: %v", err)
	}
	if e.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(load.GCPercent))
	}
	stopProfile, err := cpuProfile(e.getenv("CONFORM_CPUPROFILE"))
	if err != nil {
		return harnessErrorf("load: %w", err)
	}
	defer stopProfile()
	conf, err := cfg.TLS()
	if err != nil {
		return usageErrorf("load: %v", err)
	}
	title := fmt.Sprintf("conform load: %s at %s for %s against %s", o.scenario, o.pacing, o.duration, where)
	fmt.Fprintln(e.stderr, title)
	run := load.RunConfig{Base: base, Scenario: scenario, Pacing: o.pacing, Duration: o.duration, Workers: o.workers,
		MaxWorkers: o.maxWorkers, Connections: o.connections, LocalAddr: o.localIP, WorkerID: o.workerID,
		Timeout: o.timeout, StdClient: o.netHTTP, Progress: e.stderr, TLS: conf, TargetElsewhere: elsewhere}
	a, err := load.Execute(ctx, outDir, run, load.AnalyzeOptions{Title: title, Thresholds: o.thresholds.withDefault()})
	if err != nil {
		return harnessErrorf("%w", err)
	}
	return loadOutcome(a, outDir, e.stdout, caught())
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM,
// and a function telling which signal it was (nil: none).
func interruptible(parent context.Context) (context.Context, func() os.Signal) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var (
		mu  sync.Mutex
		got os.Signal
	)
	go func() {
		s := <-sigs
		signal.Stop(sigs)
		mu.Lock()
		got = s
		mu.Unlock()
		cancel()
	}()
	return ctx, func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// loadOutcome prints the summary and maps the verdict to the exit status;
// sig is the signal that stopped the run (nil: none, or a merge).
func loadOutcome(a *load.Analysis, outDir string, w io.Writer, sig os.Signal) error {
	fmt.Fprintln(w)
	if err := a.Summary.WriteText(w); err != nil {
		return harnessError(err)
	}
	fmt.Fprintf(w, "reports: %s\n", outDir)
	return verdictExit(a.Summary.Verdict, outDir, sig)
}

// verdictExit maps a load verdict to the exit status; sig is the signal
// that stopped the run (nil: none, or a merge).
func verdictExit(v load.Verdict, outDir string, sig os.Signal) error {
	switch v.Status {
	case load.StatusInvalid:
		return &cliError{code: exitInvalid, err: errors.New("load run invalid"), quiet: true}
	case load.StatusBreached:
		return &cliError{code: exitThreshold, err: errors.New("load threshold breached"), quiet: true}
	case load.StatusInterrupted:
		switch sig {
		case syscall.SIGTERM:
			return &cliError{code: exitTerminated, err: errors.New("load run terminated (SIGTERM); what was measured is in " + outDir), quiet: true}
		case os.Interrupt:
			return &cliError{code: exitInterrupted, err: errors.New("load run interrupted (SIGINT); what was measured is in " + outDir), quiet: true}
		}
		// A merge with interrupted parts: judged by its thresholds.
		for _, t := range v.Thresholds {
			if !t.Pass {
				return &cliError{code: exitThreshold, err: errors.New("load threshold breached"), quiet: true}
			}
		}
	}
	return nil
}
