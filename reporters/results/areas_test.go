package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conform-harness/conform/rules"
)

func TestAreasFollowTheCatalogue(t *testing.T) {
	r := &Results{
		Rules: []RuleResult{
			{ID: "V3-S1", Area: "spot", Status: "testable", Verdict: VerdictPassed},
			{ID: "V3-M1", Area: "marketdata", Status: "testable", Verdict: VerdictFailed},
			{ID: "V3-S2", Area: "spot", Status: "testable", Verdict: VerdictSkipped},
			{ID: "V9-NEW", Area: "brandnew", Status: "testable", Verdict: VerdictPassed},
			{ID: "V3-GHOST", Status: StatusUnknown, Verdict: VerdictPassed},
		},
		Specs: []Spec{
			{Rules: []string{"V3-S1"}, Outcome: Passed},
			{Rules: []string{"V3-S1", "V3-M1"}, Outcome: Failed},
			{Rules: []string{"V3-S2"}, Outcome: Skipped},
		},
	}
	got := r.Areas()
	cases := []struct {
		name                     string
		total, covered           int
		specsPassed, specsFailed int
	}{
		{"marketdata", 1, 1, 0, 1}, // rules.Areas order: marketdata before spot
		{"spot", 2, 1, 1, 1},
		{"brandnew", 1, 1, 0, 0}, // an area the list lacks still gets its group
		{"unknown", 1, 1, 0, 0},
	}
	if len(got) != len(cases) {
		t.Fatalf("areas %+v", got)
	}
	for i, c := range cases {
		a := got[i]
		if a.Name != c.name || a.Total != c.total || a.Covered() != c.covered || a.Specs[Passed] != c.specsPassed || a.Specs[Failed] != c.specsFailed {
			t.Errorf("area %d: %+v, want %+v", i, a, c)
		}
	}
	if known, _ := rules.LookupArea("spot"); got[1].Title != known.Title || got[1].Document == "" {
		t.Errorf("spot title %q document %q", got[1].Title, got[1].Document)
	}
}

func TestSkipReasonsCountedNeverBare(t *testing.T) {
	var specs []Spec
	add := func(n int, s Spec) {
		for range n {
			specs = append(specs, s)
		}
	}
	add(3, Spec{Outcome: Skipped, SkipReason: "emulator-only on a foreign target\nmore detail"})
	add(5, Spec{Outcome: Skipped, SkipReason: "set CONFORM_KEY_FULL"})
	add(2, Spec{Outcome: Skipped}) // filtered out
	add(1, Spec{Outcome: Pending})
	add(4, Spec{Outcome: Passed})
	for i := range 6 {
		add(1, Spec{Outcome: Skipped, SkipReason: "rare reason " + string(rune('a'+i))})
	}
	r := &Results{Specs: specs}
	got := r.SkipReasons()
	want := []ReasonCount{{"set CONFORM_KEY_FULL", 5}, {"emulator-only on a foreign target", 3}, {NotSelected, 2}, {"pending spec", 1}}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("reason %d: %+v, want %+v", i, got[i], w)
		}
	}
	var b bytes.Buffer
	printSkipReasons(&b, got)
	out := b.String()
	for _, line := range []string{"  5 skipped: set CONFORM_KEY_FULL\n", "  3 skipped: emulator-only on a foreign target\n", "  5 skipped for 5 other reasons (see results.json)\n"} {
		if !strings.Contains(out, line) {
			t.Errorf("missing %q in:\n%s", line, out)
		}
	}
}

func TestCertifyFailsRulesThatCannotRun(t *testing.T) {
	r := &Results{Rules: []RuleResult{
		{ID: "A", Status: "testable", Verdict: VerdictPassed},
		{ID: "B", Status: "testable", Verdict: VerdictSkipped, SkipReasons: []string{"emulator-only on a foreign target"}},
		{ID: "C", Status: "testable", Verdict: VerdictInconclusive, Inconclusive: []string{"offer took 1.4s"}},
		{ID: "D", Status: "testable", Verdict: VerdictNotCovered},
		{ID: "E", Status: StatusPending, Verdict: VerdictNotCovered},
		{ID: "F", Status: "ambiguous", Verdict: VerdictSkipped},
		{ID: "G", Status: "out-of-scope", Verdict: VerdictOutOfScope},
	}}
	if r.Failing() {
		t.Fatal("failing before certification")
	}
	r.Certify(nil, CertifyTarget{})
	want := map[string]Verdict{"A": VerdictPassed, "B": VerdictNotRun, "C": VerdictNotRun, "D": VerdictNotRun, "E": VerdictNotCovered, "F": VerdictSkipped, "G": VerdictOutOfScope}
	for _, rr := range r.Rules {
		if rr.Verdict != want[rr.ID] {
			t.Errorf("%s: %s, want %s", rr.ID, rr.Verdict, want[rr.ID])
		}
	}
	if !r.Failing() || r.Summary.RulesNotRun != 3 || !r.Certification {
		t.Errorf("summary %+v", r.Summary)
	}
	if got := r.Rules[1].Failures; len(got) != 1 || got[0] != "cannot run: emulator-only on a foreign target" {
		t.Errorf("B failures %q", got)
	}
	if got := r.Rules[3].NotRunReason(); got != "no spec of this run checks it" {
		t.Errorf("D reason %q", got)
	}
}
