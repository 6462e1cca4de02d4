package main

// End-to-end trust checks: the built conform CLI and suite aimed at targets
// other than the embedded emulator, as a new user would aim them at a real
// sandbox. They need the binaries of `make build`: set CONFORM_BIN to their
// directory (make trust does); a plain `go test` skips them.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/scenarios"
)

// binDir returns the directory of the built binaries, skipping the test
// when none is given.
func binDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CONFORM_BIN")
	if dir == "" {
		t.Skip("set CONFORM_BIN to the directory of conform, suites.test and ginkgo (make trust does)")
	}
	for _, b := range []string{"conform", "suites.test", "ginkgo"} {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			t.Fatalf("CONFORM_BIN=%s: %v (run make build)", dir, err)
		}
	}
	return dir
}

// startEmulator serves an emulator on a free loopback port until the test ends.
func startEmulator(t *testing.T, o emulator.Options) string {
	t.Helper()
	o.Addr = "127.0.0.1:0"
	emu, err := emulator.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	return emu.URL()
}

// mutationLog is a logging proxy's record of authenticated requests that
// may change state.
type mutationLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *mutationLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// loggingProxy is a transparent reverse proxy to upstream that logs every
// authenticated POST, PUT, PATCH and DELETE passing through it.
func loggingProxy(t *testing.T, upstream string) (string, *mutationLog) {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	// The default transport keeps two idle connections to the target: a run's
	// dozens of clients would have the proxy dial a new one per request.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	rp.Transport = tr
	t.Cleanup(tr.CloseIdleConnections)
	log := &mutationLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			if r.Header.Get("Authorization") != "" {
				log.mu.Lock()
				log.seen = append(log.seen, r.Method+" "+r.URL.Path)
				log.mu.Unlock()
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, log
}

// fixtureKeysEnv returns CONFORM_KEY_<ROLE> variables for fixture account
// i's keys, with account i+8's full key as the counterparty: the keys a
// user would export for a sandbox.
func fixtureKeysEnv(t *testing.T, i int) []string {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, k := range accts[i].Keys {
		name := "CONFORM_KEY_" + strings.ToUpper(strings.ReplaceAll(k.Role, "-", "_"))
		env = append(env, fmt.Sprintf("%s=%s:%s:%s", name, k.APIKey, k.Secret, strings.Join(k.Rights, ",")))
	}
	for _, k := range accts[i+len(accts)/2].Keys {
		if k.Role == "full" {
			env = append(env, fmt.Sprintf("CONFORM_KEY_COUNTERPARTY=%s:%s:%s", k.APIKey, k.Secret, strings.Join(k.Rights, ",")))
		}
	}
	return env
}

// conformCLI runs the built conform with args and extra environment, and
// returns its exit code and combined console output.
func conformCLI(t *testing.T, bin string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "conform"), args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("conform %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String()
}

// runSummary reads the counts of results.json in dir.
func runSummary(t *testing.T, dir string) (specs, failed int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Summary struct {
			SpecsRun int `json:"specs_run"`
			Failed   int `json:"failed"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r.Summary.SpecsRun, r.Summary.Failed
}

// secretForms lists every fixture secret raw and as base64 of key:secret.
func secretForms(t *testing.T) []string {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	var forms []string
	for _, a := range accts {
		for _, k := range a.AllKeys() {
			forms = append(forms, k.Secret, base64.StdEncoding.EncodeToString([]byte(k.APIKey+":"+k.Secret)))
		}
	}
	return forms
}

// assertNoSecret fails when any fixture secret, raw or base64-encoded with
// its key, is in the console text or in any file under dir.
func assertNoSecret(t *testing.T, console, dir string) {
	t.Helper()
	forms := secretForms(t)
	check := func(where string, b []byte) {
		for _, f := range forms {
			if bytes.Contains(b, []byte(f)) {
				t.Errorf("%s holds a secret (%.12s…)", where, f)
				return
			}
		}
	}
	check("the console", []byte(console))
	files := 0
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		check(path, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Errorf("the run wrote nothing under %s", dir)
	}
}

// The auth specs fail against a target that accepts any credentials and
// under every auth fault; nothing the runs print or write holds a secret.
func TestTrustNoSecretInAnyArtifact(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	t.Run("target accepting any credentials", func(t *testing.T) {
		base := startEmulator(t, emulator.Options{ControlPlane: true, Faults: []string{"V3-AUTH-BASIC-FAIL", "V3-AUTH-HS256-FAIL", "V3-AUTH-MALFORMED", "V3-AUTH-UNKNOWN-KEY"}})
		out := t.TempDir()
		code, console := conformCLI(t, bin, nil, "run", "--target", base, "--label-filter", "/^rule:V3-AUTH-/", "--procs", fewSpecsProcs, "--out", out)
		if code != exitFailed {
			t.Fatalf("want exit %d (auth specs failing), got %d:\n%s", exitFailed, code, console)
		}
		assertNoSecret(t, console, out)
	})
	t.Run("every auth fault", func(t *testing.T) {
		var ids []string
		for _, f := range faults.Catalogue() {
			if strings.HasPrefix(f.Rule, "V3-AUTH-") {
				ids = append(ids, f.Rule)
			}
		}
		out := t.TempDir()
		code, console := conformCLI(t, bin, nil, "mutate", "--only", strings.Join(ids, ","), "--out", out, "--suite", filepath.Join(bin, "suites.test"))
		if code != exitOK {
			t.Fatalf("mutation of the auth faults: exit %d:\n%s", code, console)
		}
		assertNoSecret(t, console, out)
	})
}

// oneSetAreas are the areas whose specs trade between the process's own
// accounts (the account and its counterparty), and oneSetMinSpecs how many
// of their specs at least run on a sandbox without the control plane.
const (
	oneSetAreas    = "area:spot || area:orderlists || area:margin || area:streamtrading"
	oneSetMinSpecs = 600
)

// undeclaredFilter is every spec but the limit scenarios whose every offer
// is a read or anonymous (the guard lets those leave, whatever the target):
// against a target without limits each of them offers its bursts in vain,
// two thirds of the run's CPU.
func undeclaredFilter() string {
	f := "!limits"
	for _, r := range scenarios.GuardedRules() {
		f += " || rule:" + r
	}
	return f
}

// On a loopback target that is neither the emulator nor a declared sandbox
// no authenticated mutating request arrives, from any spec, scenario or
// cleanup; declared a sandbox, the same proxy sees them (the log works).
// The sandbox run is also the check of a sandbox with one account's keys
// asked for two processes: the CLI runs one and says so, and the areas
// whose specs trade between the process's own accounts run green there.
func TestTrustNoTradingOnAnUndeclaredTarget(t *testing.T) {
	// Full suite runs against targets of their own (own emulator, proxy and ports): they
	// wait more than they compute, so they run side by side with the other checks, and
	// the two halves side by side (each was half of the longest trust check).
	t.Parallel()
	bin := binDir(t)
	// No control plane: not recognisable as the emulator. No limits: the
	// proxy merges every source address into its own.
	t.Run("undeclared", func(t *testing.T) {
		t.Parallel()
		proxy, log := loggingProxy(t, startEmulator(t, emulator.Options{NoLimits: true}))
		code, console := conformCLI(t, bin, fixtureKeysEnv(t, 0), "run", "--target", proxy, "--procs", "2", "--out", t.TempDir(),
			"--label-filter", undeclaredFilter())
		if code != exitOK && code != exitFailed {
			t.Fatalf("exit %d:\n%s", code, console)
		}
		if seen := log.lines(); len(seen) > 0 {
			t.Errorf("%d authenticated mutating requests reached an undeclared target, e.g. %s", len(seen), seen[0])
		}
	})
	// One account set, serial: what may go wrong there is one spec's orders,
	// fills or balances meeting the next's on the one account, so the areas
	// whose specs trade between the process's own two accounts (spot,
	// order lists, margin, the trading stream: 696 specs, 22 s alone) run,
	// not the whole suite (220 s under make test's load, most of it the v2
	// areas waiting on one user's budget): the other areas trade less, and
	// the whole suite on a sandbox is TestRemoteSandboxCertification's (an
	// account set per process, make remote-fast).
	t.Run("sandbox on one account set", func(t *testing.T) {
		t.Parallel()
		proxy, log := loggingProxy(t, startEmulator(t, emulator.Options{NoLimits: true}))
		sandbox := t.TempDir()
		start := time.Now()
		code, console := conformCLI(t, bin, fixtureKeysEnv(t, 1), "run", "--target", proxy, "--sandbox", "--procs", "2",
			"--label-filter", oneSetAreas, "--out", sandbox)
		t.Logf("sandbox run on one account set: exit %d in %s", code, time.Since(start).Round(time.Second))
		if code != exitOK {
			t.Fatalf("sandbox run on one account set at --procs 2: exit %d:\n%s", code, tail(console, 60))
		}
		if !strings.Contains(console, "running 1 process(es) instead of 2") {
			t.Errorf("the CLI did not say it runs serially:\n%s", tail(console, 60))
		}
		if specs, _ := runSummary(t, sandbox); specs < oneSetMinSpecs {
			t.Errorf("only %d specs ran (want at least %d)", specs, oneSetMinSpecs)
		} else {
			t.Logf("%d specs ran on one account set", specs)
		}
		// Declared a sandbox, the same kind of proxy sees them: the log works.
		if len(log.lines()) == 0 {
			t.Error("declared a sandbox, the trading specs sent no authenticated mutating request: the log does not see them")
		}
	})
}

// tcpProxy relays every connection to upstream from its own address, as a
// transparent fault-injecting proxy does: the target sees one peer for all.
func tcpProxy(t *testing.T, upstream string) string {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer in.Close()
				out, err := net.Dial("tcp", u.Host)
				if err != nil {
					return
				}
				defer out.Close()
				go func() { _, _ = io.Copy(out, in) }()
				_, _ = io.Copy(in, out)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// proxyAreas are the areas of the run through a transparent proxy: every
// kind of client the suite makes (REST with each scheme, the three v3
// streams and v2's), at the highest request rates (spot, authentication,
// market data), 800 specs; the rest of the suite makes the same clients
// (the whole suite through a proxy from one address is
// TestRemoteSandboxCertification's).
const proxyAreas = "area:spot || area:auth || area:marketdata || area:streampublic || area:streamtrading || area:streamwallet || area:v2streams"

// Through a TCP proxy that merges the harness's source addresses, the run
// against an emulator with its limits on stays green and fast: the suite
// notices the proxy, names each client's address in X-Forwarded-For, and
// would run the limit scenarios from the proxy's one address, alone after
// every other spec: TestRemoteLimitsFromOneAddress checks those, so this
// run leaves them out (seconds of windows on a busy machine).
func TestTrustThroughATransparentProxy(t *testing.T) {
	// Full suite runs against targets of their own (own emulator, proxy and ports): they
	// wait more than they compute, so they run side by side with the other checks.
	t.Parallel()
	bin := binDir(t)
	proxy := tcpProxy(t, startEmulator(t, emulator.Options{ControlPlane: true}))
	out := t.TempDir()
	start := time.Now()
	code, console := conformCLI(t, bin, nil, "run", "--target", proxy, "--procs", "2", "--label-filter", "!limits && ("+proxyAreas+")", "--out", out, "--timeout", "6m")
	if code != exitOK {
		t.Fatalf("through a TCP proxy: exit %d after %s:\n%s", code, time.Since(start), console)
	}
	if specs, _ := runSummary(t, out); specs < 600 {
		t.Errorf("only %d specs ran", specs)
	}
}

// A target that is not this API costs seconds and one line, not minutes and
// a suite of rule failures: a silent listener and a web server each exit 3.
func TestTrustWrongTargetFailsFast(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() { // accepts and never answers
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					_ = c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	web := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(web.Close)
	for name, url := range map[string]string{"silent listener": "http://" + ln.Addr().String(), "web server": web.URL} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			code, console := conformCLI(t, bin, nil, "run", "--target", url, "--out", t.TempDir())
			took := time.Since(start)
			if code != exitHarness || took > 20*time.Second {
				t.Errorf("exit %d after %s, want %d within 20s:\n%s", code, took, exitHarness, console)
			}
			if lines := strings.Split(strings.TrimSpace(console), "\n"); len(lines) != 1 || !strings.Contains(console, "not this API") {
				t.Errorf("want one line saying what was found, got:\n%s", console)
			}
		})
	}
}

// A filter that selects no spec is a bad flag, never a green run.
func TestTrustFilterSelectingNothingIsAUsageError(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	code, console := conformCLI(t, bin, nil, "run", "--label-filter", "rule:V3-NO-SUCH-RULE", "--out", t.TempDir())
	if code != exitUsage || !strings.Contains(console, "selects no spec") {
		t.Errorf("exit %d, want %d saying nothing matched:\n%s", code, exitUsage, console)
	}
}

// processesMentioning lists the pids whose command line contains s.
func processesMentioning(t *testing.T, s string) []string {
	t.Helper()
	out, _ := exec.Command("pgrep", "-f", s).Output()
	return strings.Fields(string(out))
}

// kill -9 of conform run leaves neither the Ginkgo CLI nor a suite process.
func TestTrustKilledRunLeavesNoOrphans(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("needs pgrep")
	}
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "conform"), "run", "--procs", "2", "--out", out)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir()) // the progress file a killed run cannot remove
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(processesMentioning(t, out)) < 3 { // ginkgo and two suite processes name the out dir
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the suite processes did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline = time.Now().Add(5 * time.Second)
	for {
		left := processesMentioning(t, out)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				_ = exec.Command("kill", "-9", pid).Run()
			}
			t.Fatalf("%d processes outlived a killed conform run", len(left))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// apiServer answers the first request (conform's preflight) as the API does
// and every later one with status.
func apiServer(t *testing.T, status int) string {
	t.Helper()
	var first atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/3/public/currency" && first.CompareAndSwap(false, true) {
			_, _ = io.WriteString(w, `{"BTC":{"full_name":"Bitcoin","payin_enabled":true}}`)
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"error":{"code":429,"message":"Too many requests"}}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A capacity run answered with 429s fails without any --threshold; a run
// stopped with SIGTERM keeps what it measured and exits 143.
func TestTrustLoadVerdicts(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	t.Run("429 storm without thresholds", func(t *testing.T) {
		out := t.TempDir()
		code, console := conformCLI(t, bin, nil, "load", "--scenario", "public", "--target", apiServer(t, http.StatusTooManyRequests), "--rate", "50/s", "--duration", "1s", "--out", out)
		if code != exitThreshold || !strings.Contains(console, "429") {
			t.Errorf("exit %d, want %d with the 429 share shown:\n%s", code, exitThreshold, console)
		}
		code, console = conformCLI(t, bin, nil, "load", "--scenario", "public", "--target", apiServer(t, http.StatusTooManyRequests), "--rate", "50/s", "--duration", "1s", "--out", out, "--threshold", "none")
		if code != exitOK {
			t.Errorf("--threshold none: exit %d:\n%s", code, console)
		}
	})
	t.Run("SIGTERM", func(t *testing.T) {
		out := t.TempDir()
		cmd := exec.Command(filepath.Join(bin, "conform"), "load", "--scenario", "public", "--target", apiServer(t, http.StatusOK), "--rate", "100/s", "--duration", "60s", "--out", out)
		var console bytes.Buffer
		cmd.Stdout, cmd.Stderr = &console, &console
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitTerminated {
			t.Errorf("exit %v, want %d:\n%s", err, exitTerminated, console.String())
		}
		for _, f := range []string{"results.bin", "summary.json"} {
			if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", f, err)
			}
		}
		b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
		if !strings.Contains(string(b), `"INTERRUPTED"`) || !strings.Contains(string(b), "interrupted after") {
			t.Errorf("summary.json does not mark the run interrupted:\n%.600s", b)
		}
	})
}

// lockedBuffer is a console that a test reads while the process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startConform starts the built conform with args, its console captured.
func startConform(t *testing.T, bin string, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "conform"), args...)
	console := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = console, console
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, console
}

// exitOf waits for cmd and returns its exit code, failing the test when it
// takes longer than limit.
func exitOf(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		t.Fatalf("conform did not exit within %s", limit)
	}
	return -1
}

// underWay is Ginkgo's mark of a spec that passed: the run is under way.
// Not conform's progress line, the first of which comes 10 s into the run:
// a signal at the first mark cuts the same run short seconds sooner (the
// progress lines are counted on the full run).
var underWay = regexp.MustCompile(`•`)

// waitFor polls the console until re matches it.
func waitFor(t *testing.T, console *lockedBuffer, re *regexp.Regexp, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !re.MatchString(console.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s on the console within %s:\n%.3000s", re, limit, console.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// interruptedResults reads what results.json in dir says of the run's
// interruption and its specs.
func interruptedResults(t *testing.T, dir string) (cause, reason string, summary map[string]int, reasons []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Interrupted *struct {
			Status, Cause, Reason string
			At                    time.Time
		} `json:"interrupted"`
		Summary map[string]int `json:"summary"`
		Specs   []struct {
			Outcome    string `json:"outcome"`
			SkipReason string `json:"skip_reason"`
		} `json:"specs"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Interrupted == nil || r.Interrupted.Status != "INTERRUPTED" || r.Interrupted.At.IsZero() {
		t.Fatalf("results.json does not say the run was interrupted and when: %+v", r.Interrupted)
	}
	for _, s := range r.Specs {
		if s.Outcome == "skipped" && s.SkipReason == "" {
			reasons = append(reasons, "not selected")
		}
	}
	return r.Interrupted.Cause, r.Interrupted.Reason, r.Summary, reasons
}

// fullRunOf reads the full run that conform run without a filter wrote in
// dir (make test's conform-check: CONFORM_FULL_RUN), only reading: its
// console as run.log holds it, and how long its suite ran. It fails the
// test when the run was filtered or did not end green.
func fullRunOf(t *testing.T, dir string) (console string, took time.Duration) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "run.log"))
	if err != nil {
		t.Fatalf("CONFORM_FULL_RUN: %v", err)
	}
	// Ginkgo colours its lines when conform run's output is a terminal.
	console = regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(string(b), "")
	if m := regexp.MustCompile(`Will run (\d+) of (\d+) specs`).FindStringSubmatch(console); m == nil || m[1] != m[2] {
		t.Fatalf("CONFORM_FULL_RUN=%s is not a run of every spec (%q)", dir, m)
	}
	b, err = os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("CONFORM_FULL_RUN: %v", err)
	}
	var r struct {
		Succeeded   bool            `json:"suite_succeeded"`
		Start       time.Time       `json:"start_time"`
		End         time.Time       `json:"end_time"`
		Interrupted json.RawMessage `json:"interrupted"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("CONFORM_FULL_RUN: %v", err)
	}
	if !r.Succeeded || r.Interrupted != nil || r.Start.IsZero() || r.End.Before(r.Start) {
		t.Fatalf("CONFORM_FULL_RUN=%s is not a green run that ended (succeeded %v, interrupted %s, %s to %s)", dir, r.Succeeded, r.Interrupted, r.Start, r.End)
	}
	return console, r.End.Sub(r.Start)
}

// SIGINT in the middle of a full run exits 130 with every report saying
// INTERRUPTED; the specs it never reached are not run, not "not selected";
// report diff against a full run says the run is incomplete and finds no
// regression; nothing outlives the run. SIGTERM exits 143, the time limit
// and a stall 6, each saying why.
func TestTrustInterruptedRun(t *testing.T) {
	t.Parallel()
	bin := binDir(t)
	// The full run is the baseline of report diff and the count of progress
	// lines: make trust-parallel gives conform-check's (CONFORM_FULL_RUN),
	// which this test only reads; without it the test runs its own.
	full, given := os.Getenv("CONFORM_FULL_RUN"), true
	if full == "" {
		full, given = t.TempDir(), false
	}
	t.Run("full run", func(t *testing.T) {
		var console string
		var took time.Duration
		if given {
			console, took = fullRunOf(t, full)
		} else {
			start := time.Now()
			var code int
			code, console = conformCLI(t, bin, nil, "run", "--out", full)
			took = time.Since(start)
			if code != exitOK {
				t.Fatalf("full run: exit %d:\n%s", code, console)
			}
		}
		// A progress line every 10 s (the first at 10 s); the last tick may
		// fall after the suite ended, and one may slip on a machine whose
		// load average is near 20 (make test's third stage). A run read from
		// CONFORM_FULL_RUN counts its suite's time, which its progress lines
		// span (they count from before the suite started).
		if lines, want := strings.Count(console, " specs done"), int(took/(10*time.Second))-2; lines < want {
			t.Errorf("%d progress lines in %s, want at least %d", lines, took.Round(time.Second), want)
		}
	})
	t.Run("SIGINT", func(t *testing.T) {
		t.Parallel() // each stop has its own run and directory; they mostly wait
		out := t.TempDir()
		cmd, console := startConform(t, bin, "run", "--procs", "2", "--out", out)
		waitFor(t, console, underWay, 60*time.Second) // a spec passed: the run is under way
		_ = cmd.Process.Signal(os.Interrupt)
		if code := exitOf(t, cmd, 90*time.Second); code != exitInterrupted {
			t.Fatalf("exit %d, want %d:\n%s", code, exitInterrupted, console)
		}
		cause, _, summary, filtered := interruptedResults(t, out)
		if cause != "SIGINT" || summary["passed"] == 0 || summary["not_run"] == 0 || summary["failed"] != 0 {
			t.Errorf("cause %q, summary %v: want SIGINT, some passed, some not run, none failed", cause, summary)
		}
		if len(filtered) > 0 {
			t.Errorf("%d specs never reached are reported as not selected by the filter", len(filtered))
		}
		for _, f := range []string{"junit.xml", "report.html"} {
			if b, _ := os.ReadFile(filepath.Join(out, f)); !bytes.Contains(b, []byte("INTERRUPTED")) {
				t.Errorf("%s does not say INTERRUPTED", f)
			}
		}
		if !strings.Contains(console.String(), "INTERRUPTED at ") {
			t.Errorf("the console summary does not say INTERRUPTED:\n%s", console)
		}
		if left := processesMentioning(t, out); len(left) > 0 {
			t.Errorf("%d processes outlived the interrupted run", len(left))
		}
		if _, err := os.Stat(filepath.Join(full, "results.json")); err != nil {
			t.Skip("no full run to compare with")
		}
		code, diff := conformCLI(t, bin, nil, "report", "diff", full, out)
		if code != exitOK || !strings.Contains(diff, "the new run is incomplete: INTERRUPTED") || !strings.Contains(diff, "not judged") {
			t.Errorf("report diff full interrupted: exit %d:\n%s", code, diff)
		}
	})
	for _, c := range []struct {
		name  string
		args  []string
		sig   os.Signal
		code  int
		cause string
		why   string
	}{
		{"SIGTERM", nil, syscall.SIGTERM, exitTerminated, "SIGTERM", "conform received SIGTERM"},
		// The time limit stops the ping spec's wait (up to 32 s), not a full
		// run's 8 s of both CPUs: the same stop, at a fraction of the CPU.
		{"time limit", []string{"--label-filter", "rule:V3-LIMIT-WS-PING", "--timeout", "8s"}, nil, exitStopped, "time limit", "time limit of 8s (--timeout)"},
		// The ping spec waits up to 32 s for the stream's ping with no spec
		// ending; the stall limit counts from the start, set-up included
		// (over 6 s beside the other trust checks and a remote run: 15).
		{"stall", []string{"--label-filter", "rule:V3-LIMIT-WS-PING", "--stall-timeout", "15s"}, nil, exitStopped, "stalled", `no spec ended for 15s (--stall-timeout); in flight: "Limits: ping V3-LIMIT-WS-PING`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			cmd, console := startConform(t, bin, append([]string{"run", "--procs", "2", "--out", out}, c.args...)...)
			if c.sig != nil {
				waitFor(t, console, underWay, 60*time.Second)
				_ = cmd.Process.Signal(c.sig)
			}
			if code := exitOf(t, cmd, 120*time.Second); code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, console)
			}
			cause, reason, summary, _ := interruptedResults(t, out)
			if cause != c.cause || !strings.Contains(reason, c.why) || summary["failed"] != 0 {
				t.Errorf("cause %q reason %q failed %d, want %q with %q and none failed", cause, reason, summary["failed"], c.cause, c.why)
			}
		})
	}
}
