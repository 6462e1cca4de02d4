package coverage

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/rules"
)

func catalogue(t *testing.T) *rules.Catalogue {
	t.Helper()
	c, err := rules.New([]rules.Rule{
		{ID: "V3-A", Area: "spot", Section: "s", Statement: "a", Status: rules.Testable},
		{ID: "V3-B", Area: "spot", Section: "s", Statement: "b", Status: rules.Testable},
		{ID: "V3-P", Area: "spot", Section: "s", Statement: "p", Status: rules.Testable, Pending: "later"},
		{ID: "V3-AMB", Area: "spot", Section: "s", Statement: "amb", Status: rules.Ambiguous, Reason: "silent"},
		{ID: "V3-AMB2", Area: "spot", Section: "s", Statement: "amb2", Status: rules.Ambiguous, Reason: "silent"},
		{ID: "V3-OOS", Area: "spot", Section: "s", Statement: "oos", Status: rules.OutOfScope, Reason: "not shown"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func it(text string, containerLabels []string, labels ...string) types.SpecReport {
	return types.SpecReport{
		ContainerHierarchyTexts:  []string{"area"},
		ContainerHierarchyLabels: [][]string{containerLabels},
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeText:             text,
		LeafNodeLabels:           labels,
		LeafNodeLocation:         types.CodeLocation{FileName: "area.go", LineNumber: 7},
		State:                    types.SpecStatePassed,
	}
}

func TestCompute(t *testing.T) {
	reports := []types.Report{{SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite},
		it("one", nil, "rule:V3-A"),
		it("two", []string{"rule:V3-A"}, "rule:V3-AMB", "informational"), // container label counts
		it("three", nil, "fast"),
		it("four", nil, "rule:V3-NOPE"),
		it("five", nil, "rule:V3-OOS"),
	}}}
	cov := Compute(reports, catalogue(t), testFaults)
	if cov.Specs != 5 {
		t.Errorf("specs: %d", cov.Specs)
	}
	if got := cov.SpecsFor("V3-A"); len(got) != 2 || got[0] != "area one" {
		t.Errorf("V3-A specs: %q", got)
	}
	if got := cov.SpecsFor("V3-AMB"); len(got) != 1 {
		t.Errorf("V3-AMB specs: %q", got)
	}
	want := []Problem{
		{Kind: Uncovered, Rule: "V3-B"},
		{Kind: NoRule, Spec: "area three", Location: "area.go:7"},
		{Kind: UnknownRule, Rule: "V3-NOPE", Spec: "area four", Location: "area.go:7"},
		{Kind: OutOfScopeRule, Rule: "V3-OOS", Spec: "area five", Location: "area.go:7"},
	}
	if len(cov.Problems) != len(want) {
		t.Fatalf("problems: %v", cov.Problems)
	}
	for i := range want {
		if cov.Problems[i] != want[i] {
			t.Errorf("problem %d: got %+v want %+v", i, cov.Problems[i], want[i])
		}
	}
	tot := cov.Totals()
	if (tot != Totals{Rules: 6, Testable: 3, Pending: 1, Covered: 1, Ambiguous: 2, AmbCovered: 1, OutOfScope: 1, Specs: 5}) {
		t.Errorf("totals: %+v", tot)
	}
	for _, p := range cov.Problems {
		if s := p.String(); s == "" || (p.Rule != "" && !strings.Contains(s, p.Rule)) {
			t.Errorf("problem string %q", s)
		}
	}
}

func TestComputeCleanSuite(t *testing.T) {
	reports := []types.Report{{SpecReports: types.SpecReports{
		it("one", nil, "rule:V3-A"),
		it("two", nil, "rule:V3-B"),
	}}}
	if cov := Compute(reports, catalogue(t), testFaults); len(cov.Problems) != 0 {
		t.Errorf("pending and ambiguous rules without specs are not problems: %v", cov.Problems)
	}
}

func TestCheckRunFlagsRulesWhoseSpecsOnlySkipped(t *testing.T) {
	cov := &Coverage{Problems: []Problem{}, Rules: []Rule{
		{Rule: rules.Rule{ID: "V3-RUNS", Status: rules.Testable}, Specs: []string{"a"}},
		{Rule: rules.Rule{ID: "V3-SKIPS", Status: rules.Testable}, Specs: []string{"b"}},
		{Rule: rules.Rule{ID: "V3-SLOW", Status: rules.Testable}, Specs: []string{"c"}},
		{Rule: rules.Rule{ID: "V3-PENDING", Status: rules.Testable, Pending: "later"}, Specs: []string{"d"}},
		{Rule: rules.Rule{ID: "V3-AMBIG", Status: rules.Ambiguous}, Specs: []string{"e"}},
	}}
	cov.CheckRun(map[string]RunOutcome{
		"V3-RUNS":    {Verdict: "passed"},
		"V3-SKIPS":   {Verdict: "skipped", Reason: "always skips"},
		"V3-SLOW":    {Verdict: "skipped", OnRequest: true},
		"V3-PENDING": {Verdict: "skipped"},
		"V3-AMBIG":   {Verdict: "skipped"},
	})
	if len(cov.Problems) != 1 || cov.Problems[0].Kind != SkippedOnly || cov.Problems[0].Rule != "V3-SKIPS" ||
		!strings.Contains(cov.Problems[0].String(), "always skips") {
		t.Errorf("problems %v", cov.Problems)
	}
}

// testFaults are faults for the testable rules of the test catalogue.
var testFaults = []faults.Fault{{Rule: "V3-A", Breaks: "a"}, {Rule: "V3-B", Breaks: "b"}}

func TestEmulatorOnlyNeedsAReason(t *testing.T) {
	c, err := rules.New([]rules.Rule{
		{ID: "V3-ONLY", Area: "spot", Section: "s", Statement: "only", Status: rules.Testable},
		{ID: "V3-SAID", Area: "spot", Section: "s", Statement: "said", Status: rules.Testable, EmulatorOnly: "a clock"},
		{ID: "V3-PART", Area: "spot", Section: "s", Statement: "part", Status: rules.Testable},
	})
	if err != nil {
		t.Fatal(err)
	}
	fs := []faults.Fault{{Rule: "V3-ONLY", Breaks: "x"}, {Rule: "V3-SAID", Breaks: "x"}, {Rule: "V3-PART", Breaks: "x"}}
	reports := []types.Report{{SpecReports: types.SpecReports{
		it("only", []string{LabelEmulatorOnly}, "rule:V3-ONLY"), // a container's label counts
		it("said", nil, "rule:V3-SAID", LabelEmulatorOnly),
		it("part on the emulator", nil, "rule:V3-PART", LabelEmulatorOnly),
		it("part anywhere", nil, "rule:V3-PART"),
	}}}
	cov := Compute(reports, c, fs)
	want := []Problem{{Kind: EmulatorOnlyUnexplained, Rule: "V3-ONLY"}}
	if len(cov.Problems) != 1 || cov.Problems[0] != want[0] {
		t.Fatalf("problems: %+v, want %+v", cov.Problems, want)
	}
	if s := cov.Problems[0].String(); !strings.Contains(s, "V3-ONLY") || !strings.Contains(s, LabelEmulatorOnly) {
		t.Errorf("problem string %q", s)
	}
}
