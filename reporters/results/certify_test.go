package results

import (
	"testing"

	"github.com/conform-harness/conform/rules"
)

// A certification fails on a testable rule it could not judge, unless the
// catalogue declares why this kind of target cannot judge it.
func TestCertifyNotApplicableOnlyWhereTheCatalogueSaysWhy(t *testing.T) {
	cat, err := rules.New([]rules.Rule{
		{ID: "V3-CLOCK", Area: "spot", Section: "s", Statement: "x", Status: rules.Testable, EmulatorOnly: "moves the clock"},
		{ID: "V3-TWO-ADDR", Area: "limits", Section: "s", Statement: "x", Status: rules.Testable, SecondAddress: "a second address"},
		{ID: "V3-PLAIN", Area: "spot", Section: "s", Statement: "x", Status: rules.Testable},
		{ID: "V3-PASSED", Area: "spot", Section: "s", Statement: "x", Status: rules.Testable, EmulatorOnly: "in part"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		kind           CertifyTarget
		want           map[string]Verdict
		notRun, notApp int
	}{
		{"the emulator on loopback judges everything", CertifyTarget{Emulator: true},
			map[string]Verdict{"V3-CLOCK": VerdictNotRun, "V3-TWO-ADDR": VerdictNotRun, "V3-PLAIN": VerdictNotRun, "V3-PASSED": VerdictPassed}, 3, 0},
		{"a sandbox from one address", CertifyTarget{OneAddress: true},
			map[string]Verdict{"V3-CLOCK": VerdictNotApplicable, "V3-TWO-ADDR": VerdictNotApplicable, "V3-PLAIN": VerdictNotRun, "V3-PASSED": VerdictPassed}, 1, 2},
		{"the emulator behind a proxy", CertifyTarget{Emulator: true, OneAddress: true},
			map[string]Verdict{"V3-CLOCK": VerdictNotRun, "V3-TWO-ADDR": VerdictNotApplicable, "V3-PLAIN": VerdictNotRun, "V3-PASSED": VerdictPassed}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Results{Rules: []RuleResult{
				{ID: "V3-CLOCK", Status: string(rules.Testable), Verdict: VerdictSkipped, SkipReasons: []string{"emulator-only"}},
				{ID: "V3-TWO-ADDR", Status: string(rules.Testable), Verdict: VerdictInconclusive, Inconclusive: []string{"one address"}},
				{ID: "V3-PLAIN", Status: string(rules.Testable), Verdict: VerdictSkipped, SkipReasons: []string{"no symbol"}},
				{ID: "V3-PASSED", Status: string(rules.Testable), Verdict: VerdictPassed},
			}}
			r.Certify(cat, tc.kind)
			for _, rr := range r.Rules {
				if rr.Verdict != tc.want[rr.ID] {
					t.Errorf("%s: %s, want %s", rr.ID, rr.Verdict, tc.want[rr.ID])
				}
				if rr.Verdict == VerdictNotApplicable && rr.Reason == "" {
					t.Errorf("%s: not applicable without the catalogue's reason", rr.ID)
				}
			}
			if r.Summary.RulesNotRun != tc.notRun || r.Summary.RulesNotApplicable != tc.notApp {
				t.Errorf("not run %d, not applicable %d; want %d, %d", r.Summary.RulesNotRun, r.Summary.RulesNotApplicable, tc.notRun, tc.notApp)
			}
			if r.Failing() != (tc.notRun > 0) {
				t.Errorf("Failing() = %v with %d not run", r.Failing(), tc.notRun)
			}
		})
	}
}
