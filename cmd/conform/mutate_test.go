package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
)

func report(specs ...types.SpecReport) []types.Report {
	return []types.Report{{SpecReports: specs}}
}

func TestJudgeFault(t *testing.T) {
	f := faults.Fault{Rule: "V3-A", Breaks: "breaks A"}
	skipped := itSpec("needs trading", types.SpecStateSkipped, "rule:V3-A")
	skipped.Failure.Message = "the target may not trade"
	beforeSuite := types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed,
		Failure: types.Failure{Message: "embedded emulator: bad fault"}}
	cases := []struct {
		name     string
		specs    int
		run      suiteRun
		verdict  Verdict
		killedBy []string
		note     string
	}{
		{"no spec", 0, suiteRun{}, NoSpec, nil, "no spec names this rule"},
		{"killed", 2, suiteRun{reports: report(
			itSpec("a1", types.SpecStatePassed, "rule:V3-A"),
			itSpec("a2", types.SpecStateFailed, "rule:V3-A"),
			itSpec("b", types.SpecStateFailed, "rule:V3-B"), // another rule's spec does not count
		)}, Killed, []string{"a2"}, ""},
		{"killed by a timeout", 1, suiteRun{reports: report(itSpec("a", types.SpecStateTimedout, "rule:V3-A"))}, Killed, []string{"a"}, ""},
		{"survived", 1, suiteRun{reports: report(itSpec("a", types.SpecStatePassed, "rule:V3-A"))}, Survived, nil, ""},
		{"all skipped", 1, suiteRun{reports: report(skipped)}, Survived, nil, "every spec of the rule was skipped: the target may not trade"},
		{"no report", 1, suiteRun{err: errors.New("suite exited with status 2 and wrote no report")}, Broken, nil, "wrote no report"},
		{"suite did not start", 1, suiteRun{reports: report(beforeSuite)}, Broken, nil, "embedded emulator: bad fault"},
	}
	for _, c := range cases {
		got := judgeFault(f, c.specs, c.run)
		if got.Verdict != c.verdict || !slices.Equal(got.KilledBy, c.killedBy) || !strings.Contains(got.Note, c.note) ||
			got.Rule != "V3-A" || got.Breaks != "breaks A" || got.Specs != c.specs {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}
}

func TestBaselineAndTally(t *testing.T) {
	b := &Baseline{}
	bad := judgeBaseline(b, suiteRun{reports: report(
		itSpec("a", types.SpecStatePassed, "rule:V3-A"),
		itSpec("b", types.SpecStateFailed, "rule:V3-B"),
	)})
	if b.Passed || len(b.Problems) != 1 || !bad["V3-B"] || bad["V3-A"] {
		t.Fatalf("baseline %+v bad %v", b, bad)
	}
	m := tally([]FaultResult{
		{Rule: "V3-A", Verdict: Killed},
		{Rule: "V3-B", Verdict: Killed}, // fails without the fault: proves nothing
		{Rule: "V3-C", Verdict: Survived},
		{Rule: "V3-D", Verdict: NoSpec},
	}, b, bad)
	if m.Killed != 1 || m.Total != 4 || m.Score != 25 || m.Faults[1].Verdict != Broken {
		t.Errorf("tally: %+v", m)
	}
	if code := exitCode(m.outcome()); code != exitHarness {
		t.Errorf("a failing baseline is a harness problem, got exit %d", code)
	}

	ok := &Baseline{}
	judgeBaseline(ok, suiteRun{reports: report(itSpec("a", types.SpecStatePassed, "rule:V3-A"))})
	if !ok.Passed {
		t.Errorf("passing baseline judged failed: %+v", ok)
	}
	cases := []struct {
		name     string
		verdicts []Verdict
		code     int
		score    float64
	}{
		{"all killed", []Verdict{Killed, Killed, Killed}, exitOK, 100},
		{"one survived", []Verdict{Killed, Killed, Survived}, exitFailed, 66.7},
		{"no spec", []Verdict{Killed, NoSpec}, exitFailed, 50},
		{"a run broke", []Verdict{Killed, Broken, Survived}, exitHarness, 33.3},
		{"nothing selected", nil, exitOK, 0},
	}
	for _, c := range cases {
		var rs []FaultResult
		for _, v := range c.verdicts {
			rs = append(rs, FaultResult{Rule: "V3-X", Verdict: v})
		}
		m := tally(rs, ok, nil)
		if code := exitCode(m.outcome()); code != c.code || m.Score != c.score {
			t.Errorf("%s: exit %d score %v, want %d %v", c.name, code, m.Score, c.code, c.score)
		}
	}
}

func TestKillTablePrint(t *testing.T) {
	m := tally([]FaultResult{
		{Rule: "V3-A", Breaks: "breaks A", Verdict: Killed, KilledBy: []string{"area a1", "area a2"}},
		{Rule: "V3-LONGER-ID", Breaks: "breaks B", Verdict: Survived},
		{Rule: "V3-C", Breaks: "breaks C", Verdict: NoSpec, Note: "no spec names this rule"},
	}, nil, nil)
	var b bytes.Buffer
	if err := m.print(&b); err != nil {
		t.Fatal(err)
	}
	want := `FAULT RULE    VERDICT   WHAT IT BREAKS
V3-A          KILLED    breaks A
                        killed by: area a1 (+1 more)
V3-LONGER-ID  SURVIVED  breaks B
V3-C          NO-SPEC   breaks C
                        no spec names this rule

killed 1/3 (33.3%)
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestSelectFaults(t *testing.T) {
	all := []faults.Fault{{Rule: "V3-A"}, {Rule: "V3-B"}, {Rule: "V3-C"}}
	got, err := selectFaults(all, " V3-C, V3-A,,V3-C ")
	if err != nil || len(got) != 2 || got[0].Rule != "V3-C" || got[1].Rule != "V3-A" {
		t.Errorf("got %v, %v", got, err)
	}
	if got, _ := selectFaults(all, ""); len(got) != 3 {
		t.Errorf("no --only: %v", got)
	}
	if _, err := selectFaults(all, "V3-A,V3-Z"); err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), "V3-Z") {
		t.Errorf("unknown fault: %v", err)
	}
}

func TestSuiteRunArgs(t *testing.T) {
	got := suiteRunArgs(ruleFilter("V3-A"), "/r/V3-A.json", time.Minute, "V3-A")
	want := []string{"--ginkgo.label-filter=rule:V3-A", "--ginkgo.json-report=/r/V3-A.json", "--ginkgo.no-color", "--ginkgo.timeout=1m0s", "-conform.faults=V3-A"}
	if !slices.Equal(got, want) {
		t.Errorf("fault run:\n got %q\nwant %q", got, want)
	}
	got = suiteRunArgs(ruleFilter("V3-A", "V3-B"), "/r/baseline.json", time.Minute)
	if got[0] != "--ginkgo.label-filter=rule:V3-A || rule:V3-B" || slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "-conform.faults") }) {
		t.Errorf("baseline run: %q", got)
	}
	if _, err := types.ParseLabelFilter(ruleFilter("V3-A", "V3-B-C")); err != nil {
		t.Errorf("rule filter does not parse: %v", err)
	}
}

// fakeSuite writes a script that plays suites.test: a dry run writes
// $FAKE_DIR/dry.json; a run copies $FAKE_DIR/<fault>.json (baseline.json
// without a fault) to the report path and exits 1 when that report has a
// failure, as the real suite would.
func fakeSuite(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "suites.test")
	script := `#!/bin/sh
name=baseline
for a in "$@"; do
  case "$a" in
    --ginkgo.json-report=*) report="${a#--ginkgo.json-report=}";;
    --ginkgo.dry-run) name=dry;;
    -conform.faults=*) name="${a#-conform.faults=}";;
  esac
done
[ -f "$FAKE_DIR/$name.json" ] || exit 2
cp "$FAKE_DIR/$name.json" "$report"
grep -q '"State":"failed"' "$report" && exit 1
exit 0
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCmdMutateWithFakeSuite(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	all := faults.Catalogue()
	if len(all) < 4 {
		t.Skip("needs four faults in the catalogue")
	}
	killed, survived, nospec, broken := all[0].Rule, all[1].Rule, all[2].Rule, all[3].Rule
	dir := t.TempDir()
	t.Setenv("FAKE_DIR", dir)
	suite := fakeSuite(t, dir)
	writeReport(t, filepath.Join(dir, "dry.json"),
		itSpec("k", types.SpecStatePassed, "rule:"+killed),
		itSpec("s", types.SpecStatePassed, "rule:"+survived),
		itSpec("b", types.SpecStatePassed, "rule:"+broken))
	writeReport(t, filepath.Join(dir, "baseline.json"),
		itSpec("k", types.SpecStatePassed, "rule:"+killed),
		itSpec("s", types.SpecStatePassed, "rule:"+survived),
		itSpec("b", types.SpecStatePassed, "rule:"+broken))
	writeReport(t, filepath.Join(dir, killed+".json"), itSpec("k", types.SpecStateFailed, "rule:"+killed))
	writeReport(t, filepath.Join(dir, survived+".json"), itSpec("s", types.SpecStatePassed, "rule:"+survived))
	// no report for the broken fault: the fake suite exits 2 without one

	out := filepath.Join(dir, "out")
	e, stdout, stderr := testEnv(t)
	code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--parallel", "2",
		"--only", strings.Join([]string{killed, survived, nospec, broken}, ",")}, e)
	if code != exitHarness {
		t.Errorf("exit %d, want %d (a run broke)\nstdout:\n%s\nstderr:\n%s", code, exitHarness, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, mutationFile))
	if err != nil {
		t.Fatal(err)
	}
	var m Mutation
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]Verdict{}
	for _, r := range m.Faults {
		verdicts[r.Rule] = r.Verdict
	}
	want := map[string]Verdict{killed: Killed, survived: Survived, nospec: NoSpec, broken: Broken}
	for id, v := range want {
		if verdicts[id] != v {
			t.Errorf("%s: %s, want %s", id, verdicts[id], v)
		}
	}
	if m.Killed != 1 || m.Total != 4 || m.Baseline == nil || !m.Baseline.Passed {
		t.Errorf("mutation: killed %d/%d baseline %+v", m.Killed, m.Total, m.Baseline)
	}
	if !strings.Contains(stdout.String(), "killed 1/4 (25%)") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// Without the broken fault the survivor decides: exit 1.
	e, _, _ = testEnv(t)
	if code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--only", killed + "," + survived}, e); code != exitFailed {
		t.Errorf("survivor: exit %d, want %d", code, exitFailed)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--only", killed}, e); code != exitOK {
		t.Errorf("all killed: exit %d, want %d", code, exitOK)
	}
}
