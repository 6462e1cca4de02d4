// Package killtable judges a mutation run: for each emulator fault, whether
// the specs of its rule failed with the fault on (KILLED), passed anyway
// (SURVIVED) or could not tell; the fault-free baseline that makes kills
// mean something; the score; the printed table; and which run artifacts are
// worth keeping (only those of faults that were not killed).
package killtable

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

// Verdict is what a mutation run says about one fault.
type Verdict string

// Mutation verdicts.
const (
	// Killed: a spec of the fault's rule failed with the fault on.
	Killed Verdict = "KILLED"
	// Survived: every spec of the rule passed (or was skipped) with the fault on.
	Survived Verdict = "SURVIVED"
	// NoSpec: no spec names the fault's rule.
	NoSpec Verdict = "NO-SPEC"
	// Broken: the run could not tell, because the suite did not run or the
	// rule's specs fail without the fault too (a harness problem).
	Broken Verdict = "ERROR"
)

// Run is the outcome of one run of the suite binary.
type Run struct {
	Reports []types.Report
	// Err is set when the run produced no usable report.
	Err error
}

// FaultResult is one row of the kill table.
type FaultResult struct {
	Rule     string   `json:"rule"`
	Breaks   string   `json:"breaks"`
	Verdict  Verdict  `json:"verdict"`
	Specs    int      `json:"specs"`
	KilledBy []string `json:"killed_by,omitempty"`
	Note     string   `json:"note,omitempty"`
	// Report and Log are the run's files, kept only for a fault that was
	// not killed (Prune removes the others).
	Report string `json:"report,omitempty"`
	Log    string `json:"log,omitempty"`
}

// Baseline is the run of every rule's specs with no fault on; it must pass
// for the kill table to mean anything.
type Baseline struct {
	LabelFilter string   `json:"label_filter"`
	Passed      bool     `json:"passed"`
	Problems    []string `json:"problems,omitempty"`
	Report      string   `json:"report,omitempty"`
	Log         string   `json:"log,omitempty"`
	// Parts are the reports and logs of a baseline run in several parts
	// side by side (each part a share of the rules), beside Report and Log.
	Parts []BaselinePart `json:"parts,omitempty"`
	// From is the report of a fault-free conform run read as the baseline
	// instead of running one (conform mutate --baseline): not this run's
	// file, never pruned.
	From string `json:"from,omitempty"`
}

// BaselinePart is one part of a baseline run in parts.
type BaselinePart struct {
	Report string `json:"report,omitempty"`
	Log    string `json:"log,omitempty"`
}

// Mutation is the content of mutation.json.
type Mutation struct {
	Faults   []FaultResult `json:"faults"`
	Killed   int           `json:"killed"`
	Total    int           `json:"total"`
	Score    float64       `json:"score_percent"`
	Baseline *Baseline     `json:"baseline,omitempty"`
}

// RuleFilter is the Ginkgo label filter selecting the specs of the rules.
func RuleFilter(ids ...string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = rules.Label(id)
	}
	return strings.Join(parts, " || ")
}

// ruleSpecs returns the spec reports labelled with the rule.
func ruleSpecs(reports []types.Report, id string) []types.SpecReport {
	var out []types.SpecReport
	for _, s := range ginkgojson.Specs(reports) {
		if slices.Contains(rules.FromLabels(s.Labels()), id) {
			out = append(out, s)
		}
	}
	return out
}

// Held returns how many specs of the rule the reports hold, whatever their
// outcome.
func Held(reports []types.Report, id string) int { return len(ruleSpecs(reports, id)) }

// JudgeFault decides a fault's verdict from its run: killed when at least
// one spec of its rule failed with the fault on. specs is the number of
// specs naming the rule in the suite.
func JudgeFault(f faults.Fault, specs int, run Run) FaultResult {
	r := FaultResult{Rule: f.Rule, Breaks: f.Breaks, Specs: specs}
	switch {
	case specs == 0:
		r.Verdict, r.Note = NoSpec, "no spec names this rule"
		return r
	case run.Err != nil:
		r.Verdict, r.Note = Broken, run.Err.Error()
		return r
	}
	if sf := ginkgojson.SuiteFailures(run.Reports); len(sf) > 0 {
		r.Verdict, r.Note = Broken, fmt.Sprintf("the suite did not run: %s: %s", sf[0].Node, ginkgojson.FirstLine(sf[0].Message))
		return r
	}
	if why := ginkgojson.Interruption(run.Reports); why != "" {
		// A spec stopped by the suite's timeout is no kill.
		r.Verdict, r.Note = Broken, "the suite did not run to its end: "+why
		return r
	}
	if held := Held(run.Reports, f.Rule); held < specs {
		// The run left out specs of the rule (a container it did not
		// register): it cannot tell.
		r.Verdict, r.Note = Broken, fmt.Sprintf("the run held %d of the rule's %d specs", held, specs)
		return r
	}
	ran := 0
	var skipReasons []string
	for _, s := range ruleSpecs(run.Reports, f.Rule) {
		switch {
		case s.Failed():
			r.KilledBy = append(r.KilledBy, s.FullText())
		case s.State == types.SpecStatePassed:
			ran++
		default:
			if msg := ginkgojson.FirstLine(s.Failure.Message); msg != "" && !slices.Contains(skipReasons, msg) {
				skipReasons = append(skipReasons, msg)
			}
		}
	}
	switch {
	case len(r.KilledBy) > 0:
		r.Verdict = Killed
	case ran == 0:
		r.Verdict, r.Note = Survived, "every spec of the rule was skipped"
		if len(skipReasons) > 0 {
			r.Note += ": " + strings.Join(skipReasons, "; ")
		}
	default:
		r.Verdict = Survived
	}
	return r
}

// JudgeBaseline lists what went wrong in the fault-free run: a broken suite
// or failed specs. It returns the rules whose specs failed, whose kills
// therefore prove nothing.
func JudgeBaseline(b *Baseline, run Run) map[string]bool {
	bad := map[string]bool{}
	switch {
	case run.Err != nil:
		b.Problems = append(b.Problems, run.Err.Error())
	default:
		for _, f := range ginkgojson.SuiteFailures(run.Reports) {
			b.Problems = append(b.Problems, fmt.Sprintf("%s: %s", f.Node, ginkgojson.FirstLine(f.Message)))
		}
		if why := ginkgojson.Interruption(run.Reports); why != "" {
			b.Problems = append(b.Problems, "the suite did not run to its end: "+why)
		}
		for _, s := range ginkgojson.Specs(run.Reports) {
			if !s.Failed() {
				continue
			}
			ids := rules.FromLabels(s.Labels())
			for _, id := range ids {
				bad[id] = true
			}
			b.Problems = append(b.Problems, fmt.Sprintf("%s [%s] fails without any fault: %s",
				s.FullText(), strings.Join(ids, ", "), ginkgojson.FirstLine(s.Failure.Message)))
		}
	}
	b.Passed = len(b.Problems) == 0
	return bad
}

// Tally joins the fault verdicts with the baseline: a kill of a rule whose
// specs fail anyway becomes ERROR. It fills in the score.
func Tally(results []FaultResult, baseline *Baseline, baselineBad map[string]bool) *Mutation {
	m := &Mutation{Faults: results, Total: len(results), Baseline: baseline}
	for i := range m.Faults {
		r := &m.Faults[i]
		if baselineBad[r.Rule] && r.Verdict == Killed {
			r.Verdict, r.Note = Broken, "the rule's specs fail without the fault too (see the baseline)"
		}
		if r.Verdict == Killed {
			m.Killed++
		}
	}
	if m.Total > 0 {
		m.Score = float64(int(1000*float64(m.Killed)/float64(m.Total)+0.5)) / 10
	}
	return m
}

// Outcome is what a kill table says about the suite as a whole.
type Outcome int

// Outcomes, from good to bad.
const (
	// AllKilled: every fault was killed (or none was selected).
	AllKilled Outcome = iota
	// Weak: a fault survived or its rule has no spec.
	Weak
	// Unjudged: the baseline failed or a run could not be judged.
	Unjudged
)

// Outcome says whether the table proves the suite, with a one-line reason
// when it does not.
func (m *Mutation) Outcome() (Outcome, string) {
	var broken, weak int
	for _, r := range m.Faults {
		switch r.Verdict {
		case Broken:
			broken++
		case Survived, NoSpec:
			weak++
		}
	}
	switch {
	case m.Baseline != nil && !m.Baseline.Passed:
		return Unjudged, "mutate: the baseline run without faults failed, so kills prove nothing (see above)"
	case broken > 0:
		return Unjudged, fmt.Sprintf("mutate: %d fault runs could not be judged (see above)", broken)
	case weak > 0:
		return Weak, fmt.Sprintf("mutate: %d faults survived or have no spec", weak)
	}
	return AllKilled, ""
}

// Prune removes the report and log of every killed fault, and of a baseline
// that passed, so that a full mutation run keeps detail only where someone
// has to look (survivors, errors, a failing baseline); the table itself is
// the summary of the rest. It returns the bytes freed.
func (m *Mutation) Prune() (int64, error) {
	var freed int64
	var errs []error
	drop := func(paths ...*string) {
		for _, p := range paths {
			if *p == "" {
				continue
			}
			if fi, err := os.Stat(*p); err == nil {
				freed += fi.Size()
			}
			if err := os.Remove(*p); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			*p = ""
		}
	}
	for i := range m.Faults {
		if r := &m.Faults[i]; r.Verdict == Killed {
			drop(&r.Report, &r.Log)
		}
	}
	if b := m.Baseline; b != nil && b.Passed {
		drop(&b.Report, &b.Log)
		for i := range b.Parts {
			drop(&b.Parts[i].Report, &b.Parts[i].Log)
		}
		b.Parts = nil
	}
	return freed, errors.Join(errs...)
}

// Print writes the kill table and the score.
func (m *Mutation) Print(w io.Writer) error {
	bw := bufio.NewWriter(w)
	wRule := len("FAULT RULE")
	for _, r := range m.Faults {
		wRule = max(wRule, len(r.Rule))
	}
	const wVerdict = len("SURVIVED")
	indent := strings.Repeat(" ", wRule+2+wVerdict+2)
	fmt.Fprintf(bw, "%-*s  %-*s  %s\n", wRule, "FAULT RULE", wVerdict, "VERDICT", "WHAT IT BREAKS")
	for _, r := range m.Faults {
		fmt.Fprintf(bw, "%-*s  %-*s  %s\n", wRule, r.Rule, wVerdict, r.Verdict, r.Breaks)
		if len(r.KilledBy) > 0 {
			more := ""
			if n := len(r.KilledBy) - 1; n > 0 {
				more = fmt.Sprintf(" (+%d more)", n)
			}
			fmt.Fprintf(bw, "%skilled by: %s%s\n", indent, clip(r.KilledBy[0], 90), more)
		}
		if r.Note != "" {
			fmt.Fprintf(bw, "%s%s\n", indent, ginkgojson.FirstLine(r.Note))
		}
	}
	if b := m.Baseline; b != nil && !b.Passed {
		fmt.Fprintf(bw, "\nBASELINE FAILED (harness problem; no fault was on):\n")
		for _, p := range b.Problems {
			fmt.Fprintf(bw, "  %s\n", p)
		}
	}
	if b := m.Baseline; b != nil && b.From != "" {
		fmt.Fprintf(bw, "\nbaseline: the fault-free run of %s\n", b.From)
	}
	fmt.Fprintf(bw, "\nkilled %d/%d (%g%%)\n", m.Killed, m.Total, m.Score)
	return bw.Flush()
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
