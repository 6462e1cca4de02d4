package results

import (
	"fmt"
	"slices"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

// Build joins the reports of a run with a rule catalogue.
func Build(reports []types.Report, cat *rules.Catalogue) *Results {
	return BuildStopped(reports, cat, nil)
}

// BuildStopped is Build for a run that conform stopped before its end
// (stop: when and why; nil when it did not). An interruption that only the
// reports record (a signal sent to the suite itself, Ginkgo's own suite
// timeout) is found without it. In an interrupted run a spec stopped in
// flight is Interrupted, not Failed, and a selected spec that never started
// is NotRun, not skipped as filtered out.
func BuildStopped(reports []types.Report, cat *rules.Catalogue, stop *Interruption) *Results {
	res := &Results{Succeeded: true, SuiteFailures: ginkgojson.SuiteFailures(reports)}
	res.Interrupted = interruption(reports, stop)
	for i, r := range reports {
		if i == 0 {
			res.Suite, res.StartTime, res.EndTime = r.SuiteDescription, r.StartTime, r.EndTime
		}
		res.Succeeded = res.Succeeded && r.SuiteSucceeded
		if r.StartTime.Before(res.StartTime) {
			res.StartTime = r.StartTime
		}
		if r.EndTime.After(res.EndTime) {
			res.EndTime = r.EndTime
		}
		res.Summary.DurationMS += r.RunTime.Milliseconds()
	}

	byRule := map[string][]int{} // rule ID -> indexes into res.Specs
	firstSkips := beforeAllSkips(ginkgojson.Specs(reports))
	for _, r := range reports {
		selected := ginkgojson.Selector(r)
		for _, sr := range ginkgojson.Specs([]types.Report{r}) {
			s := specFrom(sr)
			if s.SkipReason == skippedInBeforeAll {
				if why, ok := firstSkips[topContainer(sr)]; ok {
					s.SkipReason = why
				}
			}
			if res.Interrupted != nil {
				s.interrupted(sr, selected(sr), res.Interrupted)
			}
			for _, id := range s.Rules {
				byRule[id] = append(byRule[id], len(res.Specs))
			}
			res.Specs = append(res.Specs, s)
			res.Summary.count(s.Outcome)
		}
	}

	for _, r := range cat.All() {
		rr := RuleResult{ID: r.ID, Area: r.Area, Section: r.Section, Statement: r.Statement, Status: string(r.Status), Reason: r.Reason}
		if r.Pending != "" {
			rr.Status, rr.Reason = StatusPending, r.Pending
		}
		rr.fill(res.Specs, byRule[r.ID])
		if r.Status == rules.OutOfScope {
			rr.Verdict = VerdictOutOfScope
		}
		res.Rules = append(res.Rules, rr)
		delete(byRule, r.ID)
	}
	// Rules the catalogue lacks: the suite's start-up check should make this
	// impossible, so they are listed rather than silently dropped.
	var unknown []string
	for id := range byRule {
		unknown = append(unknown, id)
	}
	slices.Sort(unknown)
	for _, id := range unknown {
		rr := RuleResult{ID: id, Status: StatusUnknown, Reason: "not in the rule catalogue"}
		rr.fill(res.Specs, byRule[id])
		res.Rules = append(res.Rules, rr)
	}
	res.Summary.countRules(res.Rules)
	return res
}

// interruption is stop, or the interruption Ginkgo recorded (at the
// moment the first spec was stopped, else the end of the run), or nil.
func interruption(reports []types.Report, stop *Interruption) *Interruption {
	if stop != nil {
		i := *stop
		i.Status = StatusInterrupted
		return &i
	}
	reason := ginkgojson.Interruption(reports)
	if reason == "" {
		return nil
	}
	i := &Interruption{Status: StatusInterrupted, Cause: reason}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if at := s.Failure.TimelineLocation.Time; ginkgojson.StoppedInFlight(s) && !at.IsZero() && (i.At.IsZero() || at.Before(i.At)) {
				i.At = at
			}
		}
	}
	if i.At.IsZero() {
		for _, r := range reports {
			if r.EndTime.After(i.At) {
				i.At = r.EndTime
			}
		}
	}
	return i
}

// interrupted corrects the outcome of a spec of an interrupted run: one
// that ended because the run was stopped is Interrupted, and one that the
// filters selected but that was skipped without a reason never started.
func (s *Spec) interrupted(sr types.SpecReport, selected bool, i *Interruption) {
	switch {
	case ginkgojson.StoppedInFlight(sr):
		s.Outcome, s.Failure = Interrupted, nil
		s.SkipReason = fmt.Sprintf("the run was stopped (%s) while this spec ran", i.Cause)
	case s.Outcome == Skipped && s.SkipReason == "" && selected:
		s.Outcome = NotRun
		s.SkipReason = fmt.Sprintf("the run was stopped (%s) before this spec started", i.Cause)
	}
}

// skippedInBeforeAll is what Ginkgo says of the later specs of an Ordered
// container whose BeforeAll called Skip; only the first spec carries the
// reason given.
const skippedInBeforeAll = "Spec skipped because Skip() was called in BeforeAll"

// topContainer keys a spec by its outermost container.
func topContainer(sr types.SpecReport) string {
	if len(sr.ContainerHierarchyLocations) == 0 {
		return ""
	}
	return sr.ContainerHierarchyLocations[0].String()
}

// beforeAllSkips maps each outermost container holding a spec skipped in
// BeforeAll to the reason its first spec gave, so that every spec of the
// container says why, not only that it was skipped.
func beforeAllSkips(srs []types.SpecReport) map[string]string {
	generic := map[string]bool{}
	for _, sr := range srs {
		if sr.State == types.SpecStateSkipped && sr.Failure.Message == skippedInBeforeAll {
			generic[topContainer(sr)] = true
		}
	}
	out := map[string]string{}
	for _, sr := range srs {
		key := topContainer(sr)
		if msg := sr.Failure.Message; generic[key] && key != "" && sr.State == types.SpecStateSkipped && msg != "" && msg != skippedInBeforeAll {
			if _, seen := out[key]; !seen {
				out[key] = msg
			}
		}
	}
	return out
}

func specFrom(sr types.SpecReport) Spec {
	labels := sr.Labels()
	s := Spec{
		Text:       sr.LeafNodeText,
		Containers: slices.DeleteFunc(slices.Clone(sr.ContainerHierarchyTexts), func(t string) bool { return t == "" }),
		Rules:      rules.FromLabels(labels),
		Labels:     labels,
		Location:   ginkgojson.Location(sr.LeafNodeLocation),
		DurationMS: sr.RunTime.Milliseconds(),
	}
	if s.Rules == nil {
		s.Rules = []string{} // an empty list in JSON says "names no rule" plainly
	}
	switch {
	case sr.Failed():
		s.Outcome = Failed
		f := &Failure{
			Message:   sr.Failure.Message,
			Location:  ginkgojson.Location(sr.Failure.Location),
			Exchanges: ginkgojson.EntryText(sr, ExchangesEntry),
		}
		if sr.Failure.ForwardedPanic != "" {
			f.Message += "\npanic: " + sr.Failure.ForwardedPanic
		}
		if sr.State != types.SpecStateFailed {
			f.State = sr.State.String()
		}
		s.Failure = f
	case sr.State == types.SpecStatePassed && slices.Contains(labels, InformationalLabel):
		s.Outcome = Informational
	case sr.State == types.SpecStatePassed:
		s.Outcome = Passed
	case sr.State == types.SpecStatePending:
		s.Outcome = Pending
	case ginkgojson.EntryText(sr, InconclusiveEntry) != "":
		s.Outcome = Inconclusive
		s.SkipReason = ginkgojson.EntryText(sr, InconclusiveEntry)
	default:
		s.Outcome = Skipped
		s.SkipReason = sr.Failure.Message
		if s.SkipReason == "" && !sr.State.Is(types.SpecStateSkipped) {
			s.SkipReason = sr.State.String()
		}
	}
	if s.Outcome != Skipped && s.Outcome != Pending {
		s.Observation = ginkgojson.EntryText(sr, ObservationEntry)
	}
	return s
}

// fill records the rule's specs and derives its verdict: a failure anywhere
// fails the rule; otherwise a pass outranks an informational record, which
// outranks specs that were all skipped.
func (rr *RuleResult) fill(specs []Spec, idx []int) {
	if len(idx) == 0 {
		rr.Verdict = VerdictNotCovered
		return
	}
	var failed, passed, informational, inconclusive, interrupted bool
	for _, i := range idx {
		s := specs[i]
		rr.Specs = append(rr.Specs, s.FullText())
		switch s.Outcome {
		case Failed:
			failed = true
			rr.Failures = append(rr.Failures, ginkgojson.FirstLine(s.Failure.Message))
		case Passed:
			passed = true
		case Informational:
			informational = true
		case Inconclusive:
			inconclusive = true
			rr.Inconclusive = append(rr.Inconclusive, s.SkipReason)
		case Interrupted, NotRun:
			interrupted = true
		case Skipped, Pending:
			if reason := SkipReasonOf(s); !slices.Contains(rr.SkipReasons, reason) {
				rr.SkipReasons = append(rr.SkipReasons, reason)
			}
		}
		if s.Observation != "" {
			rr.Observations = append(rr.Observations, s.Observation)
		}
	}
	switch {
	case failed:
		rr.Verdict = VerdictFailed
	case interrupted:
		// A pass of some specs is not a pass of the rule while others
		// never ended.
		rr.Verdict = VerdictInterrupted
	case passed:
		rr.Verdict = VerdictPassed
	case informational:
		rr.Verdict = VerdictInformational
	case inconclusive:
		rr.Verdict = VerdictInconclusive
	default:
		rr.Verdict = VerdictSkipped
	}
}

func (s *Summary) count(o Outcome) {
	s.Specs++
	switch o {
	case Passed:
		s.Passed++
	case Failed:
		s.Failed++
	case Skipped:
		s.Skipped++
	case Pending:
		s.Pending++
	case Informational:
		s.Informational++
	case Inconclusive:
		s.Inconclusive++
	case Interrupted:
		s.Interrupted++
	case NotRun:
		s.NotRun++
	}
	s.SpecsRun = s.Passed + s.Failed + s.Informational
}

func (s *Summary) countRules(rs []RuleResult) {
	for _, r := range rs {
		switch r.Status {
		case string(rules.Testable), StatusPending:
			s.RulesTestable++
			if r.Status == StatusPending {
				s.RulesPending++
			}
			if r.Verdict == VerdictPassed || r.Verdict == VerdictFailed {
				s.RulesCovered++
			}
		case string(rules.Ambiguous):
			s.RulesAmbiguous++
		case string(rules.OutOfScope):
			s.RulesOutOfScope++
		}
		switch r.Verdict {
		case VerdictFailed:
			s.RulesFailed++
		case VerdictInformational:
			s.RulesInformational++
		case VerdictInterrupted:
			s.RulesInterrupted++
		}
	}
}
