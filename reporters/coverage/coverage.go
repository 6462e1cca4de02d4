// Package coverage computes which specs check which rules from a Ginkgo
// dry-run report (suites.test --ginkgo.dry-run --ginkgo.json-report=x.json
// lists every spec with its labels without running it) and finds the gaps:
// testable rules without a spec and specs that name no usable rule.
package coverage

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

// Kind classifies a coverage problem.
type Kind string

// Problem kinds.
const (
	// Uncovered: a testable rule that is not pending has no spec.
	Uncovered Kind = "uncovered-rule"
	// NoRule: a spec names no rule.
	NoRule Kind = "spec-without-rule"
	// UnknownRule: a spec names an ID the catalogue lacks.
	UnknownRule Kind = "unknown-rule"
	// OutOfScopeRule: a spec names an out-of-scope rule, which must never be asserted.
	OutOfScopeRule Kind = "out-of-scope-rule"
	// NoFault: a testable rule has no emulator fault, so nothing proves
	// that its specs can fail.
	NoFault Kind = "rule-without-fault"
	// SkippedOnly: every spec of a testable rule skipped in a full run
	// against the emulator, so nothing actually checks it there (a spec
	// that skips everywhere covers nothing).
	SkippedOnly Kind = "skipped-only-rule"
	// EmulatorOnlyUnexplained: every spec of a testable rule is labelled
	// emulator-only, yet its catalogue entry gives no EmulatorOnly reason.
	EmulatorOnlyUnexplained Kind = "emulator-only-without-reason"
)

// LabelEmulatorOnly is the label of specs that need the emulator's control
// plane (framework.LabelEmulatorOnly).
const LabelEmulatorOnly = "emulator-only"

// Problem is one gap between the catalogue and the suites.
type Problem struct {
	Kind Kind `json:"kind"`
	// Rule is the rule concerned, if any.
	Rule string `json:"rule,omitempty"`
	// Spec is the full text of the spec concerned, if any.
	Spec string `json:"spec,omitempty"`
	// Location is the spec's file:line, if any.
	Location string `json:"location,omitempty"`
}

// String renders the problem on one line.
func (p Problem) String() string {
	switch p.Kind {
	case Uncovered:
		return fmt.Sprintf("%s: testable rule without a spec", p.Rule)
	case NoRule:
		return fmt.Sprintf("spec %q (%s) names no rule", p.Spec, p.Location)
	case UnknownRule:
		return fmt.Sprintf("spec %q (%s) names %s, which is not in the rule catalogue", p.Spec, p.Location, p.Rule)
	case OutOfScopeRule:
		return fmt.Sprintf("spec %q (%s) names %s, which is out of scope", p.Spec, p.Location, p.Rule)
	case NoFault:
		return fmt.Sprintf("%s: testable rule without an emulator fault (emulator/faults)", p.Rule)
	case SkippedOnly:
		return fmt.Sprintf("%s: every spec skipped in the emulator run, so nothing checks it (%s)", p.Rule, p.Spec)
	case EmulatorOnlyUnexplained:
		return fmt.Sprintf("%s: every spec is labelled %s, yet the catalogue gives no EmulatorOnly reason (rules/)", p.Rule, LabelEmulatorOnly)
	}
	return fmt.Sprintf("%s: %s %s", p.Kind, p.Rule, p.Spec)
}

// Rule is a catalogue rule with the specs that check it.
type Rule struct {
	rules.Rule
	// Specs are the full texts of the specs labelled with the rule.
	Specs []string `json:"specs"`
	// Locations are the specs' file:line, relative to the repository root
	// where the file lies inside it, in the order of Specs.
	Locations []string `json:"locations"`
	// Fault says what the emulator's fault for the rule breaks ("" when the
	// rule has none).
	Fault string `json:"fault,omitempty"`
}

// Coverage is the join of a catalogue with the specs of a suite.
type Coverage struct {
	// Rules is the catalogue in declaration order.
	Rules []Rule `json:"rules"`
	// Specs is the number of specs in the suite.
	Specs int `json:"specs"`
	// Problems lists every gap, rules first then specs.
	Problems []Problem `json:"problems"`
}

// Compute joins the specs of a (dry-run) report with the catalogue and the
// emulator's faults (faults.Catalogue() for the real ones).
func Compute(reports []types.Report, cat *rules.Catalogue, fs []faults.Fault) *Coverage {
	cov := &Coverage{Problems: []Problem{}}
	specsOf, locsOf := map[string][]string{}, map[string][]string{}
	elsewhere := map[string]bool{} // rules with a spec not labelled emulator-only
	var specProblems []Problem
	for _, s := range ginkgojson.Specs(reports) {
		cov.Specs++
		text, loc := s.FullText(), relative(ginkgojson.Location(s.LeafNodeLocation))
		ids := rules.FromLabels(s.Labels())
		if len(ids) == 0 {
			specProblems = append(specProblems, Problem{Kind: NoRule, Spec: text, Location: loc})
		}
		for _, id := range ids {
			if !slices.Contains(s.Labels(), LabelEmulatorOnly) {
				elsewhere[id] = true
			}
			specsOf[id] = append(specsOf[id], text)
			locsOf[id] = append(locsOf[id], loc)
			r, ok := cat.Lookup(id)
			switch {
			case !ok:
				specProblems = append(specProblems, Problem{Kind: UnknownRule, Rule: id, Spec: text, Location: loc})
			case r.Status == rules.OutOfScope:
				specProblems = append(specProblems, Problem{Kind: OutOfScopeRule, Rule: id, Spec: text, Location: loc})
			}
		}
	}
	faultOf := map[string]string{}
	for _, f := range fs {
		faultOf[f.Rule] = f.Breaks
	}
	for _, r := range cat.All() {
		specs, locs := sortedSpecs(specsOf[r.ID], locsOf[r.ID])
		cov.Rules = append(cov.Rules, Rule{Rule: r, Specs: specs, Locations: locs, Fault: faultOf[r.ID]})
		if len(specs) == 0 && r.Status == rules.Testable && r.Pending == "" {
			cov.Problems = append(cov.Problems, Problem{Kind: Uncovered, Rule: r.ID})
		}
		if faultOf[r.ID] == "" && r.Status == rules.Testable && r.Pending == "" {
			cov.Problems = append(cov.Problems, Problem{Kind: NoFault, Rule: r.ID})
		}
		if len(specs) > 0 && !elsewhere[r.ID] && r.Status == rules.Testable && r.EmulatorOnly == "" {
			cov.Problems = append(cov.Problems, Problem{Kind: EmulatorOnlyUnexplained, Rule: r.ID})
		}
	}
	cov.Problems = append(cov.Problems, specProblems...)
	return cov
}

// sortedSpecs orders a rule's specs by file, then text, then line: a dry
// run lists them in Ginkgo's randomized order, and listings (rules.yaml
// above all) must not change from one run to the next.
func sortedSpecs(texts, locs []string) ([]string, []string) {
	type spec struct{ text, file, loc string }
	ss := make([]spec, len(texts))
	for i := range texts {
		f, _, _ := strings.Cut(locs[i], ":")
		ss[i] = spec{texts[i], f, locs[i]}
	}
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.text != b.text {
			return a.text < b.text
		}
		return a.loc < b.loc
	})
	outT, outL := make([]string, len(ss)), make([]string, len(ss))
	for i, s := range ss {
		outT[i], outL[i] = s.text, s.loc
	}
	return outT, outL
}

// repoDirs are the top folders of the repository that hold specs: a spec
// location is cut at the last of them.
var repoDirs = []string{"/suites/"}

// relative cuts a spec location down to its path inside the repository, so
// that listings and rules.yaml do not depend on where the clone lies.
func relative(loc string) string {
	loc = filepath.ToSlash(loc)
	for _, d := range repoDirs {
		if i := strings.LastIndex(loc, d); i >= 0 {
			return loc[i+1:]
		}
	}
	return loc
}

// Joined is the catalogue joined with its specs (their files, without
// lines) and faults, for rules.WriteYAML.
func (c *Coverage) Joined() []rules.Joined {
	out := make([]rules.Joined, len(c.Rules))
	for i, r := range c.Rules {
		out[i] = rules.Joined{Rule: r.Rule, Fault: r.Fault}
		for j, text := range r.Specs {
			file, _, _ := strings.Cut(r.Locations[j], ":")
			out[i].Specs = append(out[i].Specs, rules.SpecRef{File: file, Text: text})
		}
	}
	return out
}

// Rule returns the joined rule id.
func (c *Coverage) Rule(id string) (Rule, bool) {
	i := slices.IndexFunc(c.Rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return c.Rules[i], true
}

// SpecsFor returns the specs that check the rule id (nil when none or unknown).
func (c *Coverage) SpecsFor(id string) []string {
	i := slices.IndexFunc(c.Rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return nil
	}
	return c.Rules[i].Specs
}

// Totals counts the catalogue by status and how much of it has specs.
type Totals struct {
	Rules      int `json:"rules"`
	Testable   int `json:"testable"`
	Pending    int `json:"pending"`
	Covered    int `json:"testable_covered"`
	Ambiguous  int `json:"ambiguous"`
	AmbCovered int `json:"ambiguous_covered"`
	OutOfScope int `json:"out_of_scope"`
	Specs      int `json:"specs"`
}

// Totals counts rules by status; Testable includes the pending ones.
func (c *Coverage) Totals() Totals {
	t := Totals{Rules: len(c.Rules), Specs: c.Specs}
	for _, r := range c.Rules {
		switch r.Status {
		case rules.Testable:
			t.Testable++
			if r.Pending != "" {
				t.Pending++
			}
			if len(r.Specs) > 0 {
				t.Covered++
			}
		case rules.Ambiguous:
			t.Ambiguous++
			if len(r.Specs) > 0 {
				t.AmbCovered++
			}
		case rules.OutOfScope:
			t.OutOfScope++
		}
	}
	return t
}

// RunOutcome is what a full run against the emulator made of one rule: its
// verdict, and whether one of its skipped specs runs on request (a label
// such as slow, which the default run leaves out on purpose).
type RunOutcome struct {
	Verdict   string
	OnRequest bool
	Reason    string
}

// CheckRun adds a SkippedOnly problem for every testable, non-pending rule
// whose specs all skipped in the run (verdict "skipped") and none of which
// runs on request.
func (c *Coverage) CheckRun(run map[string]RunOutcome) {
	for _, r := range c.Rules {
		o, ok := run[r.ID]
		if !ok || r.Status != rules.Testable || r.Pending != "" || len(r.Specs) == 0 {
			continue
		}
		if o.Verdict == "skipped" && !o.OnRequest {
			c.Problems = append(c.Problems, Problem{Kind: SkippedOnly, Rule: r.ID, Spec: o.Reason})
		}
	}
}
