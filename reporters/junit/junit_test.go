package junit

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/rules"
)

func run(t *testing.T) *results.Results {
	t.Helper()
	r := func(id, area string, st rules.Status, reason, pending string) rules.Rule {
		return rules.Rule{ID: id, Area: area, Section: "Sec " + id, Statement: "Statement of " + id, Status: st, Reason: reason, Pending: pending}
	}
	cat, err := rules.New([]rules.Rule{
		r("V3-PASS", "spot", rules.Testable, "", ""),
		r("V3-FAIL", "spot", rules.Testable, "", ""),
		r("V3-AMB", "auth", rules.Ambiguous, "the spec is silent", ""),
		r("V3-SKIP", "auth", rules.Testable, "", ""),
		r("V3-INC", "auth", rules.Testable, "", ""),
		r("V3-PEND", "spot", rules.Testable, "", "waits for an endpoint"),
		r("V3-OOS", "spot", rules.OutOfScope, "not shown", ""),
		r("V3-NONE", "auth", rules.Testable, "", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	it := func(text string, state types.SpecState, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels, State: state, RunTime: 1500 * time.Millisecond}
	}
	fail := it("rejects <bad> & \x1b[1mugly\x1b[0m input", types.SpecStateFailed, "rule:V3-FAIL")
	fail.Failure = types.Failure{Message: "expected: HTTP 400\nactual: HTTP 200"}
	fail.ReportEntries = types.ReportEntries{{Name: results.ExchangesEntry, Value: types.WrapEntryValue("#1 POST /api/3/spot/order\nAuthorization: HS256 <redacted>\n-> 200 {}")}}
	amb := it("records", types.SpecStatePassed, "rule:V3-AMB", results.InformationalLabel)
	amb.ReportEntries = types.ReportEntries{{Name: results.ObservationEntry, Value: types.WrapEntryValue("answered 200")}}
	skip := it("needs the control plane", types.SpecStateSkipped, "rule:V3-SKIP")
	skip.Failure.Message = "emulator-only on a foreign target"
	inc := it("limits", types.SpecStateSkipped, "rule:V3-INC")
	inc.ReportEntries = types.ReportEntries{{Name: results.InconclusiveEntry, Value: types.WrapEntryValue("offer took 1.4s")}}
	reps := []types.Report{{SuiteDescription: "conform", StartTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		SpecReports: types.SpecReports{it("serves", types.SpecStatePassed, "rule:V3-PASS"), fail, amb, skip, inc}}}
	return results.Build(reps, cat)
}

func decode(t *testing.T, path string) TestSuites {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc TestSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestJUnitOnePerRuleValidAgainstJenkinsSchema(t *testing.T) {
	s, err := loadSchema("testdata/junit-10.xsd")
	if err != nil {
		t.Fatal(err)
	}
	for _, certify := range []bool{false, true} {
		res := run(t)
		if certify {
			res.Certify(nil, results.CertifyTarget{})
		}
		path := filepath.Join(t.TempDir(), "junit.xml")
		if err := Write(path, res); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if errs := s.validate(b); len(errs) > 0 {
			t.Fatalf("certify=%v: not valid against junit-10.xsd:\n%s\n%s", certify, strings.Join(errs, "\n"), b)
		}
		doc := decode(t, path)
		got := map[string]TestCase{}
		for _, ts := range doc.Suites {
			for _, tc := range ts.Cases {
				if tc.Classname != ts.Name {
					t.Errorf("%s: classname %q in suite %q", tc.Name, tc.Classname, ts.Name)
				}
				if tc.Failure != nil && tc.Skipped != nil {
					t.Errorf("%s: both failed and skipped", tc.Name)
				}
				got[tc.Name] = tc
			}
		}
		if len(got) != len(res.Rules) || doc.Tests != len(res.Rules) {
			t.Fatalf("certify=%v: %d testcases (%d counted) for %d rules", certify, len(got), doc.Tests, len(res.Rules))
		}
		cases := []struct {
			id, kind, message string // kind: pass, failure, skipped
		}{
			{"V3-PASS", "pass", ""},
			{"V3-FAIL", "failure", "expected: HTTP 400"},
			{"V3-AMB", "skipped", "informational: observed: answered 200"},
			{"V3-SKIP", "skipped", "skipped: emulator-only on a foreign target"},
			{"V3-INC", "skipped", "inconclusive: offer took 1.4s"},
			{"V3-PEND", "skipped", "pending: waits for an endpoint"},
			{"V3-OOS", "skipped", "out of scope: not shown"},
			{"V3-NONE", "skipped", "skipped: no spec of this run checks it"},
		}
		for _, c := range cases {
			kind, msg := c.kind, c.message
			if certify && (c.id == "V3-SKIP" || c.id == "V3-INC" || c.id == "V3-NONE") {
				kind, msg = "failure", "cannot run: "+strings.SplitN(c.message, ": ", 2)[1]
			}
			tc := got[c.id]
			switch kind {
			case "pass":
				if tc.Failure != nil || tc.Skipped != nil {
					t.Errorf("certify=%v %s: want a pass, got %+v", certify, c.id, tc)
				}
			case "failure":
				if tc.Failure == nil || tc.Failure.Message != msg {
					t.Errorf("certify=%v %s: want failure %q, got %+v", certify, c.id, msg, tc.Failure)
				}
			case "skipped":
				if tc.Skipped == nil || tc.Skipped.Message != msg {
					t.Errorf("certify=%v %s: want skipped %q, got %+v", certify, c.id, msg, tc.Skipped)
				}
			}
		}
		if f := got["V3-FAIL"].Failure; f == nil || !strings.Contains(f.Text, "HS256 <redacted>") {
			t.Errorf("the failure carries the exchange: %+v", f)
		}
	}
}

// An interrupted run says so in every testsuite, valid against the schema,
// and a rule it did not judge is skipped as interrupted, never a failure.
func TestJUnitInterruptedRun(t *testing.T) {
	s, err := loadSchema("testdata/junit-10.xsd")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := rules.New([]rules.Rule{
		{ID: "V3-PASS", Area: "spot", Section: "S", Status: rules.Testable, Statement: "passes"},
		{ID: "V3-STOP", Area: "auth", Section: "S", Status: rules.Testable, Statement: "was running"},
	})
	if err != nil {
		t.Fatal(err)
	}
	stopped := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "runs", LeafNodeLabels: []string{"rule:V3-STOP"},
		State: types.SpecStateInterrupted, Failure: types.Failure{Message: "Interrupted by User"}}
	passed := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "serves", LeafNodeLabels: []string{"rule:V3-PASS"}, State: types.SpecStatePassed}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	res := results.BuildStopped([]types.Report{{SuiteDescription: "conform", SpecReports: types.SpecReports{passed, stopped}}}, cat,
		&results.Interruption{Cause: results.CauseSIGINT, At: at})
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := Write(path, res); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if errs := s.validate(b); len(errs) > 0 {
		t.Fatalf("not valid against junit-10.xsd:\n%s\n%s", strings.Join(errs, "\n"), b)
	}
	doc := decode(t, path)
	if doc.Failures != 0 {
		t.Errorf("%d failures in a run whose only non-pass was interrupted", doc.Failures)
	}
	for _, ts := range doc.Suites {
		var said bool
		for _, p := range ts.Properties.Property {
			said = said || (p.Name == "interrupted" && strings.HasPrefix(p.Value, "INTERRUPTED at 2026-01-02 03:04:05 UTC (SIGINT)"))
		}
		if !said {
			t.Errorf("testsuite %s does not say the run was interrupted: %+v", ts.Name, ts.Properties)
		}
		for _, tc := range ts.Cases {
			if tc.Name == "V3-STOP" && (tc.Skipped == nil || tc.Skipped.Message != "interrupted: not judged: the run was stopped (SIGINT) at 2026-01-02T03:04:05Z before its specs ended") {
				t.Errorf("V3-STOP: %+v", tc)
			}
		}
	}
}
