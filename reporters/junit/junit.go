// Package junit writes the JUnit XML of a conformance run the way CI systems
// (Jenkins, GitLab) read it: one testsuite per area, one testcase per
// catalogued rule (rule ID as name, area as classname), a failure for a
// failed rule (or one a certification could not run), a skipped element
// with its message for every other outcome that is not a pass
// (informational, ambiguous, inconclusive, skipped, not run, out of
// scope, interrupted), and never a testcase both disabled and skipped. An
// interrupted run says so in a property "interrupted" of every testsuite. The schema it
// keeps to is testdata/junit-10.xsd, Jenkins' JUnit schema.
package junit

import (
	"encoding/xml"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/results"
)

// TestSuites is the document element.
type TestSuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Suites   []TestSuite `xml:"testsuite"`
}

// TestSuite holds the rules of one area.
type TestSuite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Time       string      `xml:"time,attr"`
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Properties *Properties `xml:"properties,omitempty"`
	Cases      []TestCase  `xml:"testcase"`
}

// Properties are name/value pairs of a suite.
type Properties struct {
	Property []Property `xml:"property"`
}

// Property is one name/value pair.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// TestCase is one rule.
type TestCase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *Message `xml:"failure,omitempty"`
	Skipped   *Message `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Message is the body of a failure or skipped element.
type Message struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// Build turns a run's results into the JUnit document.
func Build(r *results.Results) *TestSuites {
	specsOf := map[string][]results.Spec{}
	for _, s := range r.Specs {
		for _, id := range s.Rules {
			specsOf[id] = append(specsOf[id], s)
		}
	}
	doc := &TestSuites{Name: cmpOr(r.Suite, "conform")}
	var totalMS int64
	for _, a := range r.Areas() {
		ts := TestSuite{Name: a.Name}
		if !r.StartTime.IsZero() {
			ts.Timestamp = r.StartTime.UTC().Format("2006-01-02T15:04:05")
		}
		var props []Property
		if a.Title != "" {
			props = append(props, Property{Name: "title", Value: a.Title}, Property{Name: "document", Value: a.Document})
		}
		if r.Interrupted != nil {
			props = append(props, Property{Name: "interrupted", Value: r.Interrupted.String()})
		}
		if len(props) > 0 {
			ts.Properties = &Properties{Property: props}
		}
		var suiteMS int64
		for _, rr := range r.Rules {
			if cmpOr(rr.Area, "unknown") != a.Name {
				continue
			}
			tc, ms := testCase(rr, specsOf[rr.ID], r.Interrupted)
			suiteMS += ms
			ts.Tests++
			switch {
			case tc.Failure != nil:
				ts.Failures++
			case tc.Skipped != nil:
				ts.Skipped++
			}
			ts.Cases = append(ts.Cases, tc)
		}
		ts.Time = seconds(suiteMS)
		totalMS += suiteMS
		doc.Tests += ts.Tests
		doc.Failures += ts.Failures
		doc.Suites = append(doc.Suites, ts)
	}
	doc.Time = seconds(totalMS)
	return doc
}

// testCase renders one rule and returns the time its specs took; stop is
// the run's interruption, if any.
func testCase(rr results.RuleResult, specs []results.Spec, stop *results.Interruption) (TestCase, int64) {
	tc := TestCase{Name: rr.ID, Classname: cmpOr(rr.Area, "unknown")}
	var ms int64
	var out strings.Builder
	fmt.Fprintf(&out, "%s\n%s\n", rr.ID, rr.Statement)
	if rr.Section != "" {
		fmt.Fprintf(&out, "section: %s\n", rr.Section)
	}
	for _, s := range specs {
		ms += s.DurationMS
		fmt.Fprintf(&out, "spec [%s]: %s\n", s.Outcome, s.FullText())
	}
	tc.Time = seconds(ms)
	tc.SystemOut = out.String()

	skip := func(kind, msg string) { tc.Skipped = &Message{Message: kind + ": " + msg} }
	switch rr.Verdict {
	case results.VerdictPassed:
	case results.VerdictFailed:
		tc.Failure = &Message{Type: "failed", Message: firstOr(rr.Failures, "failed"), Text: failureText(specs)}
	case results.VerdictNotRun:
		tc.Failure = &Message{Type: "not-run", Message: "cannot run: " + rr.NotRunReason()}
	case results.VerdictNotApplicable:
		skip("not applicable", rr.Reason)
	case results.VerdictInformational:
		skip("informational", "observed: "+firstOr(rr.Observations, "(nothing recorded)"))
		tc.Skipped.Text = strings.Join(rr.Observations, "\n")
	case results.VerdictInconclusive:
		skip("inconclusive", strings.Join(rr.Inconclusive, "; "))
	case results.VerdictOutOfScope:
		skip("out of scope", rr.Reason)
	case results.VerdictInterrupted:
		why := "not judged: the run was stopped before its specs ended"
		if stop != nil {
			why = fmt.Sprintf("not judged: the run was stopped (%s) at %s before its specs ended", stop.Cause, stop.At.UTC().Format(time.RFC3339))
		}
		skip("interrupted", why)
	case results.VerdictSkipped, results.VerdictNotCovered:
		if rr.Status == results.StatusPending {
			skip("pending", rr.Reason)
			break
		}
		skip("skipped", rr.NotRunReason())
	default:
		skip(string(rr.Verdict), cmpOr(rr.Reason, string(rr.Verdict)))
	}
	if rr.Status == "ambiguous" && tc.Skipped == nil && tc.Failure == nil {
		// An ambiguous rule never passes a target: it is recorded.
		skip("ambiguous", rr.Reason)
	}
	return tc, ms
}

// failureText is every failed spec's message with its redacted exchanges.
func failureText(specs []results.Spec) string {
	var b strings.Builder
	for _, s := range specs {
		if s.Outcome != results.Failed || s.Failure == nil {
			continue
		}
		fmt.Fprintf(&b, "%s\n%s\n", s.FullText(), s.Failure.Message)
		if s.Failure.Location != "" {
			fmt.Fprintf(&b, "at %s\n", s.Failure.Location)
		}
		if s.Failure.Exchanges != "" {
			fmt.Fprintf(&b, "%s\n", s.Failure.Exchanges)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Write stores the JUnit XML of the results at path.
func Write(path string, r *results.Results) error {
	b, err := xml.MarshalIndent(Build(r), "", "  ")
	if err != nil {
		return fmt.Errorf("encode junit: %w", err)
	}
	b = append([]byte(xml.Header), append(b, '\n')...)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	return nil
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

func firstOr(items []string, def string) string {
	if i := slices.IndexFunc(items, func(s string) bool { return s != "" }); i >= 0 {
		return ginkgojson.FirstLine(items[i])
	}
	return def
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
