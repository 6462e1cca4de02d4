// Package ginkgojson reads the JSON report that Ginkgo writes with
// --json-report (a []types.Report) and picks out what conform's reporters
// need: the specs, the suite-level failures and the text of report entries.
package ginkgojson

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
// reasons Ginkgo gives for a whole suite (interrupted, timed out, ...).
// Ginkgo reports a SynchronizedBeforeSuite failure once per process; the
// repeats that only say "failed on process #1" are dropped.
func SuiteFailures(reports []types.Report) []SuiteFailure {
	var out []SuiteFailure
	seen := map[string]bool{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if !s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes) || !s.Failed() {
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
			if !seen[reason] {
				seen[reason] = true
				out = append(out, SuiteFailure{Node: "suite", Message: reason})
			}
		}
	}
	return out
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
