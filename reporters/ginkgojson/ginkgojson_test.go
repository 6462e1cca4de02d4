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
