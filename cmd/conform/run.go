package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/target"
)

const runSynopsis = `usage: conform run [flags]

Runs the conformance suite (bin/suites.test) through the Ginkgo CLI in
parallel against --target, or against an emulator the suite embeds when no
target is given. Writes ginkgo.json, junit.xml, results.json, report.html and
run.log to --out and prints a summary per area, the reasons for skips, and
for each failed rule a command line that replays it. With --certify it runs
everything that applies to the target (slow specs too; a testable rule that
cannot run fails the certification) and makes --out a bundle, with
target.json, bundle.json, README.md, report.png, and --out.tar.gz beside it. The target config (--config) is read first; flags override
it. CONFORM_TARGET, CONFORM_WS_TARGET, CONFORM_SANDBOX, CONFORM_REST_SANDBOX,
CONFORM_WS_SANDBOX and CONFORM_KEY_<ROLE> override the file too (see package
target). --out must be new, empty or conform's: conform writes, moves and
removes only the files it wrote there (listed in its .conform-manifest.json),
refuses any other directory (exit 2) and one another conform run is writing to.

Orders, cancellations, transfers and every other authenticated mutating
request or trading stream message go only to a host:port that is the conform
emulator (found by its control plane; a --ws-target counts only on the REST
target's host:port or when its own control plane answers) or is declared a
sandbox: --sandbox declares the REST and the stream target, --rest-sandbox
or --ws-sandbox one of them; --allow-live-trading permits every host. Specs
that would trade elsewhere skip with the reason. An emulator started with a
control token (conform emulate --control-token) is driven with
CONFORM_CONTROL_TOKEN or the config's control_token.`

// Report file names in the output directory.
const (
	ginkgoReport  = "ginkgo.json"
	junitReport   = "junit.xml"
	resultsReport = "results.json"
	htmlReport    = "report.html"
	runLog        = "run.log"
)

// runOptions are the flags of conform run.
type runOptions struct {
	target, wsTarget, config  string
	caFile                    string
	sandbox, allowLiveTrading bool
	restSandbox, wsSandbox    bool
	labelFilter, focus        string
	procs                     int
	out                       string
	suite, ginkgo             string
	timeout, stall            time.Duration
	certify                   bool
	specURL, specDir          string
	// set records which flags were given, so that a flag set to its zero
	// value (--sandbox=false) still overrides the config file.
	set map[string]bool
}

// defaultProcs is two processes per CPU, at least 4: specs mostly wait
// (limit windows, stream answers, the target), so on two cores 1309 specs
// took 40 s with two processes and 29 s with four, for the same CPU time.
// The emulator has fixture accounts for 8 processes; a trading target runs
// as many as it has account sets (see cmdRun).
func defaultProcs() int { return min(max(2*runtime.NumCPU(), 4), 8) }

func runFlagSet(o *runOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&o.target, "target", "", "REST base URL of the target, before /api/3 (empty: the embedded emulator)")
	fs.StringVar(&o.wsTarget, "ws-target", "", "WebSocket base URL (default: derived from --target)")
	fs.StringVar(&o.config, "config", "", "target config `file` (JSON: rest, ws, sandbox, rest_sandbox, ws_sandbox, control_token, ca_file, accounts by role)")
	fs.StringVar(&o.caFile, "ca-file", "", "PEM `file` of the CA that issued the target's TLS certificate (a sandbox with a private CA), trusted beside the system's roots (ca_file in the config)")
	fs.BoolVar(&o.sandbox, "sandbox", false, "declare the target a sandbox, where orders may be placed: the REST and the stream target (orders go only to the emulator and declared sandboxes, judged per host:port)")
	fs.BoolVar(&o.restSandbox, "rest-sandbox", false, "declare only the REST target a sandbox (config: rest_sandbox)")
	fs.BoolVar(&o.wsSandbox, "ws-sandbox", false, "declare only the stream target (--ws-target) a sandbox (config: ws_sandbox)")
	fs.BoolVar(&o.allowLiveTrading, "allow-live-trading", false, "let order-placing specs run on a target that is not a sandbox")
	fs.StringVar(&o.labelFilter, "label-filter", "", "Ginkgo label filter `expr`, e.g. 'rule:V3-ERR-BODY || auth'")
	fs.StringVar(&o.focus, "focus", "", "run only specs whose text matches `regex`")
	fs.IntVar(&o.procs, "procs", 0, "parallel Ginkgo processes (default: two per CPU, at least 4 and at most 8; on a target that may trade, at most one per configured account set)")
	fs.StringVar(&o.out, "out", "reports", "output `dir` for ginkgo.json, junit.xml and results.json")
	fs.StringVar(&o.suite, "suite", "", "suite binary `path` (default: suites.test next to conform, in ./bin or on PATH)")
	fs.StringVar(&o.ginkgo, "ginkgo", "", "Ginkgo CLI `path` (default: ginkgo next to conform, in ./bin or on PATH)")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "time limit of the whole run, a safety bound (0: none); the run then stops, interrupted, and exits 6")
	fs.DurationVar(&o.stall, "stall-timeout", defaultStall, "stop the run when no spec has ended for this long (0: never), naming the specs in flight; exits 6")
	fs.BoolVar(&o.certify, "certify", false, "certification run: every spec that applies (slow ones too), a rule that cannot run fails, --out becomes a bundle (and a .tar.gz)")
	fs.StringVar(&o.specURL, "spec-url", "", "base `URL` of the documents for report.html's links (default: api-v3.md beside the report)")
	fs.StringVar(&o.specDir, "spec-dir", "", "`dir` holding the documents (api-v3.md, api-v2.md): report.html then links each rule to its sentence and quotes it, and the documents are copied beside the report (default $CONFORM_SPEC_DIR)")
	return fs
}

// parseRun parses and checks the flags of conform run.
func parseRun(args []string, e *env) (*runOptions, error) {
	o := &runOptions{}
	fs := runFlagSet(o)
	if err := parseFlags("run", fs, args, e); err != nil {
		return nil, err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if !o.set["procs"] {
		o.procs = defaultProcs() // a given 0 is an error below, not the default
	}
	switch {
	case o.procs < 1:
		return nil, usageErrorf("run: --procs must be at least 1, got %d", o.procs)
	case o.timeout < 0:
		return nil, usageErrorf("run: --timeout must be positive, or 0 for none, got %s", o.timeout)
	case o.stall < 0:
		return nil, usageErrorf("run: --stall-timeout must be positive, or 0 for none, got %s", o.stall)
	case o.out == "":
		return nil, usageErrorf("run: --out must not be empty")
	case o.certify && (o.labelFilter != "" || o.focus != ""):
		return nil, usageErrorf("run: --certify runs every spec that applies to the target; it takes no --label-filter or --focus")
	}
	if o.labelFilter != "" {
		if _, err := types.ParseLabelFilter(o.labelFilter); err != nil {
			return nil, usageErrorf("run: --label-filter %q: %s", o.labelFilter, labelFilterProblem(err))
		}
	}
	if o.focus != "" {
		if _, err := regexp.Compile(o.focus); err != nil {
			return nil, usageErrorf("run: --focus: %v", err)
		}
	}
	return o, nil
}

// resolveTarget loads the config file and environment, applies the flags on
// top and validates the result. Every problem is a usage error.
func resolveTarget(o *runOptions, getenv func(string) string) (target.Config, error) {
	cfg, err := target.Load(o.config, getenv)
	if err != nil {
		return cfg, usageError(err)
	}
	if o.target != "" {
		cfg.REST = o.target
	}
	if o.wsTarget != "" {
		cfg.WS = o.wsTarget
	}
	if o.caFile != "" {
		cfg.CAFile = o.caFile
	}
	if cfg.CAFile != "" {
		// The suite runs from its binary's directory: hand it an absolute path.
		if cfg.CAFile, err = filepath.Abs(cfg.CAFile); err != nil {
			return cfg, usageErrorf("--ca-file %s: %w", cfg.CAFile, err)
		}
	}
	if o.set["sandbox"] {
		cfg.Sandbox = o.sandbox
	}
	if o.set["rest-sandbox"] {
		cfg.RESTSandbox = o.restSandbox
	}
	if o.set["ws-sandbox"] {
		cfg.WSSandbox = o.wsSandbox
	}
	if o.set["allow-live-trading"] {
		cfg.AllowLiveTrading = o.allowLiveTrading
	}
	if cfg.REST == "" && cfg.WS != "" {
		return cfg, usageErrorf("--ws-target %s needs a --target: the embedded emulator sets its own", cfg.WS)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError(err)
	}
	return cfg, nil
}

// ginkgoArgs builds the Ginkgo CLI command line for a precompiled suite:
// ginkgo flags, the suite binary, then the suite's own flags after -- (none
// for the target: suiteEnv hands it down). Paths are absolute because
// Ginkgo runs a precompiled suite from the binary's directory.
func ginkgoArgs(o *runOptions, suite, outDir string, color bool) []string {
	args := []string{"-p", "--procs=" + strconv.Itoa(o.procs), "--timeout=" + ginkgoTimeout(o.timeout).String(), "--grace-period=" + nodeGrace.String()}
	switch {
	case o.certify:
		args = append(args, "--label-filter="+certifyFilter)
	case o.labelFilter != "":
		args = append(args, "--label-filter="+o.labelFilter)
	}
	if o.focus != "" {
		args = append(args, "--focus="+o.focus)
	}
	if !color {
		args = append(args, "--no-color")
	}
	// junit.xml is conform's own (one testcase per rule), not Ginkgo's.
	return append(args, "--json-report="+ginkgoReport, "--output-dir="+outDir, suite, "--")
}

// suiteEnv hands the suite processes the run's one target, finished
// (loaded, the flags applied, validated and, unless it is the embedded
// emulator, resolved): they read it as it is (target.SuiteEnv), so that a
// target setting is applied in one place and the target probed once. It
// travels in the environment Ginkgo passes on, never on a command line:
// it holds the keys.
func suiteEnv(finished target.Config) ([]string, error) {
	v, err := finished.Handoff()
	if err != nil {
		return nil, err
	}
	return []string{target.SuiteEnv + "=" + v}, nil
}

// runOutcome maps what came of the Ginkgo run to conform's exit: an
// interrupted run is incomplete (130, 143 or exitStopped), no report or a
// broken suite is a harness error, a failed spec is a failure, and a
// non-zero Ginkgo exit that the report cannot explain is a harness error.
func runOutcome(res *results.Results, ginkgoStatus int, outDir string) error {
	if res.Interrupted != nil {
		return stopError(res.Interrupted, outDir)
	}
	if len(res.SuiteFailures) > 0 {
		f := res.SuiteFailures[0]
		return harnessErrorf("the suite did not run to completion: %s: %s", f.Node, firstLine(f.Message))
	}
	if res.Failing() {
		return failed()
	}
	if ginkgoStatus != 0 {
		return harnessErrorf("ginkgo exited with status %d though no spec failed (see the output above)", ginkgoStatus)
	}
	return nil
}

func cmdRun(args []string, e *env) error {
	o, err := parseRun(args, e)
	if err != nil {
		return err
	}
	cfg, err := resolveTarget(o, e.getenv)
	if err != nil {
		return err
	}
	// The embedded emulator knows only its fixture accounts, one per
	// process for up to 8 (the suite drops configured ones there too); said
	// once --out is claimed, so that a refusal stays one line.
	unusedAccounts := cfg.REST == "" && (len(cfg.Accounts) > 0 || len(cfg.AccountSets) > 0)
	if unusedAccounts {
		cfg.Accounts, cfg.AccountSets = nil, nil
	}
	if err := checkSpecDir(cmpOr(o.specDir, e.getenv("CONFORM_SPEC_DIR"))); err != nil {
		return err
	}
	var configPath string
	if o.config != "" {
		if configPath, err = filepath.Abs(o.config); err != nil {
			return usageErrorf("--config %s: %w", o.config, err)
		}
	}
	loc := e.locator()
	suite, err := loc.find(suiteBinary, o.suite, "suite")
	if err != nil {
		return err
	}
	ginkgo, err := loc.find(ginkgoBinary, o.ginkgo, "ginkgo")
	if err != nil {
		return err
	}
	// --out is claimed before anything is said or run: a directory that is
	// not conform's, or in use, is refused in one line.
	out, err := openRunOut(o, args, e)
	if err != nil {
		return err
	}
	defer out.Close()
	outDir := out.Path()
	if unusedAccounts {
		fmt.Fprintf(e.stderr, "conform: the embedded emulator runs on its own fixture accounts; the configured accounts (--config, CONFORM_KEY_*) are for a --target and are not used\n")
	}
	if lim := cfg.ParallelAccounts(); lim > 0 && o.procs > lim {
		// Specs that read account-wide state would race across processes
		// sharing one account: run only as many as have accounts of their own.
		fmt.Fprintf(e.stderr, "conform: %d account set(s) configured for a target that may trade: running %d process(es) instead of %d, so that no two share an account's balances and orders (add account_sets to the target config to run more)\n",
			lim, lim, o.procs)
		o.procs = lim
	}
	ctx := context.Background()
	finished := cfg                               // what the suite gets: cfg as probed, once per run
	kind := results.CertifyTarget{Emulator: true} // the embedded emulator, on loopback
	if cfg.REST != "" {
		r, err := resolve(ctx, cfg, nil)
		if err != nil {
			return err
		}
		finished.Apply(r)
		kind = results.CertifyTarget{Emulator: r.Emulator, OneAddress: !cfg.IsLoopback() || cfg.SharedSource || r.SharedSource}
	}
	logf, err := out.Create(runLog)
	if err != nil {
		return harnessErrorf("run log: %w", err)
	}
	defer logf.Close()

	handoff, err := suiteEnv(finished)
	if err != nil {
		return harnessError(err)
	}
	confined, err := confineRun(ctx, o, suite, handoff)
	if err != nil {
		return err
	}
	c := child{path: ginkgo, args: ginkgoArgs(o, suite, outDir, isTerminal(os.Stdout)),
		stdout: io.MultiWriter(e.stdout, logf), stderr: io.MultiWriter(e.stderr, logf), env: append(handoff, confined.env()...)}
	x, err := runSuite(ctx, c, o.timeout, o.stall)
	if err != nil {
		return harnessError(err)
	}
	status, stop := x.status, interruption(x)

	reports, err := ginkgojson.Read(filepath.Join(outDir, ginkgoReport))
	if err != nil {
		if stop != nil {
			return &cliError{code: stopCode(stop), err: fmt.Errorf("the run was interrupted (%s) before the suite wrote its report: %v", stop.Reason, err)}
		}
		return harnessErrorf("ginkgo exited with status %d and wrote no usable report: %v", status, err)
	}
	confined.complete(reports)
	rep := runReport{o: o, cfg: cfg, configPath: configPath, outDir: outDir, out: out, self: e.self, specDir: cmpOr(o.specDir, e.getenv("CONFORM_SPEC_DIR")), stop: stop, kind: kind}
	res, err := rep.write(reports)
	if err != nil {
		return harnessError(err)
	}
	console := io.MultiWriter(e.stdout, logf)
	fmt.Fprintln(console)
	if err := results.PrintSummary(console, res); err != nil {
		return harnessError(err)
	}
	fmt.Fprintf(console, "reports: %s (report.html to read)\n", outDir)
	sincePrevious(console, outDir, res)
	if o.certify && res.Interrupted != nil {
		fmt.Fprintln(console, "certification: the run was interrupted, so it certifies nothing and no bundle was made")
	} else if o.certify {
		if err := rep.bundle(ctx, res, logf, e); err != nil {
			return harnessError(err)
		}
	}
	if selectsNone(reports) && len(res.SuiteFailures) == 0 && res.Interrupted == nil && (o.labelFilter != "" || o.focus != "") {
		// Every spec was filtered out (none even reached a skip): a typo in
		// the filter must not pass as a green run.
		return selectsNoSpec(o)
	}
	return runOutcome(res, status, outDir)
}

// selectsNone reports whether the filters left no spec to run: Ginkgo's
// count before the run, not specs that ran and skipped themselves.
func selectsNone(reports []types.Report) bool {
	for _, r := range reports {
		if r.PreRunStats.SpecsThatWillRun > 0 {
			return false
		}
	}
	return true
}

// selectsNoSpec is the usage error of a --label-filter or --focus that
// selects no spec: a typo in the filter must not pass as a green run.
func selectsNoSpec(o *runOptions) error {
	return usageErrorf("run: --label-filter %q --focus %q selects no spec (see conform rules for rule IDs; labels are rule:<ID>, %s, ...)",
		o.labelFilter, o.focus, "informational")
}

// isTerminal reports whether f is a character device, so that Ginkgo's
// colours are kept for people and dropped for logs.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// labelFilterProblem extracts the reason from Ginkgo's multi-line, colour
// coded syntax error, whose message ends with it.
func labelFilterProblem(err error) string {
	var ge types.GinkgoError
	if errors.As(err, &ge) {
		msg := strings.TrimSpace(ge.Message)
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = msg[i+1:]
		}
		if msg != "" {
			return msg
		}
	}
	return firstLine(err.Error())
}

func firstLine(s string) string { return ginkgojson.FirstLine(s) }
