package results

import (
	"strings"

	"github.com/conform-harness/conform/rules"
)

// CertifyTarget is what a certification knows of its target: the kind of
// target decides which catalogue-declared limits apply.
type CertifyTarget struct {
	// Emulator: the conform emulator with its control plane.
	Emulator bool
	// OneAddress: every connection of the harness reaches the target from
	// one source address (a remote target, or a proxy in between).
	OneAddress bool
}

// Certify judges the run as a certification: every testable rule that is
// not pending must have been checked, so a rule whose specs all skipped,
// ended inconclusive or did not run gets VerdictNotRun with its reasons,
// and counts as a failure, unless the catalogue declares why this kind of
// target cannot judge it (cat's EmulatorOnly on a target without the
// control plane, SecondAddress from one address): then it is
// VerdictNotApplicable with that reason, listed but not a failure.
// Ambiguous and out-of-scope rules keep their verdicts; pending rules (the
// harness has no spec for them yet) too.
func (r *Results) Certify(cat *rules.Catalogue, t CertifyTarget) {
	r.Certification = true
	r.Summary.RulesNotRun, r.Summary.RulesNotApplicable = 0, 0
	for i := range r.Rules {
		rr := &r.Rules[i]
		if rr.Status != string(rules.Testable) {
			continue
		}
		switch rr.Verdict {
		case VerdictSkipped, VerdictInconclusive, VerdictNotCovered:
			if why := notApplicable(cat, rr.ID, t); why != "" {
				rr.Reason = why
				rr.Verdict = VerdictNotApplicable
				r.Summary.RulesNotApplicable++
				continue
			}
			rr.Failures = append(rr.Failures, "cannot run: "+rr.NotRunReason())
			rr.Verdict = VerdictNotRun
			r.Summary.RulesNotRun++
		}
	}
}

// notApplicable is the catalogue's reason why a target of kind t cannot
// judge rule id, or "".
func notApplicable(cat *rules.Catalogue, id string, t CertifyTarget) string {
	if cat == nil {
		return ""
	}
	rule, ok := cat.Lookup(id)
	switch {
	case !ok:
		return ""
	case !t.Emulator && rule.EmulatorOnly != "":
		return "needs the emulator's control plane: " + rule.EmulatorOnly
	case t.OneAddress && rule.SecondAddress != "":
		return "needs source addresses of its own: " + rule.SecondAddress
	}
	return ""
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
