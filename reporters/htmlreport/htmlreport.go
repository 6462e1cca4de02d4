// Package htmlreport writes report.html: one self-contained file (inline
// style and script, no network) that a person can read or hand to an
// auditor. Per area and per section of the document, every catalogued rule
// with its outcome and why (skip and inconclusive reasons, what an
// informational spec observed), coverage bars per area, the redacted
// exchange transcript of each failed rule behind a click, a replay command,
// a filter box, and a link from each rule to its section of the document.
package htmlreport

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"
	"time"

	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/rules"
)

// Options shape the report.
type Options struct {
	// Title heads the report (default: "conform conformance report").
	Title string
	// Facts are name/value rows describing the target and the run (URLs,
	// versions, roles); never secrets.
	Facts [][2]string
	// SpecURL is the base of the links to the documents: a rule links to
	// SpecURL + "/" + document + "#" + anchor of its section. Empty: a
	// link relative to the report (the documents beside it).
	SpecURL string
	// Docs, when given, are the documents themselves: a rule then links to
	// its section's heading as anchored there and to the sentence it was
	// written from, which the report quotes.
	Docs *Documents
}

// Verdicts in the order the report shows them.
var verdictOrder = []results.Verdict{
	results.VerdictFailed, results.VerdictNotRun, results.VerdictNotApplicable, results.VerdictInterrupted, results.VerdictPassed, results.VerdictInformational,
	results.VerdictInconclusive, results.VerdictSkipped, results.VerdictNotCovered, results.VerdictOutOfScope,
}

// Spec outcomes in the order the report shows them.
var outcomeOrder = []results.Outcome{
	results.Failed, results.Interrupted, results.NotRun, results.Passed, results.Informational, results.Inconclusive, results.Skipped, results.Pending,
}

type count struct {
	Name string
	N    int
}

type bar struct {
	Verdict string
	N       int
	Pct     float64
}

type ruleView struct {
	results.RuleResult
	Link       string
	Document   string
	Transcript string
	// Sentence is the document's sentence the rule was written from, when
	// the documents were given and one matches.
	Sentence string
}

type sectionView struct {
	Name  string
	Link  string
	Rules []ruleView
}

type areaView struct {
	Name, Title, Document string
	Total, Testable       int
	Covered               int
	CoveredPct            float64
	Bars                  []bar
	Sections              []sectionView
}

type view struct {
	Title         string
	Facts         [][2]string
	Res           *results.Results
	Duration      string
	Verdict       string
	SpecCounts    []count
	RuleCounts    []count
	Skips         []results.ReasonCount
	Areas         []areaView
	Verdicts      []results.Verdict
	Certification bool
}

// Write renders the report of r to w.
func Write(w io.Writer, r *results.Results, o Options) error {
	if err := page.Execute(w, build(r, o)); err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	return nil
}

// WriteFile renders the report of r to path.
func WriteFile(path string, r *results.Results, o Options) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	if err := Write(f, r, o); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func build(r *results.Results, o Options) view {
	v := view{Title: cmp.Or(o.Title, "conform conformance report"), Facts: o.Facts, Res: r,
		Duration: (time.Duration(r.Summary.DurationMS) * time.Millisecond).Round(10 * time.Millisecond).String(),
		Skips:    r.SkipReasons(), Verdicts: verdictOrder, Certification: r.Certification}
	switch {
	case r.Interrupted != nil:
		// Incomplete whatever else it found: its failures are listed.
		v.Verdict = results.StatusInterrupted
	case len(r.SuiteFailures) > 0:
		v.Verdict = "BROKEN"
	case r.Failing():
		v.Verdict = "FAILED"
	default:
		v.Verdict = "PASSED"
	}
	sc := map[results.Outcome]int{}
	for _, s := range r.Specs {
		sc[s.Outcome]++
	}
	for _, oc := range outcomeOrder {
		if (oc == results.Interrupted || oc == results.NotRun) && r.Interrupted == nil {
			continue // only an interrupted run has them
		}
		v.SpecCounts = append(v.SpecCounts, count{string(oc), sc[oc]})
	}
	rc := map[results.Verdict]int{}
	for _, rr := range r.Rules {
		rc[rr.Verdict]++
	}
	for _, vd := range verdictOrder {
		if vd == results.VerdictNotRun && !r.Certification && rc[vd] == 0 {
			continue // only a certification has rules that could not run
		}
		if vd == results.VerdictInterrupted && r.Interrupted == nil {
			continue
		}
		if vd == results.VerdictNotApplicable && rc[vd] == 0 {
			continue // only a certification of a sandbox has them
		}
		v.RuleCounts = append(v.RuleCounts, count{string(vd), rc[vd]})
	}

	specsOf := map[string][]results.Spec{}
	for _, s := range r.Specs {
		for _, id := range s.Rules {
			specsOf[id] = append(specsOf[id], s)
		}
	}
	for _, a := range r.Areas() {
		av := areaView{Name: a.Name, Title: cmp.Or(a.Title, a.Name), Document: a.Document, Total: a.Total, Covered: a.Covered()}
		secIdx := map[string]int{}
		for _, rr := range r.Rules {
			if cmp.Or(rr.Area, "unknown") != a.Name {
				continue
			}
			if rr.Status == string(rules.Testable) || rr.Status == results.StatusPending {
				av.Testable++
			}
			rv := ruleView{RuleResult: rr, Document: a.Document, Link: docLink(o.SpecURL, a.Document, rr.Section)}
			secLink := rv.Link
			if anchor, sentence, ok := o.Docs.Locate(a.Document, rr.Section, rr.Statement); ok {
				secLink = joinLink(o.SpecURL, a.Document+"#"+anchor)
				rv.Link, rv.Sentence = secLink, sentence
				if sentence != "" {
					rv.Link += textFragment(sentence)
				}
			}
			if rr.Verdict == results.VerdictFailed || rr.Verdict == results.VerdictNotRun {
				rv.Transcript = transcript(rr, specsOf[rr.ID])
			}
			sec := cmp.Or(rr.Section, "(no section)")
			i, ok := secIdx[sec]
			if !ok {
				i, secIdx[sec] = len(av.Sections), len(av.Sections)
				av.Sections = append(av.Sections, sectionView{Name: sec, Link: secLink})
			}
			av.Sections[i].Rules = append(av.Sections[i].Rules, rv)
		}
		if av.Testable > 0 {
			av.CoveredPct = 100 * float64(av.Covered) / float64(av.Testable)
		}
		for _, vd := range verdictOrder {
			if n := a.Rules[vd]; n > 0 {
				av.Bars = append(av.Bars, bar{string(vd), n, 100 * float64(n) / float64(a.Total)})
			}
		}
		v.Areas = append(v.Areas, av)
	}
	return v
}

// transcript is what a reader needs to act on a failed rule: each failed
// spec, its message, where it failed and the recorded (redacted) exchange.
func transcript(rr results.RuleResult, specs []results.Spec) string {
	var b strings.Builder
	for _, s := range specs {
		if s.Outcome != results.Failed || s.Failure == nil {
			continue
		}
		fmt.Fprintf(&b, "● %s\n%s\n", s.FullText(), strings.TrimRight(s.Failure.Message, "\n"))
		if s.Failure.Location != "" {
			fmt.Fprintf(&b, "at %s\n", s.Failure.Location)
		}
		if s.Failure.Exchanges != "" {
			fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(s.Failure.Exchanges, "\n"))
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		for _, f := range rr.Failures {
			fmt.Fprintf(&b, "%s\n", f)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// docLink links a section of a document. Sections are written
// "v3 Heading: Subheading[, detail]"; the anchor is the innermost heading
// as a Markdown renderer (GitHub's) makes it.
func docLink(base, document, section string) string {
	if document == "" {
		return ""
	}
	heading := section
	if i := strings.LastIndex(heading, ": "); i >= 0 {
		heading = heading[i+2:]
	} else if f := strings.Fields(heading); len(f) > 1 && strings.HasPrefix(f[0], "v") {
		heading = strings.Join(f[1:], " ")
	}
	if i := strings.Index(heading, ", "); i >= 0 {
		heading = heading[:i]
	}
	return joinLink(base, document+"#"+Anchor(heading))
}

func joinLink(base, link string) string {
	if base == "" {
		// "./" keeps a text directive's colons (#a:~:text=) from reading
		// as a URL scheme.
		return "./" + link
	}
	return strings.TrimRight(base, "/") + "/" + link
}

// Anchor is the anchor GitHub gives a Markdown heading: lower case, spaces
// to hyphens, punctuation other than hyphens and underscores dropped.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func pct(f float64) string { return fmt.Sprintf("%.1f", f) }

var page = template.Must(template.New("report").Funcs(template.FuncMap{"pct": pct}).Parse(pageHTML))
