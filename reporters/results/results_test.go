package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

func testCatalogue(t *testing.T) *rules.Catalogue {
	t.Helper()
	r := func(id string, st rules.Status, reason, pending string) rules.Rule {
		return rules.Rule{ID: id, Area: "spot", Section: "Sec " + id, Statement: "Statement of " + id, Status: st, Reason: reason, Pending: pending}
	}
	c, err := rules.New([]rules.Rule{
		r("V3-A", rules.Testable, "", ""),
		r("V3-B", rules.Testable, "", ""),
		r("V3-C", rules.Ambiguous, "the spec is silent", ""),
		r("V3-D", rules.Testable, "", ""),
		r("V3-E", rules.Testable, "", "waits for spot trading"),
		r("V3-F", rules.OutOfScope, "not shown", ""),
		r("V3-G", rules.Testable, "", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func spec(text string, state types.SpecState, labels ...string) types.SpecReport {
	return types.SpecReport{
		ContainerHierarchyTexts:  []string{"", "area"},
		ContainerHierarchyLabels: [][]string{nil, nil},
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeText:             text,
		LeafNodeLabels:           labels,
		LeafNodeLocation:         types.CodeLocation{FileName: "/s/area.go", LineNumber: 10},
		State:                    state,
		RunTime:                  1500 * time.Microsecond,
	}
}

func entry(name, value string) types.ReportEntry {
	return types.ReportEntry{Name: name, Value: types.WrapEntryValue(value)}
}

// fixture is a run as the suites produce it, passed through JSON like the
// real report so that report entries arrive in their decoded form.
func fixture(t *testing.T) []types.Report {
	t.Helper()
	failed := spec("rejects a 7-character id", types.SpecStateFailed, "rule:V3-B")
	failed.Failure = types.Failure{Message: "Expected\n    <int>: 200\nto equal\n    <int>: 400", Location: types.CodeLocation{FileName: "/s/area.go", LineNumber: 42}}
	failed.ReportEntries = types.ReportEntries{entry("exchanges", "#1 POST /api/3/spot/order\n  -> 200 {}\n")}

	info := spec("answers an unknown currency filter", types.SpecStatePassed, "rule:V3-C", "informational")
	info.ReportEntries = types.ReportEntries{entry("informational", "unknown codes ignored, HTTP 200")}

	skipped := spec("needs the control plane", types.SpecStateSkipped, "rule:V3-D", "emulator-only")
	skipped.Failure = types.Failure{Message: "needs the emulator control plane"}

	panicked := spec("walks the list", types.SpecStatePanicked, "rule:V3-G")
	panicked.Failure = types.Failure{Message: "Test Panicked", ForwardedPanic: "nil map"}

	before := types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rep := types.Report{
		SuiteDescription: "conform", SuiteSucceeded: false,
		StartTime: start, EndTime: start.Add(2 * time.Second), RunTime: 2 * time.Second,
		SpecReports: types.SpecReports{
			before,
			spec("serves /api/3", types.SpecStatePassed, "rule:V3-A"),
			failed,
			spec("accepts an 8-character id", types.SpecStatePassed, "rule:V3-B"),
			info,
			skipped,
			spec("later", types.SpecStatePending, "rule:V3-D"),
			spec("says hello", types.SpecStatePassed),
			spec("checks a ghost", types.SpecStatePassed, "rule:V3-GHOST"),
			panicked,
		},
	}
	b, err := json.Marshal([]types.Report{rep})
	if err != nil {
		t.Fatal(err)
	}
	reports, err := ginkgojson.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return reports
}

func TestBuildSpecs(t *testing.T) {
	res := Build(fixture(t), testCatalogue(t))
	if len(res.Specs) != 9 {
		t.Fatalf("want 9 specs (suite nodes left out), got %d", len(res.Specs))
	}
	byText := map[string]Spec{}
	for _, s := range res.Specs {
		byText[s.Text] = s
	}
	cases := []struct {
		text    string
		outcome Outcome
		rules   int
	}{
		{"serves /api/3", Passed, 1},
		{"rejects a 7-character id", Failed, 1},
		{"answers an unknown currency filter", Informational, 1},
		{"needs the control plane", Skipped, 1},
		{"later", Pending, 1},
		{"says hello", Passed, 0},
		{"walks the list", Failed, 1},
	}
	for _, c := range cases {
		s, ok := byText[c.text]
		if !ok {
			t.Errorf("%q missing", c.text)
			continue
		}
		if s.Outcome != c.outcome || len(s.Rules) != c.rules {
			t.Errorf("%q: outcome %s with %d rules, want %s with %d", c.text, s.Outcome, len(s.Rules), c.outcome, c.rules)
		}
	}
	f := byText["rejects a 7-character id"]
	if f.Failure == nil || f.Failure.Location != "/s/area.go:42" || !strings.Contains(f.Failure.Exchanges, "POST /api/3/spot/order") {
		t.Errorf("failure: %+v", f.Failure)
	}
	if f.FullText() != "area rejects a 7-character id" || len(f.Containers) != 1 || f.DurationMS != 1 {
		t.Errorf("text %q containers %v duration %d", f.FullText(), f.Containers, f.DurationMS)
	}
	if p := byText["walks the list"].Failure; p.State != "panicked" || !strings.Contains(p.Message, "nil map") {
		t.Errorf("panic: %+v", p)
	}
	if o := byText["answers an unknown currency filter"].Observation; o != "unknown codes ignored, HTTP 200" {
		t.Errorf("observation %q", o)
	}
	if r := byText["needs the control plane"].SkipReason; r != "needs the emulator control plane" {
		t.Errorf("skip reason %q", r)
	}
}

func TestBuildRules(t *testing.T) {
	res := Build(fixture(t), testCatalogue(t))
	want := []struct {
		id      string
		status  string
		verdict Verdict
		specs   int
	}{
		{"V3-A", "testable", VerdictPassed, 1},
		{"V3-B", "testable", VerdictFailed, 2},
		{"V3-C", "ambiguous", VerdictInformational, 1},
		{"V3-D", "testable", VerdictSkipped, 2},
		{"V3-E", "pending", VerdictNotCovered, 0},
		{"V3-F", "out-of-scope", VerdictOutOfScope, 0},
		{"V3-G", "testable", VerdictFailed, 1},
		{"V3-GHOST", "unknown", VerdictPassed, 1},
	}
	if len(res.Rules) != len(want) {
		t.Fatalf("got %d rules, want %d", len(res.Rules), len(want))
	}
	for i, w := range want {
		got := res.Rules[i]
		if got.ID != w.id || got.Status != w.status || got.Verdict != w.verdict || len(got.Specs) != w.specs {
			t.Errorf("rule %d: got %s %s %s %d specs, want %+v", i, got.ID, got.Status, got.Verdict, len(got.Specs), w)
		}
	}
	if b := res.Rules[1]; len(b.Failures) != 1 || b.Failures[0] != "Expected" {
		t.Errorf("V3-B failures %q", b.Failures)
	}
	if e := res.Rules[4]; e.Reason != "waits for spot trading" {
		t.Errorf("pending reason %q", e.Reason)
	}
}

func TestBuildSummary(t *testing.T) {
	res := Build(fixture(t), testCatalogue(t))
	want := Summary{
		Specs: 9, SpecsRun: 7, Passed: 4, Failed: 2, Skipped: 1, Pending: 1, Informational: 1,
		RulesTestable: 5, RulesPending: 1, RulesCovered: 3, RulesFailed: 2,
		RulesAmbiguous: 1, RulesInformational: 1, RulesOutOfScope: 1, DurationMS: 2000,
	}
	if res.Summary != want {
		t.Errorf("summary\n got %+v\nwant %+v", res.Summary, want)
	}
	if res.Succeeded || res.Suite != "conform" || len(res.SuiteFailures) != 0 {
		t.Errorf("suite fields: %v %q %v", res.Succeeded, res.Suite, res.SuiteFailures)
	}
}

func TestSuiteFailuresAreReported(t *testing.T) {
	fail := func(proc int, msg string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed, ParallelProcess: proc,
			Failure: types.Failure{Message: msg}}
	}
	reps := []types.Report{{SpecReports: types.SpecReports{
		fail(1, "emulator failed to start: listen tcp: address in use"),
		fail(2, "SynchronizedBeforeSuite failed on Ginkgo parallel process #1\n  The first ..."),
	}, SpecialSuiteFailureReasons: []string{"Detected pending specs and --fail-on-pending is set"}}}
	got := Build(reps, testCatalogue(t)).SuiteFailures
	if len(got) != 2 || got[0].Node != "SynchronizedBeforeSuite" || !strings.HasPrefix(got[0].Message, "emulator failed") || got[1].Message != "Detected pending specs and --fail-on-pending is set" {
		t.Errorf("suite failures: %+v", got)
	}
}

// interruptedFixture is a run stopped by a signal as Ginkgo reports it:
// the spec in flight interrupted, the selected specs after it skipped
// without a message, like the ones the label filter left out.
func interruptedFixture(t *testing.T, reason string, inFlight types.SpecReport) []types.Report {
	t.Helper()
	skippedBy := spec("needs the control plane", types.SpecStateSkipped, "rule:V3-D")
	skippedBy.Failure = types.Failure{Message: "needs the emulator control plane"}
	failed := spec("rejects a 7-character id", types.SpecStateFailed, "rule:V3-G")
	failed.Failure = types.Failure{Message: "Expected 400"}
	rep := types.Report{
		SuiteDescription: "conform", SuiteConfig: types.SuiteConfig{LabelFilter: "!slow"},
		SpecialSuiteFailureReasons: []string{reason},
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeSynchronizedAfterSuite, State: types.SpecStatePassed},
			spec("serves /api/3", types.SpecStatePassed, "rule:V3-A"),
			inFlight,
			spec("accepts an 8-character id", types.SpecStatePassed, "rule:V3-B"),
			spec("never reached", types.SpecStateSkipped, "rule:V3-D"),
			skippedBy,
			spec("filtered out", types.SpecStateSkipped, "rule:V3-A", "slow"),
			failed,
		},
	}
	b, err := json.Marshal([]types.Report{rep})
	if err != nil {
		t.Fatal(err)
	}
	reports, err := ginkgojson.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return reports
}

// An interrupted run is incomplete, not broken: the spec in flight is
// interrupted (its rule not failed), the selected specs never reached are
// not run (not "not selected"), a real failure before the stop stays one,
// and the interruption says when and why.
func TestInterruptedRun(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	byUser := spec("refuses a replay", types.SpecStateInterrupted, "rule:V3-B")
	byUser.Failure = types.Failure{Message: "Interrupted by User", TimelineLocation: types.TimelineLocation{Time: at}}
	byTimeout := spec("refuses a replay", types.SpecStateTimedout, "rule:V3-B")
	byTimeout.Failure = types.Failure{Message: "A suite timeout occurred", TimelineLocation: types.TimelineLocation{Time: at}}
	stop := &Interruption{Cause: CauseTimeLimit, At: at.Add(time.Second), Reason: "the time limit of 1m0s was reached"}
	for _, tc := range []struct {
		name     string
		reason   string
		inFlight types.SpecReport
		stop     *Interruption
		cause    string
		at       time.Time
	}{
		{"a signal, as Ginkgo records it", ginkgojson.InterruptedByUser, byUser, nil, ginkgojson.InterruptedByUser, at},
		{"Ginkgo's suite timeout", ginkgojson.SuiteTimeoutElapsed, byTimeout, nil, ginkgojson.SuiteTimeoutElapsed, at},
		{"conform's time limit", ginkgojson.InterruptedByUser, byUser, stop, CauseTimeLimit, stop.At},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := BuildStopped(interruptedFixture(t, tc.reason, tc.inFlight), testCatalogue(t), tc.stop)
			if len(res.SuiteFailures) != 0 {
				t.Errorf("an interruption is not a suite failure: %+v", res.SuiteFailures)
			}
			i := res.Interrupted
			if i == nil || i.Status != "INTERRUPTED" || i.Cause != tc.cause || !i.At.Equal(tc.at) {
				t.Fatalf("interruption %+v, want cause %q at %s", i, tc.cause, tc.at)
			}
			outcomes := map[string]Outcome{}
			for _, s := range res.Specs {
				outcomes[s.Text] = s.Outcome
			}
			for text, want := range map[string]Outcome{
				"serves /api/3": Passed, "refuses a replay": Interrupted, "never reached": NotRun,
				"needs the control plane": Skipped, "filtered out": Skipped, "rejects a 7-character id": Failed,
			} {
				if outcomes[text] != want {
					t.Errorf("%q: %s, want %s", text, outcomes[text], want)
				}
			}
			verdicts := map[string]Verdict{}
			for _, rr := range res.Rules {
				verdicts[rr.ID] = rr.Verdict
			}
			for id, want := range map[string]Verdict{"V3-A": VerdictPassed, "V3-B": VerdictInterrupted, "V3-D": VerdictInterrupted, "V3-G": VerdictFailed} {
				if verdicts[id] != want {
					t.Errorf("%s: %s, want %s", id, verdicts[id], want)
				}
			}
			s := res.Summary
			if s.Failed != 1 || s.Interrupted != 1 || s.NotRun != 1 || s.RulesInterrupted != 2 || s.RulesFailed != 1 {
				t.Errorf("summary %+v", s)
			}
			var out bytes.Buffer
			if err := PrintSummary(&out, res); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"1 interrupted, 1 not run in", "INTERRUPTED at ", "(" + tc.cause + ")", "specs stopped in flight 1, never started 1 (neither is a failure); rules not judged 2", " interrupted passed"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("console lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), "SUITE FAILURES") {
				t.Errorf("console lists the interruption as a suite failure:\n%s", out.String())
			}
		})
	}
}

// A run that was not interrupted keeps a skipped spec without a message as
// filtered out, whatever the filter.
func TestUninterruptedSkipIsNotSelected(t *testing.T) {
	reps := interruptedFixture(t, "Detected pending specs and --fail-on-pending is set", spec("refuses a replay", types.SpecStatePassed, "rule:V3-B"))
	res := Build(reps, testCatalogue(t))
	if res.Interrupted != nil {
		t.Fatalf("not interrupted: %+v", res.Interrupted)
	}
	for _, s := range res.Specs {
		if s.Text == "never reached" && (s.Outcome != Skipped || SkipReasonOf(s) != NotSelected) {
			t.Errorf("%q: %s %q", s.Text, s.Outcome, SkipReasonOf(s))
		}
	}
	var out bytes.Buffer
	if err := PrintSummary(&out, res); err != nil || strings.Contains(out.String(), "INTERRUPTED") || strings.Contains(out.String(), "interrupted") {
		t.Errorf("console of a complete run:\n%s", out.String())
	}
}

func TestWriteAndPrint(t *testing.T) {
	res := Build(fixture(t), testCatalogue(t))
	path := filepath.Join(t.TempDir(), "results.json")
	if err := res.Write(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Results
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Summary != res.Summary || len(back.Rules) != len(res.Rules) {
		t.Error("results.json does not round-trip")
	}
	if !bytes.Contains(b, []byte(`"rules": []`)) {
		t.Error("a spec naming no rule should show an empty rules list")
	}

	var out bytes.Buffer
	if err := PrintSummary(&out, res); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"9 specs: 4 passed, 2 failed, 1 informational, 0 inconclusive, 1 skipped, 1 pending in 2s",
		"rules: 3/5 testable covered (2 failed, 1 pending), 1/1 ambiguous recorded, 1 out of scope",
		"FAILED (2 rules)",
		"  V3-B  Statement of V3-B\n      Expected\n",
		"  V3-G  Statement of V3-G\n      Test Panicked\n",
		"INFORMATIONAL (1 rule; recorded, never a failure): what the target did is in report.html and results.json\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	// The observations fold into that one line, and the verdict ends the
	// console: informational outcomes come before the counts and failures.
	if strings.Contains(text, "observed: unknown codes ignored") {
		t.Errorf("the observations belong in report.html and results.json, not on the console:\n%s", text)
	}
	if strings.Index(text, "INFORMATIONAL") > strings.Index(text, "9 specs:") || strings.Index(text, "9 specs:") > strings.Index(text, "FAILED") {
		t.Errorf("the summary should end with the verdict (counts, then failures) after the informational line:\n%s", text)
	}
}

func TestClip(t *testing.T) {
	if got := clip("abcdef", 4); got != "abc…" {
		t.Errorf("clip: %q", got)
	}
	if got := clip("abc", 4); got != "abc" {
		t.Errorf("clip: %q", got)
	}
}

func TestPrintSomeBoundsAndDedupes(t *testing.T) {
	var b bytes.Buffer
	printSome(&b, []string{"a\nmore", "a", "b", "c", "d", "e"}, "failed spec")
	want := "      a\n      b\n      c\n      … 2 more (6 failed specs in all; see results.json)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// A spec that skipped itself as inconclusive is its own outcome: not a
// failure, not a pass, not a plain skip, with its measured reason.
func TestInconclusiveIsItsOwnOutcome(t *testing.T) {
	inc := spec("window slides", types.SpecStateSkipped, "rule:V3-A")
	inc.Failure = types.Failure{Message: "inconclusive: the offer of 750 took 1.2s, more than the window"}
	inc.ReportEntries = types.ReportEntries{entry(InconclusiveEntry, "the offer of 750 took 1.2s, more than the window")}
	b, err := json.Marshal([]types.Report{{SuiteDescription: "conform", SuiteSucceeded: true, SpecReports: types.SpecReports{inc}}})
	if err != nil {
		t.Fatal(err)
	}
	reports, err := ginkgojson.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	res := Build(reports, testCatalogue(t))
	if got := res.Specs[0].Outcome; got != Inconclusive {
		t.Fatalf("outcome %s, want inconclusive", got)
	}
	s := res.Summary
	if s.Inconclusive != 1 || s.Failed != 0 || s.Skipped != 0 || s.Passed != 0 {
		t.Errorf("summary %+v", s)
	}
	for _, rr := range res.Rules {
		if rr.ID == "V3-A" && (rr.Verdict != VerdictInconclusive || len(rr.Inconclusive) != 1 || !strings.Contains(rr.Inconclusive[0], "took 1.2s")) {
			t.Errorf("rule %+v", rr)
		}
	}
	var out bytes.Buffer
	if err := PrintSummary(&out, res); err != nil || !strings.Contains(out.String(), "INCONCLUSIVE (1 rule") || !strings.Contains(out.String(), "1 inconclusive") {
		t.Errorf("console summary:\n%s", out.String())
	}
}

// The later specs of an Ordered container whose BeforeAll skipped say the
// reason its first spec gave, not only Ginkgo's note that it was skipped.
func TestBeforeAllSkipReasonReachesEverySpec(t *testing.T) {
	inContainer := func(line int, text, rule, msg string) types.SpecReport {
		s := spec(text, types.SpecStateSkipped, "rule:"+rule)
		s.ContainerHierarchyLocations = []types.CodeLocation{{FileName: "/s/limits.go", LineNumber: line}}
		s.Failure = types.Failure{Message: msg}
		return s
	}
	why := "limit scenarios need source addresses of their own"
	reports := []types.Report{{SuiteSucceeded: true, SpecReports: types.SpecReports{
		inContainer(5, "second", "V3-B", skippedInBeforeAll),
		inContainer(5, "first", "V3-A", why),
		inContainer(9, "elsewhere", "V3-D", skippedInBeforeAll), // no reason in its container: Ginkgo's note stays
	}}}
	res := Build(reports, testCatalogue(t))
	for _, rr := range res.Rules {
		want := map[string]string{"V3-A": why, "V3-B": why, "V3-D": skippedInBeforeAll}[rr.ID]
		if want != "" && (len(rr.SkipReasons) != 1 || rr.SkipReasons[0] != want) {
			t.Errorf("%s: skip reasons %q, want %q", rr.ID, rr.SkipReasons, want)
		}
	}
}
