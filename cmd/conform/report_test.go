package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/browser"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/reporters/rundiff"
	"github.com/conform-harness/conform/target"
)

func TestReportDiffExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, v results.Verdict) string {
		p := filepath.Join(dir, name)
		r := &results.Results{Rules: []results.RuleResult{{ID: "V3-A", Area: "spot", Verdict: results.VerdictPassed}, {ID: "V3-B", Area: "spot", Verdict: v, Failures: []string{"expected 400"}}}}
		if err := r.Write(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, bad := write("good.json", results.VerdictPassed), write("bad.json", results.VerdictFailed)
	stopped := filepath.Join(dir, "stopped.json")
	sr := &results.Results{Interrupted: &results.Interruption{Status: results.StatusInterrupted, Cause: results.CauseSIGINT, At: time.Now()},
		Rules: []results.RuleResult{{ID: "V3-A", Area: "spot", Verdict: results.VerdictPassed}, {ID: "V3-B", Area: "spot", Verdict: results.VerdictInterrupted}}}
	if err := sr.Write(stopped); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
	}{
		{"regression", []string{"report", "diff", good, bad}, exitFailed, "NEWLY FAILING (regressions) (1)\n  V3-B"},
		{"fixed", []string{"report", "diff", bad, good}, exitOK, "FIXED (1)"},
		{"same", []string{"report", "diff", good, good}, exitOK, "diff: 0 newly failing"},
		{"interrupted: incomplete, no regression", []string{"report", "diff", good, stopped}, exitOK, "the new run is incomplete: INTERRUPTED"},
		{"interrupted, as JSON", []string{"report", "diff", good, stopped, "--json"}, exitOK, `"new_interrupted": {`},
		{"json after the runs", []string{"report", "diff", good, bad, "--json"}, exitFailed, `"newly_failing": [`},
		{"one run", []string{"report", "diff", good}, exitUsage, ""},
		{"no subcommand", []string{"report"}, exitUsage, ""},
		{"missing file", []string{"report", "diff", good, filepath.Join(dir, "none.json")}, exitUsage, ""},
	}
	for _, c := range cases {
		e, stdout, stderr := testEnv(t)
		if code := realMain(c.args, e); code != c.code || !strings.Contains(stdout.String(), c.stdout) {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", c.name, code, c.code, stdout, stderr)
		}
	}
}

func TestReplayCommandHoldsNoSecret(t *testing.T) {
	cases := []struct {
		name       string
		o          runOptions
		cfg        target.Config
		configPath string
		want       string
	}{
		{"embedded", runOptions{}, target.Config{}, "", "bin/conform run --label-filter rule:V3-A"},
		{"sandbox with config", runOptions{}, target.Config{REST: "https://u:pw@api.example.com/x?k=s", Sandbox: true,
			Accounts: map[string]target.Account{"full": {APIKey: "KEY", Secret: "SECRET"}}}, "/etc/my target.json",
			"bin/conform run --target https://api.example.com/x --config '/etc/my target.json' --sandbox --label-filter rule:V3-A"},
		{"ws target", runOptions{wsTarget: "ws://h:1"}, target.Config{REST: "http://h:1", WS: "ws://h:1", AllowLiveTrading: true}, "",
			"bin/conform run --target http://h:1 --ws-target ws://h:1 --allow-live-trading --label-filter rule:V3-A"},
	}
	for _, c := range cases {
		rr := runReport{o: &c.o, cfg: c.cfg, configPath: c.configPath, self: "bin/conform"}
		got := rr.replay("V3-A")
		if !strings.HasPrefix(got, c.want+" --out ") || strings.Contains(got, "SECRET") || strings.Contains(got, "pw") || strings.Contains(got, "KEY") {
			t.Errorf("%s: %s\nwant %s --out ...", c.name, got, c.want)
		}
	}
}

func TestCertifyFlags(t *testing.T) {
	e, _, _ := testEnv(t)
	if _, err := parseRun([]string{"--certify", "--label-filter", "rule:V3-A"}, e); exitCode(err) != exitUsage {
		t.Errorf("--certify with a filter: %v", err)
	}
	o, err := parseRun([]string{"--certify"}, e)
	if err != nil {
		t.Fatal(err)
	}
	args := ginkgoArgs(o, "/bin/suites.test", "/out", false)
	if !strings.Contains(strings.Join(args, " "), "--label-filter="+certifyFilter) {
		t.Errorf("args %q", args)
	}
	// The filter selects every spec with a rule label, and the slow ping
	// spec, which skips itself when the filter selects it without its slow
	// and rule labels.
	filter, err := types.ParseLabelFilter(certifyFilter)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		labels []string
		match  bool
	}{
		{[]string{"rule:V3-A", "area:spot"}, true},
		{[]string{"slow", "limits", "rule:V3-LIMIT-WS-PING", "area:limits"}, true},
		{[]string{"limits", "area:limits"}, false}, // the ping spec's labels without slow and rule
	}
	for _, c := range cases {
		if got := filter(c.labels); got != c.match {
			t.Errorf("%v: %v, want %v", c.labels, got, c.match)
		}
	}
}

func TestCmdRunCertifyWritesTheBundle(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	dir := t.TempDir()
	ginkgo := fakeGinkgo(t, dir)
	writeExe(t, filepath.Join(dir, "suites.test"))
	report := filepath.Join(dir, "one.json")
	writeReport(t, report, itSpec("serves /api/3", types.SpecStatePassed, "rule:V3-CONV-ADDRESS"))
	t.Setenv("FAKE_GINKGO_REPORT", report)
	t.Setenv("FAKE_GINKGO_STATUS", "0")
	t.Setenv("FAKE_GINKGO_ARGS", filepath.Join(dir, "args"))
	out := filepath.Join(dir, "cert")
	e, stdout, stderr := testEnv(t)
	e.exeDir = dir
	e.getenv = func(k string) string {
		if k == "CONFORM_CHROMIUM" {
			return filepath.Join(dir, "no-chromium") // the screenshot is the browser package's test
		}
		return ""
	}
	code := realMain([]string{"run", "--certify", "--out", out, "--ginkgo", ginkgo}, e)
	// One rule checked: every other testable rule could not run, and a
	// certification fails on that.
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailed, stdout, stderr)
	}
	for _, want := range []string{"NOT RUN (", "rules: no spec of this run checks it\n", "certification FAILED: bundle " + out} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"junit.xml", "results.json", "report.html", "run.log", "target.json", "bundle.json", "README.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("bundle: %v", err)
		}
	}
	if _, err := os.Stat(out + ".tar.gz"); err != nil {
		t.Errorf("bundle archive: %v", err)
	}
	chromium, err := browser.Find(os.Getenv)
	if err != nil {
		t.Logf("report.html not checked in a browser: %v", err)
	} else {
		e.getenv = func(k string) string {
			if k == "CONFORM_CHROMIUM" {
				return chromium
			}
			return ""
		}
		stdout.Reset()
		if code := realMain([]string{"run", "--certify", "--out", out, "--ginkgo", ginkgo}, e); code != exitFailed {
			t.Errorf("with chromium: exit %d", code)
		}
		if !strings.Contains(stdout.String(), "counts equal results.json") {
			t.Errorf("stdout lacks the browser check:\n%s", stdout)
		}
		if _, err := os.Stat(filepath.Join(out, screenshotFile)); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
	args, _ := os.ReadFile(filepath.Join(dir, "args"))
	if !strings.Contains(string(args), "--label-filter="+certifyFilter+"\n") {
		t.Errorf("ginkgo args %q", args)
	}
	res, err := rundiff.Load(out + ".tar.gz")
	if err != nil || !res.Certification || res.Summary.RulesNotRun == 0 {
		t.Errorf("results in the archive: %+v, %v", res.Summary, err)
	}
}

func TestRotatePrevious(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "(absent)"
		}
		return string(b)
	}
	steps := []struct {
		name    string
		before  map[string]string // written by the run before, as conform's
		certify bool
		want    map[string]string
	}{
		{"first run: nothing to keep", nil, false, map[string]string{"previous/results.json": "(absent)"}},
		{"second run keeps the first", map[string]string{"results.json": "run 1", "junit.xml": "j1", "ginkgo.json": "g1"}, false,
			map[string]string{"previous/results.json": "run 1", "previous/junit.xml": "j1", "results.json": "(absent)", "previous/ginkgo.json": "(absent)"}},
		{"third run replaces it", map[string]string{"results.json": "run 2"}, false,
			map[string]string{"previous/results.json": "run 2", "previous/junit.xml": "(absent)"}},
		{"a crashed run leaves the last previous", nil, false, map[string]string{"previous/results.json": "run 2"}},
		{"a certification keeps none", map[string]string{"results.json": "run 3"}, true, map[string]string{"previous/results.json": "(absent)", "results.json": "run 3"}},
	}
	for _, s := range steps {
		out, err := outdir.Open(dir, outdir.Me("test"))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for name, body := range s.before {
			if err := out.WriteFile(name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := rotatePrevious(out, s.certify); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		for name, want := range s.want {
			if got := read(name); got != want {
				t.Errorf("%s: %s holds %q, want %q", s.name, name, got, want)
			}
		}
	}
}

// The line that compares a run with the previous one says when this run is
// incomplete and how many rules it did not judge.
func TestSincePreviousOfAnInterruptedRun(t *testing.T) {
	dir := t.TempDir()
	prev := &results.Results{Rules: []results.RuleResult{{ID: "V3-A", Verdict: results.VerdictPassed}, {ID: "V3-B", Verdict: results.VerdictPassed}}}
	if err := os.MkdirAll(filepath.Join(dir, previousDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := prev.Write(filepath.Join(dir, previousDir, resultsReport)); err != nil {
		t.Fatal(err)
	}
	cur := &results.Results{Interrupted: &results.Interruption{Status: results.StatusInterrupted, Cause: results.CauseSIGTERM, At: time.Now()},
		Rules: []results.RuleResult{{ID: "V3-A", Verdict: results.VerdictPassed}, {ID: "V3-B", Verdict: results.VerdictInterrupted}}}
	var b strings.Builder
	sincePrevious(&b, dir, cur)
	if !strings.Contains(b.String(), "0 newly failing, 0 fixed, 0 newly covered, 0 changed, 1 not judged (this run is incomplete)") {
		t.Errorf("since the previous run: %q", b.String())
	}
}
