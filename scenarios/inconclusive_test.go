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
