// Package ginkgojson reads the JSON report that Ginkgo writes with
// --json-report (a []types.Report) and picks out what conform's reporters
// need: the specs, the suite-level failures and the text of report entries.
package ginkgojson

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Read decodes the Ginkgo JSON report at path.
func Read(path string) ([]types.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ginkgo report: %w", err)
	}
	defer f.Close()
	reports, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("ginkgo report %s: %w", path, err)
	}
	return reports, nil
}

// Decode decodes a Ginkgo JSON report. An empty report (no suites) is an
// error: Ginkgo always writes one entry per suite it ran.
func Decode(r io.Reader) ([]types.Report, error) {
	var reports []types.Report
	if err := json.NewDecoder(r).Decode(&reports); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if len(reports) == 0 {
		return nil, fmt.Errorf("the report holds no suite")
	}
	return reports, nil
}

// Specs returns the spec reports of every suite whose leaf is an It (table
// entries are Its too), leaving out suite-level nodes such as BeforeSuite.
func Specs(reports []types.Report) []types.SpecReport {
	var out []types.SpecReport
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if s.LeafNodeType == types.NodeTypeIt {
				out = append(out, s)
			}
		}
	}
	return out
}

// SuiteFailure is a failed suite-level node (BeforeSuite, AfterSuite,
// SynchronizedBeforeSuite, ReportAfterSuite, ...): the run itself broke,
// whatever the specs say.
type SuiteFailure struct {
	// Node is the Ginkgo node type, e.g. "SynchronizedBeforeSuite".
	Node string `json:"node"`
	// Message is Ginkgo's failure message.
	Message string `json:"message"`
	// Location is file:line of the failure.
	Location string `json:"location,omitempty"`
}

// SuiteFailures lists the failed suite-level nodes and the special failure
// reasons Ginkgo gives for a whole suite (--fail-on-pending, ...), but not
// an interruption (see Interruption): a run stopped by a signal or its
// time limit did not break. Ginkgo reports a SynchronizedBeforeSuite
// failure once per process; the repeats that only say "failed on process
// #1" are dropped.
func SuiteFailures(reports []types.Report) []SuiteFailure {
	var out []SuiteFailure
	seen := map[string]bool{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if !s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes) || !s.Failed() || StoppedInFlight(s) {
				continue
			}
			msg := strings.TrimSpace(s.Failure.Message)
			if s.Failure.ForwardedPanic != "" {
				msg = strings.TrimSpace(msg + "\npanic: " + s.Failure.ForwardedPanic)
			}
			if s.ParallelProcess > 1 && strings.Contains(msg, "failed on Ginkgo parallel process #1") {
				continue // a consequence of the failure on process 1, reported there
			}
			f := SuiteFailure{Node: s.LeafNodeType.String(), Message: msg, Location: Location(s.Failure.Location)}
			if key := f.Node + "\x00" + f.Message; !seen[key] {
				seen[key] = true
				out = append(out, f)
			}
		}
		for _, reason := range r.SpecialSuiteFailureReasons {
			if !seen[reason] && !slices.Contains(interruptions, reason) {
				seen[reason] = true
				out = append(out, SuiteFailure{Node: "suite", Message: reason})
			}
		}
	}
	return out
}

// The special failure reasons Ginkgo gives a suite that was stopped before
// its end: a signal (to this process, or to another, which then aborts the
// rest) or its --timeout.
const (
	InterruptedByUser         = "Interrupted by User"
	InterruptedByOtherProcess = "Interrupted by Other Ginkgo Process"
	SuiteTimeoutElapsed       = "Suite Timeout Elapsed"
)

var interruptions = []string{InterruptedByUser, InterruptedByOtherProcess, SuiteTimeoutElapsed}

// Interruption returns why Ginkgo stopped the run before its end, as it
// says it (InterruptedByUser, SuiteTimeoutElapsed, ...), or "" when the
// run was not interrupted. A signal wins over the other process's echo of
// it.
func Interruption(reports []types.Report) string {
	found := ""
	for _, r := range reports {
		for _, reason := range r.SpecialSuiteFailureReasons {
			if i := slices.Index(interruptions, reason); i >= 0 && (found == "" || i < slices.Index(interruptions, found)) {
				found = reason
			}
		}
	}
	return found
}

// StoppedInFlight reports whether a spec (or suite node) was running when
// the run was interrupted or reached Ginkgo's suite timeout, and ended for
// that reason rather than for a failure of its own.
func StoppedInFlight(s types.SpecReport) bool {
	switch s.State {
	case types.SpecStateInterrupted:
		return true
	case types.SpecStateTimedout:
		return strings.HasPrefix(s.Failure.Message, "A suite timeout occurred")
	}
	return false
}

// Selector returns whether the run's filters (the label filter, focus and
// skip expressions of r's suite config) select a spec of r, as Ginkgo
// decides before the run: a skipped spec without a message that they
// select was never reached, rather than filtered out. Pending specs are not
// selected. A suite with programmatic focus (FIt) cannot be judged from its
// report: no spec counts as selected. (Ginkgo's file and version filters,
// which conform does not pass, are not judged.)
func Selector(r types.Report) func(types.SpecReport) bool {
	c := r.SuiteConfig
	none := func(types.SpecReport) bool { return false }
	if r.SuiteHasProgrammaticFocus {
		return none
	}
	labels := func([]string) bool { return true }
	if c.LabelFilter != "" {
		f, err := types.ParseLabelFilter(c.LabelFilter)
		if err != nil {
			return none
		}
		labels = func(l []string) bool { return f(l) }
	}
	var focus, skip *regexp.Regexp
	var err error
	if len(c.FocusStrings) > 0 {
		if focus, err = regexp.Compile(strings.Join(c.FocusStrings, "|")); err != nil {
			return none
		}
	}
	if len(c.SkipStrings) > 0 {
		if skip, err = regexp.Compile(strings.Join(c.SkipStrings, "|")); err != nil {
			return none
		}
	}
	return func(s types.SpecReport) bool {
		if s.State == types.SpecStatePending || !labels(append(slices.Clone(r.SuiteLabels), s.Labels()...)) {
			return false
		}
		text := r.SuiteDescription + " " + s.FullText()
		return (focus == nil || focus.MatchString(text)) && (skip == nil || !skip.MatchString(text))
	}
}

// Location renders a code location as file:line, or "" when unknown.
func Location(l types.CodeLocation) string {
	if l.FileName == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", l.FileName, l.LineNumber)
}

// EntryText returns the text of the report entries of a spec named name,
// joined by newlines. Ginkgo keeps a rendered Representation of every value
// (String() for Stringers, the string itself for strings), which is what a
// reader wants; the JSON encoding is the fallback for values without one.
func EntryText(s types.SpecReport, name string) string {
	var parts []string
	for _, e := range s.ReportEntries {
		if e.Name != name {
			continue
		}
		text := e.Value.Representation
		if text == "" {
			if raw, ok := e.GetRawValue().(string); ok {
				text = raw
			} else if e.Value.AsJSON != "null" {
				text = e.Value.AsJSON
			}
		}
		if text = strings.TrimRight(text, "\n"); text != "" {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, "\n")
}

// FirstLine returns the first non-blank line of s, trimmed.
func FirstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}
