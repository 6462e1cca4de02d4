package results

import (
	"strings"

	"github.com/conform-harness/conform/rules"
)

// Certify judges the run as a certification: every testable rule that is
// not pending must have been checked, so a rule whose specs all skipped,
// ended inconclusive or did not run gets VerdictNotRun with its reasons,
// and counts as a failure. Ambiguous and out-of-scope rules keep their
// verdicts; pending rules (the harness has no spec for them yet) too.
func (r *Results) Certify() {
	r.Certification = true
	r.Summary.RulesNotRun = 0
	for i := range r.Rules {
		rr := &r.Rules[i]
		if rr.Status != string(rules.Testable) {
			continue
		}
		switch rr.Verdict {
		case VerdictSkipped, VerdictInconclusive, VerdictNotCovered:
			rr.Failures = append(rr.Failures, "cannot run: "+rr.NotRunReason())
			rr.Verdict = VerdictNotRun
			r.Summary.RulesNotRun++
		}
	}
}

// NotRunReason says why a rule has no pass or fail verdict: its skip or
// inconclusive reasons, or that no spec of the run names it.
func (rr RuleResult) NotRunReason() string {
	reasons := append(append([]string(nil), rr.Inconclusive...), rr.SkipReasons...)
	if len(reasons) == 0 {
		return "no spec of this run checks it"
	}
	return strings.Join(reasons, "; ")
}

// Failing reports whether the run fails its target: a failed spec, or, for
// a certification, a rule that could not run.
func (r *Results) Failing() bool {
	return r.Summary.Failed > 0 || r.Summary.RulesNotRun > 0
}
