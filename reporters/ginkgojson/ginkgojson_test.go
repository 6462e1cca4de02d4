package ginkgojson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestDecode(t *testing.T) {
	if _, err := Decode(strings.NewReader("[]")); err == nil {
		t.Error("an empty report was accepted")
	}
	if _, err := Decode(strings.NewReader("{")); err == nil {
		t.Error("broken JSON was accepted")
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing.json")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	reps, err := Decode(strings.NewReader(`[{"SuiteDescription":"s","SpecReports":[{"LeafNodeType":"It","State":"passed"},{"LeafNodeType":"BeforeSuite","State":"failed","Failure":{"Message":"boom"}}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Specs(reps)); n != 1 {
		t.Errorf("specs: %d", n)
	}
	if f := SuiteFailures(reps); len(f) != 1 || f[0].Node != "BeforeSuite" || f[0].Message != "boom" {
		t.Errorf("suite failures: %+v", f)
	}
}

func TestEntryText(t *testing.T) {
	s := types.SpecReport{ReportEntries: types.ReportEntries{
		{Name: "informational", Value: types.ReportEntryValue{Representation: "first\n"}},
		{Name: "exchanges", Value: types.ReportEntryValue{Representation: "GET /"}},
		{Name: "informational", Value: types.ReportEntryValue{AsJSON: `{"a":1}`}},
	}}
	if got := EntryText(s, "informational"); got != "first\n{\"a\":1}" {
		t.Errorf("EntryText: %q", got)
	}
	if got := EntryText(s, "none"); got != "" {
		t.Errorf("EntryText none: %q", got)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"": "", "\n  \n  a b \nc": "a b", "x": "x"} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q", in, want)
		}
	}
}

// Selector decides as Ginkgo does which specs the run's filters select.
func TestSelector(t *testing.T) {
	s := func(state types.SpecState, text string, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"spot"}, LeafNodeText: text, LeafNodeLabels: labels, State: state}
	}
	a := s(types.SpecStateSkipped, "V3-A places", "rule:V3-A", "area:spot")
	slow := s(types.SpecStateSkipped, "V3-S waits", "rule:V3-S", "slow")
	pending := s(types.SpecStatePending, "V3-P later", "rule:V3-P")
	for _, tc := range []struct {
		name string
		cfg  types.SuiteConfig
		want map[string]bool
	}{
		{"no filter", types.SuiteConfig{}, map[string]bool{"a": true, "slow": true, "pending": false}},
		{"label filter", types.SuiteConfig{LabelFilter: "!slow"}, map[string]bool{"a": true, "slow": false}},
		{"focus on the full text", types.SuiteConfig{FocusStrings: []string{"^conform spot V3-S"}}, map[string]bool{"a": false, "slow": true}},
		{"skip", types.SuiteConfig{SkipStrings: []string{"places"}}, map[string]bool{"a": false, "slow": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel := Selector(types.Report{SuiteDescription: "conform", SuiteConfig: tc.cfg})
			for name, sr := range map[string]types.SpecReport{"a": a, "slow": slow, "pending": pending} {
				if want, ok := tc.want[name]; ok && sel(sr) != want {
					t.Errorf("%s: selected %v, want %v", name, !want, want)
				}
			}
		})
	}
	if Selector(types.Report{SuiteHasProgrammaticFocus: true})(a) {
		t.Error("with programmatic focus the report cannot tell: nothing counts as selected")
	}
}

// An interruption is found in the suite's reasons and is no suite failure;
// the specs it stopped in flight are told from their own failures.
func TestInterruption(t *testing.T) {
	reps := []types.Report{
		{SpecialSuiteFailureReasons: []string{InterruptedByOtherProcess}},
		{SpecialSuiteFailureReasons: []string{InterruptedByUser}, SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateInterrupted, Failure: types.Failure{Message: InterruptedByUser}},
		}},
	}
	if got := Interruption(reps); got != InterruptedByUser {
		t.Errorf("Interruption = %q, want the signal's reason", got)
	}
	if f := SuiteFailures(reps); len(f) != 0 {
		t.Errorf("suite failures of an interrupted run: %+v", f)
	}
	if got := Interruption([]types.Report{{SpecialSuiteFailureReasons: []string{"Detected pending specs and --fail-on-pending is set"}}}); got != "" {
		t.Errorf("Interruption of a run that ended: %q", got)
	}
	for _, tc := range []struct {
		state types.SpecState
		msg   string
		want  bool
	}{
		{types.SpecStateInterrupted, InterruptedByUser, true},
		{types.SpecStateTimedout, "A suite timeout occurred", true},
		{types.SpecStateTimedout, "A spec timeout occurred", false},
		{types.SpecStateFailed, "Expected 400", false},
		{types.SpecStateAborted, "aborted", false},
	} {
		if got := StoppedInFlight(types.SpecReport{State: tc.state, Failure: types.Failure{Message: tc.msg}}); got != tc.want {
			t.Errorf("StoppedInFlight(%s, %q) = %v", tc.state, tc.msg, got)
		}
	}
}
