// Package framework is what every conformance spec stands on: the rule
// wrapper that ties a spec to catalogue IDs, the target and its clients, the
// wire transcripts attached to failures, informational outcomes, and the
// domain matchers.
package framework

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/conform-harness/conform/rules"
	. "github.com/onsi/ginkgo/v2"
)

// Labels every suite understands besides rule:<ID>.
const (
	// LabelInformational marks specs of ambiguous rules: they record what the
	// target did and pass.
	LabelInformational = "informational"
	// LabelEmulatorOnly marks specs that need the emulator's control plane.
	LabelEmulatorOnly = "emulator-only"
	// LabelSlow marks specs that wait tens of seconds or load the target
	// for as long somewhere (suites/limits' ping): there they run on
	// request (OnRequest).
	LabelSlow = "slow"
)

// OnRequest skips the spec, saying what makes it slow, unless the run's
// label filter asks for it by name: by slow or by one of its rules, as
// --certify and conform mutate do. A filter that would select the spec
// without those labels (none, or '!limits') does not ask for it.
func OnRequest(slow string) {
	GinkgoHelper()
	filter := GinkgoLabelFilter()
	bare := slices.DeleteFunc(slices.Clone(CurrentSpecReport().Labels()), func(l string) bool {
		return l == LabelSlow || strings.HasPrefix(l, rules.LabelPrefix)
	})
	if filter == "" || Labels(bare).MatchesLabelFilter(filter) {
		Skip(fmt.Sprintf("slow on this target (%s): run with --label-filter=%s, with its rule's label, or --certify", slow, LabelSlow))
	}
}

// OnRequestByName skips the spec unless the run's label filter names rule
// itself (rule:<ID>): for a spec too costly on this target for even a
// certification, whose catalogue entry says why (rules.Rule.EmulatorOnly).
func OnRequestByName(rule string) {
	GinkgoHelper()
	if !strings.Contains(GinkgoLabelFilter(), rules.Label(rule)) {
		r, _ := rules.Default().Lookup(rule)
		Skip(fmt.Sprintf("emulator-only: %s", cmp.Or(r.EmulatorOnly, "run it with --label-filter "+rules.Label(rule))))
	}
}

// Checks returns the Ginkgo labels naming the rules a spec checks. An unknown
// or out-of-scope ID panics while the spec tree is built, so a typo fails the
// run at start-up instead of becoming a silent label.
func Checks(ids ...string) Labels {
	if len(ids) == 0 {
		panic("framework.Checks: a spec must name at least one rule")
	}
	if err := rules.Default().Check(ids...); err != nil {
		panic(fmt.Sprintf("framework.Checks: %v", err))
	}
	ls := Labels{}
	informational := false
	areas := map[string]bool{}
	for _, id := range ids {
		ls = append(ls, rules.Label(id))
		r, _ := rules.Default().Lookup(id)
		informational = informational || r.Status == rules.Ambiguous
		if !areas[r.Area] {
			areas[r.Area] = true
			ls = append(ls, rules.AreaLabelPrefix+r.Area) // --label-filter area:spot selects an area
		}
	}
	if informational {
		ls = append(ls, LabelInformational)
	}
	return ls
}

// Rule returns a catalogue rule, panicking on an unknown ID (start-up error).
func Rule(id string) rules.Rule {
	r, ok := rules.Default().Lookup(id)
	if !ok {
		panic(fmt.Sprintf("framework.Rule: unknown rule ID %q", id))
	}
	return r
}

// ConformanceIt declares a spec whose text is the rule's statement, prefixed
// by its ID, labelled with the rule (as Kubernetes' framework.ConformanceIt).
// Further decorators (Label(LabelEmulatorOnly), Serial, ...) may follow.
func ConformanceIt(id string, args ...any) bool {
	r := Rule(id)
	// Offset(1): the spec's location is the caller's line, not this wrapper's.
	return It(fmt.Sprintf("%s %s", r.ID, r.Statement), append([]any{Checks(id), Offset(1)}, args...)...)
}

// ConformanceContext groups the specs of one rule (for DescribeTable rows or
// several Its), with the rule's label on every spec inside.
func ConformanceContext(id string, args ...any) bool {
	r := Rule(id)
	return Context(fmt.Sprintf("%s %s", r.ID, r.Statement), append([]any{Checks(id), Offset(1)}, args...)...)
}

// Observe records what the target did for an ambiguous rule. The spec passes;
// reports list the observation apart, as Autobahn's INFORMATIONAL.
func Observe(id string, format string, args ...any) {
	r := Rule(id)
	if r.Status != rules.Ambiguous {
		RedactedFail(fmt.Sprintf("framework.Observe: %s is %s, not ambiguous; assert it instead", id, r.Status))
	}
	msg := fmt.Sprintf(format, args...)
	// In every report; on the console only with its spec's failure or -v:
	// a run's many observations would bury its verdict (issue 26).
	reportEntry(LabelInformational, fmt.Sprintf("%s: %s", id, msg), ReportEntryVisibilityFailureOrVerbose)
}

// EntryRecorded names the report entries Record adds.
const EntryRecorded = "recorded"

// Record notes what the target answered where the spec leaves a detail of a
// testable rule open (a refusal whose code it does not give). The spec still
// asserts what the rule makes certain; the note only tells readers of the
// report which code this target chose, so every report has it whatever the
// outcome (the console only with a failure or -v, as Observe's).
// An ambiguous rule has nothing certain to assert: use Observe.
func Record(id string, format string, args ...any) {
	r := Rule(id)
	if r.Status != rules.Testable {
		RedactedFail(fmt.Sprintf("framework.Record: %s is %s, not testable; use Observe for an ambiguous rule", id, r.Status))
	}
	msg := fmt.Sprintf(format, args...)
	reportEntry(EntryRecorded, fmt.Sprintf("%s: %s", id, msg), ReportEntryVisibilityFailureOrVerbose)
}
