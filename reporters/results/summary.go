package results

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/reporters/ginkgojson"
)

// statementWidth bounds a statement on the console; results.json keeps it whole.
const statementWidth = 100

// PrintSummary writes the human summary of a run. First what is no verdict:
// the inconclusive rules and one line for the informational outcomes (as
// Autobahn lists INFORMATIONAL cases apart from passes and failures; their
// observations are in report.html and results.json). Then the verdict, last
// on the console: counts, rule coverage, duration, the table of areas, the
// failed rules with their statement, the first line of each failure and a
// replay command, and the rules not run or not applicable.
func PrintSummary(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	s := r.Summary
	stopped := ""
	if r.Interrupted != nil {
		stopped = fmt.Sprintf(", %d interrupted, %d not run", s.Interrupted, s.NotRun)
	}
	printNotes(bw, r)

	fmt.Fprintf(bw, "conform: %d specs: %d passed, %d failed, %d informational, %d inconclusive, %d skipped, %d pending%s in %s\n",
		s.Specs, s.Passed, s.Failed, s.Informational, s.Inconclusive, s.Skipped, s.Pending, stopped,
		(time.Duration(s.DurationMS) * time.Millisecond).Round(10*time.Millisecond))
	if i := r.Interrupted; i != nil {
		fmt.Fprintf(bw, "%s\n  the run is incomplete: specs stopped in flight %d, never started %d (neither is a failure); rules not judged %d\n",
			i, s.Interrupted, s.NotRun, s.RulesInterrupted)
	}
	printSkipReasons(bw, r.SkipReasons())
	fmt.Fprintf(bw, "rules: %d/%d testable covered (%d failed, %d pending), %d/%d ambiguous recorded, %d out of scope\n",
		s.RulesCovered, s.RulesTestable, s.RulesFailed, s.RulesPending, s.RulesInformational, s.RulesAmbiguous, s.RulesOutOfScope)
	if r.Certification {
		fmt.Fprintf(bw, "certification: %d testable rules could not run (each a failure), %d not applicable to this target (the catalogue says why)\n", s.RulesNotRun, s.RulesNotApplicable)
	}
	printAreas(bw, r.Areas(), r.Interrupted != nil)

	if len(r.SuiteFailures) > 0 {
		fmt.Fprintf(bw, "\nSUITE FAILURES (the run itself broke)\n")
		for _, f := range r.SuiteFailures {
			fmt.Fprintf(bw, "  %s: %s\n", f.Node, ginkgojson.FirstLine(f.Message))
		}
	}

	if failed := r.FailedRules(); len(failed) > 0 {
		fmt.Fprintf(bw, "\nFAILED (%s)\n", plural(len(failed), "rule"))
		for _, rr := range failed {
			fmt.Fprintf(bw, "  %s  %s\n", rr.ID, clip(rr.Statement, statementWidth))
			printSome(bw, rr.Failures, "failed spec")
			if rr.Replay != "" {
				fmt.Fprintf(bw, "      replay: %s\n", rr.Replay)
			}
		}
	}
	if notRun := r.withVerdict(VerdictNotRun); len(notRun) > 0 {
		fmt.Fprintf(bw, "\nNOT RUN (%s; a certification fails on a rule it could not check)\n", plural(len(notRun), "rule"))
		printNotRun(bw, notRun)
	}
	if na := r.withVerdict(VerdictNotApplicable); len(na) > 0 {
		fmt.Fprintf(bw, "\nNOT APPLICABLE to this target (%s; not judged, not a failure: the catalogue declares why this kind of target cannot judge them)\n", plural(len(na), "rule"))
		for _, rr := range na {
			fmt.Fprintf(bw, "  %s  %s\n", rr.ID, clip(rr.Reason, statementWidth))
		}
	}
	var ruleless []Spec
	for _, sp := range r.Specs {
		if sp.Outcome == Failed && len(sp.Rules) == 0 {
			ruleless = append(ruleless, sp)
		}
	}
	if len(ruleless) > 0 {
		fmt.Fprintf(bw, "\nFAILED specs naming no rule (%d)\n", len(ruleless))
		for _, sp := range ruleless {
			fmt.Fprintf(bw, "  %s\n      %s\n", clip(sp.FullText(), statementWidth), clip(ginkgojson.FirstLine(sp.Failure.Message), statementWidth))
		}
	}
	return bw.Flush()
}

// printNotes writes what is no verdict, before the verdict: the rules the
// harness could not tell (each with its reason, since a rerun may) and one
// line for the informational outcomes.
func printNotes(bw *bufio.Writer, r *Results) {
	var inconclusive []RuleResult
	for _, rr := range r.Rules {
		if rr.Verdict == VerdictInconclusive {
			inconclusive = append(inconclusive, rr)
		}
	}
	if len(inconclusive) > 0 {
		fmt.Fprintf(bw, "INCONCLUSIVE (%s; the harness could not tell, never a rule failure)\n", plural(len(inconclusive), "rule"))
		for _, rr := range inconclusive {
			fmt.Fprintf(bw, "  %s  %s\n", rr.ID, clip(rr.Statement, statementWidth))
			printSome(bw, rr.Inconclusive, "reason")
		}
	}

	// Observations are many and never a verdict: one line says where they
	// are, so that the verdict ends the console.
	if info := r.InformationalRules(); len(info) > 0 {
		fmt.Fprintf(bw, "INFORMATIONAL (%s; recorded, never a failure): what the target did is in report.html and results.json\n", plural(len(info), "rule"))
	}
	if len(inconclusive) > 0 || len(r.InformationalRules()) > 0 {
		fmt.Fprintln(bw)
	}
}

// linesPerRule bounds the failure or observation lines shown for one rule;
// results.json has them all.
const linesPerRule = 3

// printSome prints the distinct first lines of items, at most linesPerRule,
// and says how many more there are.
func printSome(w io.Writer, items []string, noun string) {
	var distinct []string
	for _, it := range items {
		if line := ginkgojson.FirstLine(it); !slices.Contains(distinct, line) {
			distinct = append(distinct, line)
		}
	}
	for i, line := range distinct {
		if i == linesPerRule {
			fmt.Fprintf(w, "      … %d more (%s in all; see results.json)\n", len(distinct)-i, plural(len(items), noun))
			break
		}
		fmt.Fprintf(w, "      %s\n", clip(line, statementWidth))
	}
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// topReasons bounds the skip reasons listed on the console.
const topReasons = 5

// printSkipReasons explains the skip count: the most frequent reasons with
// their counts, never a bare number.
func printSkipReasons(w io.Writer, reasons []ReasonCount) {
	for i, rc := range reasons {
		if i == topReasons {
			rest := 0
			for _, r := range reasons[i:] {
				rest += r.Count
			}
			fmt.Fprintf(w, "  %d skipped for %d other reasons (see results.json)\n", rest, len(reasons)-i)
			break
		}
		fmt.Fprintf(w, "  %d skipped: %s\n", rc.Count, clip(rc.Reason, statementWidth))
	}
}

// areaColumns are the rule verdicts shown per area on the console.
var areaColumns = []Verdict{VerdictPassed, VerdictFailed, VerdictNotRun, VerdictNotApplicable, VerdictInformational, VerdictInconclusive, VerdictSkipped, VerdictNotCovered, VerdictOutOfScope}

// printAreas writes one line per area: its rules by verdict, with a column
// of interrupted rules when the run was interrupted.
func printAreas(w io.Writer, areas []AreaSummary, interrupted bool) {
	if len(areas) == 0 {
		return
	}
	columns := areaColumns
	if interrupted {
		columns = append([]Verdict{VerdictInterrupted}, areaColumns...)
	}
	width := len("AREA")
	for _, a := range areas {
		width = max(width, len(a.Name))
	}
	fmt.Fprintf(w, "\n%-*s %6s", width, "AREA", "RULES")
	for _, v := range columns {
		fmt.Fprintf(w, " %*s", colWidth(v), v)
	}
	fmt.Fprintln(w)
	for _, a := range areas {
		fmt.Fprintf(w, "%-*s %6d", width, a.Name, a.Total)
		for _, v := range columns {
			fmt.Fprintf(w, " %*d", colWidth(v), a.Rules[v])
		}
		fmt.Fprintln(w)
	}
}

func colWidth(v Verdict) int { return max(len(v), 4) }

// idsPerReason bounds the rule IDs listed under one not-run reason.
const idsPerReason = 12

// printNotRun groups the rules a certification could not run by reason,
// most frequent first, with their IDs.
func printNotRun(w io.Writer, rs []RuleResult) {
	var reasons []string
	ids := map[string][]string{}
	for _, rr := range rs {
		reason := clip(ginkgojson.FirstLine(rr.NotRunReason()), statementWidth)
		if _, ok := ids[reason]; !ok {
			reasons = append(reasons, reason)
		}
		ids[reason] = append(ids[reason], rr.ID)
	}
	slices.SortStableFunc(reasons, func(a, b string) int { return len(ids[b]) - len(ids[a]) })
	for _, reason := range reasons {
		list := ids[reason]
		fmt.Fprintf(w, "  %s: %s\n", plural(len(list), "rule"), reason)
		shown := list[:min(len(list), idsPerReason)]
		more := ""
		if n := len(list) - len(shown); n > 0 {
			more = fmt.Sprintf(" … %d more (see results.json)", n)
		}
		fmt.Fprintf(w, "      %s%s\n", strings.Join(shown, ", "), more)
	}
}
