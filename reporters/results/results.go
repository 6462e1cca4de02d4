// Package results turns a Ginkgo JSON report of a conformance run into
// results.json: every spec with its rules and outcome, every catalogue rule
// with its verdict, and a summary. It also prints the summary for a person.
package results

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/conform-harness/conform/reporters/ginkgojson"
)

// Names the suites use for labels and report entries (the suite contract).
const (
	// InformationalLabel marks a spec that records what the target did for an
	// ambiguous rule instead of asserting it.
	InformationalLabel = "informational"
	// ObservationEntry is the report entry in which an informational spec
	// records what the target did.
	ObservationEntry = "informational"
	// InconclusiveEntry is the report entry, with its measured reason, of a
	// spec that skipped itself as inconclusive (framework.Inconclusive).
	InconclusiveEntry = "inconclusive"
	// ExchangesEntry is the report entry carrying a failed spec's HTTP
	// exchanges, credentials redacted.
	ExchangesEntry = "exchanges"
)

// Outcome is what became of one spec.
type Outcome string

// Spec outcomes.
const (
	Passed        Outcome = "passed"
	Failed        Outcome = "failed"
	Skipped       Outcome = "skipped"
	Pending       Outcome = "pending"
	Informational Outcome = "informational" // a passed spec labelled informational
	// Inconclusive: the spec could not tell (the harness missed its own
	// timing after its retries); neither a pass nor a rule failure.
	Inconclusive Outcome = "inconclusive"
	// Interrupted: the spec was running when the run was stopped (a signal,
	// the time limit, a stall); neither a pass nor a rule failure.
	Interrupted Outcome = "interrupted"
	// NotRun: the run's filters selected the spec, but the run was stopped
	// before it started.
	NotRun Outcome = "not-run"
)

// Verdict is what a run says about one rule.
type Verdict string

// Rule verdicts.
const (
	VerdictPassed        Verdict = "passed"
	VerdictFailed        Verdict = "failed"
	VerdictSkipped       Verdict = "skipped" // every spec skipped or pending
	VerdictInformational Verdict = "informational"
	VerdictInconclusive  Verdict = "inconclusive" // no pass or failure, some spec inconclusive
	VerdictNotCovered    Verdict = "not-covered"  // no spec in this run names it
	VerdictOutOfScope    Verdict = "out-of-scope"
	// VerdictInterrupted: the run was stopped before every spec of the rule
	// ended (some interrupted or not run) and none of them failed: the rule
	// was not judged, so it neither passes nor fails.
	VerdictInterrupted Verdict = "interrupted"
	// VerdictNotRun is a certification failure: a testable rule that applies
	// to the target but that the certifying run could not check (every spec
	// skipped or inconclusive, or none ran). Only Certify gives it.
	VerdictNotRun Verdict = "not-run"
	// VerdictNotApplicable is a testable rule a certification could not
	// judge on this kind of target for the reason its catalogue entry
	// declares (rules.Rule.EmulatorOnly on a target without the control
	// plane, SecondAddress from one source address): listed with that
	// reason, not a failure. Any other reason stays VerdictNotRun.
	VerdictNotApplicable Verdict = "not-applicable"
)

// StatusPending is the status shown for a testable rule that is waiting for
// work (rules.Rule.Pending); StatusUnknown for a rule a spec names that the
// catalogue lacks.
const (
	StatusPending = "pending"
	StatusUnknown = "unknown"
)

// Results is the content of results.json.
type Results struct {
	Suite         string                    `json:"suite"`
	Succeeded     bool                      `json:"suite_succeeded"`
	StartTime     time.Time                 `json:"start_time"`
	EndTime       time.Time                 `json:"end_time"`
	Summary       Summary                   `json:"summary"`
	SuiteFailures []ginkgojson.SuiteFailure `json:"suite_failures,omitempty"`
	Specs         []Spec                    `json:"specs"`
	Rules         []RuleResult              `json:"rules"`
	// Certification is set by Certify: the run was a certification, where
	// a rule that cannot run is a failure.
	Certification bool `json:"certification,omitempty"`
	// Interrupted is set when the run was stopped before its end: the run
	// is incomplete (its unjudged rules are VerdictInterrupted).
	Interrupted *Interruption `json:"interrupted,omitempty"`
}

// Causes of an interruption that conform gives (Ginkgo's own reasons,
// such as "Interrupted by User", stand when conform did not stop the run).
const (
	CauseSIGINT    = "SIGINT"
	CauseSIGTERM   = "SIGTERM"
	CauseTimeLimit = "time limit"
	CauseStalled   = "stalled"
)

// Interruption says when and why a run was stopped before its end.
type Interruption struct {
	// Status is always "INTERRUPTED", so that the file says it in words.
	Status string `json:"status"`
	// Cause is CauseSIGINT, CauseSIGTERM, CauseTimeLimit, CauseStalled, or
	// Ginkgo's reason when something else stopped it.
	Cause string    `json:"cause"`
	At    time.Time `json:"at"`
	// Reason is a sentence for a person: what stopped the run and, for a
	// stall, which specs were in flight.
	Reason string `json:"reason,omitempty"`
}

// StatusInterrupted is the Status of every Interruption.
const StatusInterrupted = "INTERRUPTED"

// String is the one-line account of the interruption.
func (i *Interruption) String() string {
	s := fmt.Sprintf("INTERRUPTED at %s (%s)", i.At.Format("2006-01-02 15:04:05 MST"), i.Cause)
	if i.Reason != "" {
		s += ": " + i.Reason
	}
	return s
}

// Spec is one spec of the run.
type Spec struct {
	Text       string   `json:"text"`
	Containers []string `json:"containers,omitempty"`
	Rules      []string `json:"rules"`
	Labels     []string `json:"labels,omitempty"`
	Location   string   `json:"location,omitempty"`
	Outcome    Outcome  `json:"outcome"`
	// SkipReason is the argument of Skip(), empty for specs filtered out.
	SkipReason string `json:"skip_reason,omitempty"`
	// Observation is what an informational spec recorded about the target.
	Observation string   `json:"observation,omitempty"`
	Failure     *Failure `json:"failure,omitempty"`
	DurationMS  int64    `json:"duration_ms"`
}

// FullText is the container texts and the spec text joined by spaces, as
// Ginkgo prints it.
func (s Spec) FullText() string {
	return joinNonEmpty(append(slices.Clone(s.Containers), s.Text), " ")
}

// Failure describes why a spec failed.
type Failure struct {
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
	// State is Ginkgo's state when it is more than a plain failure
	// (panicked, timedout, interrupted, aborted).
	State     string `json:"state,omitempty"`
	Exchanges string `json:"exchanges,omitempty"`
}

// RuleResult joins a catalogue rule with the specs of the run that name it.
type RuleResult struct {
	ID        string `json:"id"`
	Area      string `json:"area,omitempty"`
	Section   string `json:"section,omitempty"`
	Statement string `json:"statement,omitempty"`
	// Status is testable, pending, ambiguous, out-of-scope or unknown.
	Status  string  `json:"status"`
	Reason  string  `json:"reason,omitempty"`
	Verdict Verdict `json:"verdict"`
	// Specs are the full texts of the specs naming the rule.
	Specs []string `json:"specs,omitempty"`
	// Failures are the first lines of the failure messages of its failed specs.
	Failures []string `json:"failures,omitempty"`
	// Observations are what its informational specs recorded.
	Observations []string `json:"observations,omitempty"`
	// Inconclusive are the measured reasons of its inconclusive specs.
	Inconclusive []string `json:"inconclusive,omitempty"`
	// SkipReasons are the distinct reasons its skipped specs gave.
	SkipReasons []string `json:"skip_reasons,omitempty"`
	// Replay is a command line that runs just this rule again against the
	// same target with the same config (set for failed rules; no secrets).
	Replay string `json:"replay,omitempty"`
}

// Summary counts the run.
type Summary struct {
	Specs         int `json:"specs"`
	SpecsRun      int `json:"specs_run"`
	Passed        int `json:"passed"`
	Failed        int `json:"failed"`
	Skipped       int `json:"skipped"`
	Pending       int `json:"pending"`
	Informational int `json:"informational"`
	Inconclusive  int `json:"inconclusive"`
	// Interrupted and NotRun count the specs stopped in flight and never
	// started when the run was interrupted.
	Interrupted int `json:"interrupted,omitempty"`
	NotRun      int `json:"not_run,omitempty"`
	// RulesTestable counts testable rules, pending ones included.
	RulesTestable int `json:"rules_testable"`
	// RulesPending counts testable rules waiting for work.
	RulesPending int `json:"rules_pending"`
	// RulesCovered counts testable rules with a verdict of passed or failed.
	RulesCovered   int `json:"rules_covered"`
	RulesFailed    int `json:"rules_failed"`
	RulesAmbiguous int `json:"rules_ambiguous"`
	// RulesInformational counts rules with an informational verdict.
	RulesInformational int `json:"rules_informational"`
	RulesOutOfScope    int `json:"rules_out_of_scope"`
	// RulesNotRun counts the certification failures (Certify).
	RulesNotRun int `json:"rules_not_run,omitempty"`
	// RulesNotApplicable counts the testable rules a certification could
	// not judge here for a reason the catalogue declares (Certify).
	RulesNotApplicable int `json:"rules_not_applicable,omitempty"`
	// RulesInterrupted counts the rules an interrupted run did not judge.
	RulesInterrupted int   `json:"rules_interrupted,omitempty"`
	DurationMS       int64 `json:"duration_ms"`
}

// FailedRules returns the rules whose verdict is failed, in catalogue order.
func (r *Results) FailedRules() []RuleResult {
	return r.withVerdict(VerdictFailed)
}

// InformationalRules returns the rules whose verdict is informational.
func (r *Results) InformationalRules() []RuleResult {
	return r.withVerdict(VerdictInformational)
}

func (r *Results) withVerdict(v Verdict) []RuleResult {
	var out []RuleResult
	for _, rr := range r.Rules {
		if rr.Verdict == v {
			out = append(out, rr)
		}
	}
	return out
}

// Write stores the results as indented JSON at path.
func (r *Results) Write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

func joinNonEmpty(parts []string, sep string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += sep
		}
		out += p
	}
	return out
}
