package scenarios

import (
	"errors"
	"strings"
	"testing"
)

// An outcome the harness could not time is inconclusive, never a problem
// of the rule; a harness error or a wrong count still is one.
func TestTimingMissesAreInconclusiveNotProblems(t *testing.T) {
	slow := Outcome{Who: "GET /public/symbol from 127.0.1.1", Budget: 80, Attempts: 3,
		Exact:  Burst{Offered: 80, Accepted: 70},
		Timing: []string{"the offer of 80 took 1.2s, more than the window"}}
	if p := slow.ExactProblems(); len(p) != 0 {
		t.Errorf("ExactProblems = %q, want none", p)
	}
	if p := slow.SlideProblems(); len(p) != 0 {
		t.Errorf("SlideProblems = %q, want none", p)
	}
	if r := slow.Inconclusive(); len(r) != 1 || !strings.Contains(r[0], "took 1.2s") || !strings.Contains(r[0], "3 attempts") {
		t.Errorf("Inconclusive = %q", r)
	}
	wrong := Outcome{Who: "x", Budget: 80, Exact: Burst{Offered: 80, Accepted: 70}}
	if len(wrong.ExactProblems()) == 0 || len(wrong.Inconclusive()) != 0 {
		t.Errorf("a wrong count must be a problem: %q / %q", wrong.ExactProblems(), wrong.Inconclusive())
	}
	broken := Outcome{Who: "x", Err: errors.New("connection refused"), Timing: []string{"late"}}
	if len(broken.ExactProblems()) == 0 || len(broken.Inconclusive()) != 0 {
		t.Errorf("a target that does not answer is a problem: %q / %q", broken.ExactProblems(), broken.Inconclusive())
	}
}

// The row-shared observation needs the first path's budget spent: when the
// harness could not offer it inside one window, that is no reading
// (inconclusive), not a failure; a spent-nothing offer in time still is one.
func TestRowSharedSlowOfferIsInconclusive(t *testing.T) {
	slow := &Results{Shared: &SharedOutcome{Spent: Outcome{Who: "GET /margin/order/x from 127.0.1.9", Attempts: 1,
		Exact:  Burst{Offered: 825, Accepted: 825},
		Timing: []string{"the offer of 825 took 1.4s, more than the window"}}}}
	if v := slow.Judge(ruleRowShared); len(v.Problems) != 0 || len(v.Inconclusive) != 1 {
		t.Errorf("slow offer: problems %q, inconclusive %q", v.Problems, v.Inconclusive)
	}
	unspent := &Results{Shared: &SharedOutcome{Spent: Outcome{Who: "x", Exact: Burst{Offered: 825, Accepted: 825}}}}
	if v := unspent.Judge(ruleRowShared); len(v.Problems) != 1 {
		t.Errorf("unspent budget in time: problems %q", v.Problems)
	}
}
