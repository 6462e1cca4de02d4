package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/rules"
)

func TestPrintRules(t *testing.T) {
	cat, err := rules.New([]rules.Rule{
		{ID: "V3-A", Area: "spot", Section: "Sec", Statement: "a", Status: rules.Testable, EmulatorOnly: "a clock"},
		{ID: "V3-PEND", Area: "spot", Section: "Longer section", Statement: "p", Status: rules.Testable, Pending: "issue 3"},
		{ID: "V3-AMB", Area: "spot", Section: "Sec", Statement: "m", Status: rules.Ambiguous, Reason: "two readings"},
		{ID: "V3-OOS", Area: "spot", Section: "Sec", Statement: "o", Status: rules.OutOfScope, Reason: "not shown"},
	})
	if err != nil {
		t.Fatal(err)
	}
	a1 := itSpec("checks a", types.SpecStatePassed, "rule:V3-A")
	a1.LeafNodeLocation = types.CodeLocation{FileName: "/home/u/conform/suites/spot/create_params.go", LineNumber: 12}
	a2 := itSpec("checks a again", types.SpecStatePassed, "rule:V3-A")
	a2.LeafNodeLocation = types.CodeLocation{FileName: "/home/u/conform/suites/spot/rounding.go", LineNumber: 40}
	cov := coverage.Compute(report(a1, a2), cat, []faults.Fault{{Rule: "V3-A", Breaks: "accepts anything"}})
	var b bytes.Buffer
	if err := printRules(&b, cov); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"ID       AREA  STATUS        SPECS  SPEC FILES",
		"V3-A     spot  testable          2  suites/spot/create_params.go, suites/spot/rounding.go",
		"         emulator-only: a clock",
		"V3-PEND  spot  pending           0  -",
		"         pending: issue 3",
		"V3-AMB   spot  ambiguous         0  -",
		"         ambiguous: two readings",
		"V3-OOS   spot  out-of-scope      0  -",
		"         out-of-scope: not shown",
		"",
		"4 rules: 1/2 testable with specs (1 pending), 0/1 ambiguous with specs, 1 out of scope; 2 specs",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Errorf("line %d:\n got %q\nwant %q", i, lines[min(i, len(lines)-1)], w)
		}
	}

	// One rule end to end: sentence, spec files with lines, fault, report rows.
	b.Reset()
	r, _ := cov.Rule("V3-A")
	if err := printRule(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"sentence: a", "emulator-only: a clock", "rules/spot.go, emulator/faults/spot.go, suites/spot/", "suites/spot/rounding.go:40", "checks a again", "fault:    accepts anything", `junit.xml testcase "V3-A"`} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("--id output lacks %q:\n%s", w, b.String())
		}
	}

	// rules.yaml: files without lines, so that editing a spec file does not make it stale.
	b.Reset()
	if err := rules.WriteYAML(&b, cov.Joined()); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"- id: V3-A\n  area: spot\n", `    - file: "suites/spot/rounding.go"`, `  fault: "accepts anything"`, `  emulator_only: "a clock"`, "- id: V3-OOS\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("yaml lacks %q:\n%s", w, b.String())
		}
	}
}

func TestCmdRulesWithFakeSuite(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FAKE_DIR", dir)
	suite := fakeSuite(t, dir)
	writeReport(t, filepath.Join(dir, "dry.json"),
		itSpec("serves /api/3", types.SpecStatePassed, "rule:V3-CONV-ADDRESS"),
		itSpec("says hello", types.SpecStatePassed))

	e, stdout, _ := testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite}, e); code != exitOK {
		t.Errorf("rules: exit %d", code)
	}
	if !strings.Contains(stdout.String(), "V3-CONV-ADDRESS") {
		t.Errorf("table:\n%s", stdout)
	}
	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--id", "V3-CONV-ADDRESS"}, e); code != exitOK || !strings.Contains(stdout.String(), "serves /api/3") {
		t.Errorf("rules --id: exit %d\n%s", code, stdout)
	}
	// --emulator-only: the catalogue's rules that need the control plane, with the reason.
	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--emulator-only"}, e); code != exitOK ||
		!strings.Contains(stdout.String(), "V3-SPOT-DAY  (spot)\n  the expiry at 23:59 UTC") || strings.Contains(stdout.String(), "V3-CONV-ADDRESS") {
		t.Errorf("rules --emulator-only: exit %d\n%s", code, stdout)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--emulator-only", "--json"}, e); code != exitUsage {
		t.Errorf("rules --emulator-only --json: exit %d, want %d", code, exitUsage)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--id", "V3-NO-SUCH"}, e); code != exitUsage {
		t.Errorf("rules --id unknown: exit %d, want %d", code, exitUsage)
	}

	e, stdout, stderr := testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--check"}, e); code != exitFailed {
		t.Errorf("rules --check: exit %d, want %d", code, exitFailed)
	}
	if !strings.Contains(stdout.String(), `spec "says hello" () names no rule`) || !strings.Contains(stderr.String(), "coverage problems") {
		t.Errorf("problems not listed:\n%s\n%s", stdout, stderr)
	}

	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--json", "--check"}, e); code != exitFailed {
		t.Errorf("rules --json --check: exit %d", code)
	}
	var doc struct {
		Rules []struct {
			ID     string   `json:"id"`
			Status string   `json:"status"`
			Specs  []string `json:"specs"`
		} `json:"rules"`
		Problems []coverage.Problem `json:"problems"`
		Totals   coverage.Totals    `json:"totals"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("--json output is not JSON (%v):\n%s", err, stdout)
	}
	if len(doc.Rules) != len(rules.Default().All()) || doc.Rules[0].ID == "" || len(doc.Problems) == 0 || doc.Totals.Specs != 2 {
		t.Errorf("json: %d rules, %d problems, totals %+v", len(doc.Rules), len(doc.Problems), doc.Totals)
	}

	e, _, stderr = testEnv(t)
	t.Setenv("FAKE_DIR", t.TempDir()) // no dry.json: the suite exits 2 without a report
	if code := realMain([]string{"rules", "--suite", suite}, e); code != exitHarness || !strings.Contains(stderr.String(), "wrote no report") {
		t.Errorf("broken suite: exit %d, stderr %q", code, stderr)
	}
}

func report(specs ...types.SpecReport) []types.Report {
	return []types.Report{{SpecReports: specs}}
}
