package killtable

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
)

func report(specs ...types.SpecReport) []types.Report {
	return []types.Report{{SpecReports: specs}}
}

func itSpec(text string, state types.SpecState, labels ...string) types.SpecReport {
	s := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels, State: state}
	if state.Is(types.SpecStateFailureStates) {
		s.Failure = types.Failure{Message: "expected: HTTP 400\nactual: HTTP 200"}
	}
	return s
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
		run      Run
		verdict  Verdict
		killedBy []string
		note     string
	}{
		{"no spec", 0, Run{}, NoSpec, nil, "no spec names this rule"},
		{"killed", 2, Run{Reports: report(
			itSpec("a1", types.SpecStatePassed, "rule:V3-A"),
			itSpec("a2", types.SpecStateFailed, "rule:V3-A"),
			itSpec("b", types.SpecStateFailed, "rule:V3-B"), // another rule's spec does not count
		)}, Killed, []string{"a2"}, ""},
		{"killed by a timeout", 1, Run{Reports: report(itSpec("a", types.SpecStateTimedout, "rule:V3-A"))}, Killed, []string{"a"}, ""},
		{"survived", 1, Run{Reports: report(itSpec("a", types.SpecStatePassed, "rule:V3-A"))}, Survived, nil, ""},
		{"a spec left out", 2, Run{Reports: report(itSpec("a", types.SpecStateFailed, "rule:V3-A"))}, Broken, nil, "the run held 1 of the rule's 2 specs"},
		{"all skipped", 1, Run{Reports: report(skipped)}, Survived, nil, "every spec of the rule was skipped: the target may not trade"},
		{"no report", 1, Run{Err: errors.New("suite exited with status 2 and wrote no report")}, Broken, nil, "wrote no report"},
		{"suite did not start", 1, Run{Reports: report(beforeSuite)}, Broken, nil, "embedded emulator: bad fault"},
		{"stopped by the suite timeout", 1, Run{Reports: []types.Report{{SpecialSuiteFailureReasons: []string{"Suite Timeout Elapsed"},
			SpecReports: types.SpecReports{itSpec("a", types.SpecStateTimedout, "rule:V3-A")}}}}, Broken, nil, "did not run to its end: Suite Timeout Elapsed"},
	}
	for _, c := range cases {
		got := JudgeFault(f, c.specs, c.run)
		if got.Verdict != c.verdict || !slices.Equal(got.KilledBy, c.killedBy) || !strings.Contains(got.Note, c.note) ||
			got.Rule != "V3-A" || got.Breaks != "breaks A" || got.Specs != c.specs {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}
}

func TestBaselineAndTally(t *testing.T) {
	b := &Baseline{}
	bad := JudgeBaseline(b, Run{Reports: report(
		itSpec("a", types.SpecStatePassed, "rule:V3-A"),
		itSpec("b", types.SpecStateFailed, "rule:V3-B"),
	)})
	if b.Passed || len(b.Problems) != 1 || !bad["V3-B"] || bad["V3-A"] {
		t.Fatalf("baseline %+v bad %v", b, bad)
	}
	m := Tally([]FaultResult{
		{Rule: "V3-A", Verdict: Killed},
		{Rule: "V3-B", Verdict: Killed}, // fails without the fault: proves nothing
		{Rule: "V3-C", Verdict: Survived},
		{Rule: "V3-D", Verdict: NoSpec},
	}, b, bad)
	if m.Killed != 1 || m.Total != 4 || m.Score != 25 || m.Faults[1].Verdict != Broken {
		t.Errorf("tally: %+v", m)
	}
	if o, _ := m.Outcome(); o != Unjudged {
		t.Errorf("a failing baseline is a harness problem, got outcome %d", o)
	}

	ok := &Baseline{}
	JudgeBaseline(ok, Run{Reports: report(itSpec("a", types.SpecStatePassed, "rule:V3-A"))})
	if !ok.Passed {
		t.Errorf("passing baseline judged failed: %+v", ok)
	}
	cases := []struct {
		name     string
		verdicts []Verdict
		outcome  Outcome
		score    float64
	}{
		{"all killed", []Verdict{Killed, Killed, Killed}, AllKilled, 100},
		{"one survived", []Verdict{Killed, Killed, Survived}, Weak, 66.7},
		{"no spec", []Verdict{Killed, NoSpec}, Weak, 50},
		{"a run broke", []Verdict{Killed, Broken, Survived}, Unjudged, 33.3},
		{"nothing selected", nil, AllKilled, 0},
	}
	for _, c := range cases {
		var rs []FaultResult
		for _, v := range c.verdicts {
			rs = append(rs, FaultResult{Rule: "V3-X", Verdict: v})
		}
		m := Tally(rs, ok, nil)
		if o, _ := m.Outcome(); o != c.outcome || m.Score != c.score {
			t.Errorf("%s: outcome %d score %v, want %d %v", c.name, o, m.Score, c.outcome, c.score)
		}
	}
}

func TestKillTablePrint(t *testing.T) {
	m := Tally([]FaultResult{
		{Rule: "V3-A", Breaks: "breaks A", Verdict: Killed, KilledBy: []string{"area a1", "area a2"}},
		{Rule: "V3-LONGER-ID", Breaks: "breaks B", Verdict: Survived},
		{Rule: "V3-C", Breaks: "breaks C", Verdict: NoSpec, Note: "no spec names this rule"},
	}, nil, nil)
	var b bytes.Buffer
	if err := m.Print(&b); err != nil {
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

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m := Tally([]FaultResult{
		{Rule: "V3-A", Verdict: Killed, Report: file("a.json"), Log: file("a.log")},
		{Rule: "V3-B", Verdict: Survived, Report: file("b.json"), Log: file("b.log")},
		{Rule: "V3-C", Verdict: Broken, Log: file("c.log")},
	}, &Baseline{Passed: true, Report: file("baseline.json"), Log: file("baseline.log")}, nil)
	freed, err := m.Prune()
	if err != nil || freed != 40 {
		t.Fatalf("freed %d, %v", freed, err)
	}
	cases := []struct {
		name string
		kept bool
	}{{"a.json", false}, {"a.log", false}, {"baseline.json", false}, {"baseline.log", false}, {"b.json", true}, {"b.log", true}, {"c.log", true}}
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(dir, c.name))
		if kept := err == nil; kept != c.kept || (!kept && !errors.Is(err, os.ErrNotExist)) {
			t.Errorf("%s: kept %v, want %v (%v)", c.name, kept, c.kept, err)
		}
	}
	if m.Faults[0].Report != "" || m.Faults[1].Report == "" || m.Baseline.Log != "" {
		t.Errorf("paths not updated: %+v %+v", m.Faults, m.Baseline)
	}
	failing := &Mutation{Baseline: &Baseline{Passed: false, Log: file("bl.log")}}
	if _, err := failing.Prune(); err != nil || failing.Baseline.Log == "" {
		t.Errorf("a failing baseline's log must stay: %+v %v", failing.Baseline, err)
	}
}
