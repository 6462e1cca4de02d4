package main

import (
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/target"
)

func TestParseRun(t *testing.T) {
	cases := []struct {
		args    []string
		wantErr string // empty: valid
	}{
		{nil, ""},
		{[]string{"--procs", "1", "--timeout", "30s", "--label-filter", "rule:V3-A || auth", "--focus", "^Errors"}, ""},
		{[]string{"--procs", "-1"}, "--procs must be at least 1"},
		{[]string{"--procs", "0"}, "--procs must be at least 1"},
		{[]string{"--timeout", "0s", "--stall-timeout", "0"}, ""},
		{[]string{"--timeout", "-1s"}, "--timeout must be positive, or 0 for none"},
		{[]string{"--stall-timeout", "-1s"}, "--stall-timeout must be positive, or 0 for none"},
		{[]string{"--timeout", "soon"}, "invalid value"},
		{[]string{"--out", ""}, "--out must not be empty"},
		{[]string{"--label-filter", "a &&"}, "Unexpected EOF"},
		{[]string{"--focus", "(a"}, "missing closing )"},
		{[]string{"--target"}, "flag needs an argument"},
	}
	for _, c := range cases {
		e, _, _ := testEnv(t)
		o, err := parseRun(c.args, e)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%q: %v", c.args, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr) || exitCode(err) != exitUsage):
			t.Errorf("%q: got %v (exit %d), want a usage error with %q", c.args, err, exitCode(err), c.wantErr)
		case c.wantErr == "" && len(c.args) == 0:
			if o.procs < 2 || o.timeout != 60*time.Minute || o.stall != 5*time.Minute || o.out != "reports" {
				t.Errorf("defaults: procs %d timeout %s stall %s out %q", o.procs, o.timeout, o.stall, o.out)
			}
		}
	}
}

func TestResolveTarget(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "target.json")
	if err := os.WriteFile(cfgPath, []byte(`{"rest":"https://api.example.com","sandbox":true,
		"accounts":{"full":{"api_key":"k","secret":"s"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	// A CA file given relative to the working directory reaches the suite,
	// which runs from its binary's directory, as an absolute path.
	ca := httptest.NewTLSServer(http.NotFoundHandler())
	ca.Close()
	caAbs := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caAbs, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	caRel, err := filepath.Rel(wd, caAbs)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		getenv  map[string]string
		check   func(target.Config) bool
		wantErr string
	}{
		{"embedded", nil, nil, func(c target.Config) bool { return c.REST == "" && c.WS == "" }, ""},
		{"flag target derives ws", []string{"--target", "http://127.0.0.1:8080"}, nil,
			func(c target.Config) bool { return c.WS == "ws://127.0.0.1:8080" }, ""},
		{"config file", []string{"--config", cfgPath}, nil,
			func(c target.Config) bool {
				return c.REST == "https://api.example.com" && c.Sandbox && c.Accounts["full"].APIKey == "k"
			}, ""},
		{"flags override config", []string{"--config", cfgPath, "--target", "http://h:1", "--sandbox=false", "--allow-live-trading"}, nil,
			func(c target.Config) bool { return c.REST == "http://h:1" && !c.Sandbox && c.AllowLiveTrading }, ""},
		{"environment", nil, map[string]string{"CONFORM_TARGET": "http://env:2"},
			func(c target.Config) bool { return c.REST == "http://env:2" }, ""},
		{"flag over environment", []string{"--target", "http://flag:3"}, map[string]string{"CONFORM_TARGET": "http://env:2"},
			func(c target.Config) bool { return c.REST == "http://flag:3" }, ""},
		{"each target declared on its own", []string{"--target", "http://h:1", "--ws-target", "ws://w:2", "--ws-sandbox"}, map[string]string{"CONFORM_REST_SANDBOX": "true"},
			func(c target.Config) bool { return !c.Sandbox && c.RESTSandbox && c.WSSandbox }, ""},
		{"ws sandbox flag over config", []string{"--config", cfgPath, "--ws-sandbox=false", "--rest-sandbox"}, map[string]string{"CONFORM_WS_SANDBOX": "1"},
			func(c target.Config) bool { return c.Sandbox && c.RESTSandbox && !c.WSSandbox }, ""},
		{"bad ws sandbox env", nil, map[string]string{"CONFORM_WS_SANDBOX": "maybe"}, nil, "CONFORM_WS_SANDBOX"},
		{"control token from the environment", []string{"--target", "http://h:1"}, map[string]string{"CONFORM_CONTROL_TOKEN": "tok-123456"},
			func(c target.Config) bool { return c.ControlToken == "tok-123456" }, ""},
		{"ws without target", []string{"--ws-target", "ws://x"}, nil, nil, "needs a --target"},
		{"bad ws", []string{"--target", "http://h", "--ws-target", "http://x"}, nil, nil, "want a ws(s) base URL"},
		{"versioned target", []string{"--target", "http://h/api/3"}, nil, nil, "without /api/3"},
		{"bad config", []string{"--config", filepath.Join(dir, "missing.json")}, nil, nil, "no such file"},
		{"missing CA file", []string{"--target", "https://h", "--ca-file", filepath.Join(dir, "absent.pem")}, nil, nil, "ca_file"},
		{"CA file that holds no certificate", []string{"--target", "https://h", "--ca-file", cfgPath}, nil, nil, "no PEM certificate"},
		{"CA file made absolute", []string{"--target", "https://h", "--ca-file", caRel}, nil,
			func(c target.Config) bool { return c.CAFile == caAbs }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _, _ := testEnv(t)
			o, err := parseRun(c.args, e)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := resolveTarget(o, env(c.getenv))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || exitCode(err) != exitUsage {
					t.Errorf("got %v (exit %d), want a usage error with %q", err, exitCode(err), c.wantErr)
				}
				return
			}
			if err != nil || !c.check(cfg) {
				t.Errorf("got %+v, %v", cfg, err)
			}
		})
	}
}

func TestGinkgoArgs(t *testing.T) {
	base := &runOptions{procs: 4, timeout: 5 * time.Minute}
	filtered := &runOptions{procs: 2, timeout: time.Minute, labelFilter: "rule:V3-A", focus: "Errors"}
	cases := []struct {
		name  string
		o     *runOptions
		color bool
		want  []string
	}{
		{"no filter", base, true, []string{
			"-p", "--procs=4", "--timeout=6m0s", "--grace-period=10s",
			"--json-report=ginkgo.json", "--output-dir=/out", "/bin/suites.test", "--"}},
		{"filters without colour", filtered, false, []string{
			"-p", "--procs=2", "--timeout=2m0s", "--grace-period=10s", "--label-filter=rule:V3-A", "--focus=Errors", "--no-color",
			"--json-report=ginkgo.json", "--output-dir=/out", "/bin/suites.test", "--"}},
	}
	for _, c := range cases {
		got := ginkgoArgs(c.o, "/bin/suites.test", "/out", c.color)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func stopped(cause string, s results.Summary) *results.Results {
	return &results.Results{Summary: s, Interrupted: &results.Interruption{Status: results.StatusInterrupted, Cause: cause, At: time.Now()}}
}

func TestRunOutcome(t *testing.T) {
	res := func(s results.Summary, sf ...ginkgojson.SuiteFailure) *results.Results {
		return &results.Results{Summary: s, SuiteFailures: sf}
	}
	cases := []struct {
		name   string
		res    *results.Results
		status int
		code   int
	}{
		{"all passed", res(results.Summary{Passed: 3}), 0, exitOK},
		{"informational and skipped do not fail", res(results.Summary{Passed: 1, Informational: 2, Skipped: 4, Pending: 1}), 0, exitOK},
		{"a spec failed", res(results.Summary{Passed: 1, Failed: 1}), 1, exitFailed},
		{"emulator did not start", res(results.Summary{}, ginkgojson.SuiteFailure{Node: "SynchronizedBeforeSuite", Message: "embedded emulator: listen"}), 1, exitHarness},
		{"ginkgo failed without a failed spec", res(results.Summary{Passed: 1}), 2, exitHarness},
		{"SIGINT, whatever failed before", stopped(results.CauseSIGINT, results.Summary{Failed: 1}), 1, exitInterrupted},
		{"SIGTERM", stopped(results.CauseSIGTERM, results.Summary{Passed: 1}), 1, exitTerminated},
		{"the time limit", stopped(results.CauseTimeLimit, results.Summary{Passed: 1}), 1, exitStopped},
		{"a stall", stopped(results.CauseStalled, results.Summary{Passed: 1}), 1, exitStopped},
		{"Ginkgo's suite timeout", stopped(ginkgojson.SuiteTimeoutElapsed, results.Summary{Passed: 1}), 1, exitStopped},
		{"the suite interrupted by someone else", stopped(ginkgojson.InterruptedByUser, results.Summary{Passed: 1}), 1, exitInterrupted},
	}
	for _, c := range cases {
		if got := exitCode(runOutcome(c.res, c.status, "/out")); got != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.code)
		}
	}
}

// fakeGinkgo writes a script that plays the Ginkgo CLI: it copies the report
// named by $FAKE_GINKGO_REPORT (if any) to --output-dir, records its
// arguments and exits with $FAKE_GINKGO_STATUS.
func fakeGinkgo(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "ginkgo")
	script := `#!/bin/sh
for a in "$@"; do
  case "$a" in --output-dir=*) out="${a#--output-dir=}";; esac
done
printf '%s\n' "$@" > "$FAKE_GINKGO_ARGS"
[ -n "$FAKE_GINKGO_REPORT" ] && cp "$FAKE_GINKGO_REPORT" "$out/ginkgo.json"
exit "$FAKE_GINKGO_STATUS"
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeReport(t *testing.T, path string, specs ...types.SpecReport) {
	t.Helper()
	b, err := json.Marshal([]types.Report{{SuiteDescription: "conform", SpecReports: specs, RunTime: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func itSpec(text string, state types.SpecState, labels ...string) types.SpecReport {
	s := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels, State: state}
	if state.Is(types.SpecStateFailureStates) {
		s.Failure = types.Failure{Message: "expected: HTTP 400\nactual: HTTP 200"}
	}
	return s
}

func TestCmdRunWithFakeGinkgo(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	dir := t.TempDir()
	ginkgo := fakeGinkgo(t, dir)
	writeExe(t, filepath.Join(dir, "suites.test"))
	passing, failing := filepath.Join(dir, "pass.json"), filepath.Join(dir, "fail.json")
	writeReport(t, passing, itSpec("serves /api/3", types.SpecStatePassed, "rule:V3-CONV-ADDRESS"))
	writeReport(t, failing, itSpec("serves /api/3", types.SpecStateFailed, "rule:V3-CONV-ADDRESS"))
	broken := filepath.Join(dir, "broken.json")
	writeReport(t, broken, types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed,
		Failure: types.Failure{Message: "harness: the target could not be set up"}})

	cases := []struct {
		name, report, status string
		code                 int
		stdout, stderr       string
	}{
		{"pass", passing, "0", exitOK, "1 passed, 0 failed", ""},
		{"fail", failing, "1", exitFailed, "V3-CONV-ADDRESS  The REST interface", ""},
		{"before suite failed", broken, "1", exitHarness, "SUITE FAILURES", "SynchronizedBeforeSuite: harness: the target could not be set up"},
		{"crash without report", "", "2", exitHarness, "", "ginkgo exited with status 2 and wrote no usable report"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			argsFile := filepath.Join(dir, "args-"+strings.ReplaceAll(c.name, " ", "-"))
			t.Setenv("FAKE_GINKGO_REPORT", c.report)
			t.Setenv("FAKE_GINKGO_STATUS", c.status)
			t.Setenv("FAKE_GINKGO_ARGS", argsFile)
			e, stdout, stderr := testEnv(t)
			e.exeDir = dir
			code := realMain([]string{"run", "--out", out, "--procs", "3", "--ginkgo", ginkgo}, e)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stdout:\n%s\nstderr:\n%s\nwant %q and %q", stdout, stderr, c.stdout, c.stderr)
			}
			args, err := os.ReadFile(argsFile)
			if err != nil || !strings.Contains(string(args), "--procs=3\n") || !strings.Contains(string(args), filepath.Join(dir, "suites.test")+"\n--\n") {
				t.Errorf("ginkgo args %q, %v", args, err)
			}
			_, err = os.Stat(filepath.Join(out, "results.json"))
			if wantResults := c.report != ""; wantResults != (err == nil) {
				t.Errorf("results.json written: %v, want %v", err == nil, wantResults)
			}
		})
	}
}

// conform run removes the reports an earlier run left in --out (a crashed
// run must not be mistaken for its predecessor), and refuses an --out that
// is not conform's, in one line with exit 2, before it writes anything.
func TestOpenRunOut(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, "mine")
	put := func(dir, name, body string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(mine, "README.md", "a user's")
	put(root, "file", "a user's")
	cases := []struct {
		name, out string
		certify   bool
		code      int
		want      string
	}{
		{"a user's directory", mine, false, exitUsage, "holds files conform did not write (README.md)"},
		{"a file", filepath.Join(root, "file"), false, exitUsage, "is not a directory"},
		{"under a file", filepath.Join(root, "file", "x"), false, exitUsage, "cannot create it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _, _ := testEnv(t)
			_, err := openRunOut(&runOptions{out: c.out, certify: c.certify}, []string{"--out", c.out}, e)
			if code := exitCode(err); code != c.code || !strings.Contains(fmt.Sprint(err), c.want) || strings.Contains(fmt.Sprint(err), "\n") {
				t.Errorf("exit %d, %v; want %d saying %q", code, err, c.code, c.want)
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(mine, "README.md")); string(got) != "a user's" {
		t.Errorf("README.md holds %q", got)
	}

	dir := filepath.Join(root, "reports")
	d, err := outdir.Open(dir, outdir.Me("test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ginkgoReport, "bundle.json", "api-v3.md"} {
		if err := d.WriteFile(name, []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	e, _, _ := testEnv(t)
	out, err := openRunOut(&runOptions{out: dir}, nil, e)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, name := range []string{ginkgoReport, "bundle.json", "api-v3.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale %s kept: %v", name, err)
		}
	}
	// A second run on the same --out meanwhile is refused, naming this one.
	_, err = openRunOut(&runOptions{out: dir}, []string{"--out", dir}, e)
	if code := exitCode(err); code != exitUsage || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second run: exit %d, %v", code, err)
	}
}

// The CLI hands the suite the one finished target in its environment,
// every setting as it resolved it (the suite overlays nothing), and never
// on a command line, which would show the keys to every user.
func TestSuiteEnvHandsTheFinishedTarget(t *testing.T) {
	cfg := target.Config{REST: "https://h", WS: "wss://h", CAFile: "/etc/ca.pem", Sandbox: true, Emulator: true, SharedSource: true,
		Accounts: map[string]target.Account{target.RoleFull: {APIKey: "ak_handoff", Secret: "sk_handoff"}}}
	env, err := suiteEnv(cfg)
	if err != nil || len(env) != 1 {
		t.Fatalf("suiteEnv: %q, %v", env, err)
	}
	name, v, _ := strings.Cut(env[0], "=")
	got, err := target.FromHandoff(v)
	if name != target.SuiteEnv || err != nil || !reflect.DeepEqual(got, cfg) {
		t.Errorf("handed %s=%+v (%v), want %s=%+v", name, got, err, target.SuiteEnv, cfg)
	}
	o := &runOptions{procs: 4, timeout: time.Minute, labelFilter: "rule:V3-A"}
	if args := strings.Join(ginkgoArgs(o, "/bin/suites.test", "/out", false), " "); strings.Contains(args, "sk_handoff") || strings.Contains(args, "https://h") {
		t.Errorf("the command line carries the target: %s", args)
	}
}

// A config with accounts (or CONFORM_KEY_* in the environment) aimed at
// the embedded emulator keeps the default number of processes: the
// emulator has fixture accounts for 8, and the configured ones are for a
// --target (the CLI says so in one line).
func TestEmbeddedEmulatorKeepsItsProcesses(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	dir := t.TempDir()
	ginkgo := fakeGinkgo(t, dir)
	writeExe(t, filepath.Join(dir, "suites.test"))
	report := filepath.Join(dir, "pass.json")
	writeReport(t, report, itSpec("serves /api/3", types.SpecStatePassed, "rule:V3-CONV-ADDRESS"))
	cfgPath := filepath.Join(dir, "target.json")
	for name, cfg := range map[string]string{
		"accounts":            `{"accounts":{"full":{"api_key":"k","secret":"s"}}}`,
		"accounts, a sandbox": `{"sandbox":true,"accounts":{"full":{"api_key":"k","secret":"s"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			argsFile := filepath.Join(t.TempDir(), "args")
			t.Setenv("FAKE_GINKGO_REPORT", report)
			t.Setenv("FAKE_GINKGO_STATUS", "0")
			t.Setenv("FAKE_GINKGO_ARGS", argsFile)
			e, stdout, stderr := testEnv(t)
			e.exeDir = dir
			if code := realMain([]string{"run", "--config", cfgPath, "--out", t.TempDir(), "--ginkgo", ginkgo}, e); code != exitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			args, _ := os.ReadFile(argsFile)
			if want := fmt.Sprintf("--procs=%d\n", defaultProcs()); !strings.Contains(string(args), want) {
				t.Errorf("ginkgo args %q lack %q", args, want)
			}
			if strings.Contains(stderr.String(), "instead of") || !strings.Contains(stderr.String(), "the embedded emulator runs on its own fixture accounts") {
				t.Errorf("stderr:\n%s", stderr)
			}
		})
	}
}

// A config account without a secret (or without a key) is a bad config:
// one line and exit 2, before anything runs, whatever the target.
func TestRunRefusesAnAccountWithoutASecretInOneLine(t *testing.T) {
	dir := t.TempDir()
	for name, cfg := range map[string]string{
		"embedded emulator":  `{"accounts":{"full":{"api_key":"k"}}}`,
		"remote target":      `{"rest":"https://api.example.com","accounts":{"full":{"api_key":"k","secret":"s"},"read-only":{"api_key":"r"}}}`,
		"no key":             `{"accounts":{"full":{"secret":"s"}}}`,
		"account set":        `{"rest":"https://api.example.com","accounts":{"full":{"api_key":"k","secret":"s"}},"account_sets":[{"full":{"api_key":"k2"}}]}`,
		"empty secret given": `{"accounts":{"full":{"api_key":"k","secret":""}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			e, stdout, stderr := testEnv(t)
			code := realMain([]string{"run", "--config", path, "--out", filepath.Join(dir, "out")}, e)
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			if code != exitUsage || len(lines) != 1 || !strings.Contains(lines[0], "api_key and secret are required") || stdout.Len() != 0 {
				t.Errorf("exit %d, want %d with one line\nstdout:\n%s\nstderr:\n%s", code, exitUsage, stdout, stderr)
			}
		})
	}
}

// The help of --procs says what the default is.
func TestProcsHelpMatchesTheDefault(t *testing.T) {
	f := runFlagSet(&runOptions{}).Lookup("procs")
	if !strings.Contains(f.Usage, "two per CPU, at least 4 and at most 8") {
		t.Errorf("--procs help: %q", f.Usage)
	}
	if got, want := defaultProcs(), min(max(2*runtime.NumCPU(), 4), 8); got != want {
		t.Errorf("defaultProcs() = %d on %d CPUs, want %d", got, runtime.NumCPU(), want)
	}
}
