package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/rules"
)

func TestCmdRulesWithFakeSuite(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FAKE_DIR", dir)
	suite := fakeSuite(t, dir)
	writeReport(t, filepath.Join(dir, "dry.json"),
		itSpec("serves /api/3", types.SpecStatePassed, "rule:V3-CONV-ADDRESS"),
		itSpec("says hello", types.SpecStatePassed))

	e, stdout, _ := testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite}, e); code != exitOK {
		t.Errorf("rules: exit %d", code)
	}
	if !strings.Contains(stdout.String(), "V3-CONV-ADDRESS") {
		t.Errorf("table:\n%s", stdout)
	}
	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--id", "V3-CONV-ADDRESS"}, e); code != exitOK || !strings.Contains(stdout.String(), "serves /api/3") {
		t.Errorf("rules --id: exit %d\n%s", code, stdout)
	}
	// --emulator-only: the catalogue's rules that need the control plane, with the reason.
	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--emulator-only"}, e); code != exitOK ||
		!strings.Contains(stdout.String(), "V3-SPOT-DAY  (spot)\n  the expiry at 23:59 UTC") || strings.Contains(stdout.String(), "V3-CONV-ADDRESS") {
		t.Errorf("rules --emulator-only: exit %d\n%s", code, stdout)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--emulator-only", "--json"}, e); code != exitUsage {
		t.Errorf("rules --emulator-only --json: exit %d, want %d", code, exitUsage)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--id", "V3-NO-SUCH"}, e); code != exitUsage {
		t.Errorf("rules --id unknown: exit %d, want %d", code, exitUsage)
	}

	e, stdout, stderr := testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--check"}, e); code != exitFailed {
		t.Errorf("rules --check: exit %d, want %d", code, exitFailed)
	}
	if !strings.Contains(stdout.String(), `spec "says hello" () names no rule`) || !strings.Contains(stderr.String(), "coverage problems") {
		t.Errorf("problems not listed:\n%s\n%s", stdout, stderr)
	}

	e, stdout, _ = testEnv(t)
	if code := realMain([]string{"rules", "--suite", suite, "--json", "--check"}, e); code != exitFailed {
		t.Errorf("rules --json --check: exit %d", code)
	}
	var doc struct {
		Rules []struct {
			ID     string   `json:"id"`
			Status string   `json:"status"`
			Specs  []string `json:"specs"`
		} `json:"rules"`
		Problems []coverage.Problem `json:"problems"`
		Totals   coverage.Totals    `json:"totals"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("--json output is not JSON (%v):\n%s", err, stdout)
	}
	if len(doc.Rules) != len(rules.Default().All()) || doc.Rules[0].ID == "" || len(doc.Problems) == 0 || doc.Totals.Specs != 2 {
		t.Errorf("json: %d rules, %d problems, totals %+v", len(doc.Rules), len(doc.Problems), doc.Totals)
	}

	e, _, stderr = testEnv(t)
	t.Setenv("FAKE_DIR", t.TempDir()) // no dry.json: the suite exits 2 without a report
	if code := realMain([]string{"rules", "--suite", suite}, e); code != exitHarness || !strings.Contains(stderr.String(), "wrote no report") {
		t.Errorf("broken suite: exit %d, stderr %q", code, stderr)
	}
}

func report(specs ...types.SpecReport) []types.Report {
	return []types.Report{{SpecReports: specs}}
}
