package coverage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/rules"
)

func spec(text string, labels ...string) types.SpecReport {
	return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels, State: types.SpecStatePassed}
}

func TestPrint(t *testing.T) {
	cat, err := rules.New([]rules.Rule{
		{ID: "V3-A", Area: "spot", Section: "Sec", Statement: "a", Status: rules.Testable, EmulatorOnly: "a clock"},
		{ID: "V3-PEND", Area: "spot", Section: "Longer section", Statement: "p", Status: rules.Testable, Pending: "issue 3"},
		{ID: "V3-AMB", Area: "spot", Section: "Sec", Statement: "m", Status: rules.Ambiguous, Reason: "two readings"},
		{ID: "V3-OOS", Area: "spot", Section: "Sec", Statement: "o", Status: rules.OutOfScope, Reason: "not shown"},
	})
	if err != nil {
		t.Fatal(err)
	}
	a1 := spec("checks a", "rule:V3-A")
	a1.LeafNodeLocation = types.CodeLocation{FileName: "/home/u/conform/suites/spot/create_params.go", LineNumber: 12}
	a2 := spec("checks a again", "rule:V3-A")
	a2.LeafNodeLocation = types.CodeLocation{FileName: "/home/u/conform/suites/spot/rounding.go", LineNumber: 40}
	cov := Compute([]types.Report{{SpecReports: []types.SpecReport{a1, a2}}}, cat, []faults.Fault{{Rule: "V3-A", Breaks: "accepts anything"}})
	var b bytes.Buffer
	if err := cov.Print(&b); err != nil {
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
	if err := r.Print(&b); err != nil {
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
