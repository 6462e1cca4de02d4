package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/killtable"
)

func TestSelectFaults(t *testing.T) {
	all := []faults.Fault{{Rule: "V3-A"}, {Rule: "V3-B"}, {Rule: "V3-C"}}
	got, err := selectFaults(all, " V3-C, V3-A,,V3-C ")
	if err != nil || len(got) != 2 || got[0].Rule != "V3-C" || got[1].Rule != "V3-A" {
		t.Errorf("got %v, %v", got, err)
	}
	if got, _ := selectFaults(all, ""); len(got) != 3 {
		t.Errorf("no --only: %v", got)
	}
	if _, err := selectFaults(all, "V3-A,V3-Z"); err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), "V3-Z") {
		t.Errorf("unknown fault: %v", err)
	}
}

// fakeSuite writes a script that plays suites.test: a dry run writes
// $FAKE_DIR/dry.json; a run copies $FAKE_DIR/<fault>.json (baseline.json
// without a fault) to the report path and exits 1 when that report has a
// failure, as the real suite would.
func fakeSuite(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "suites.test")
	script := `#!/bin/sh
name=baseline
for a in "$@"; do
  case "$a" in
    --ginkgo.json-report=*) report="${a#--ginkgo.json-report=}";;
    -conform.report=*) report="${a#-conform.report=}";;
    --ginkgo.dry-run) name=dry;;
    -conform.faults=*) name="${a#-conform.faults=}";;
  esac
done
[ -f "$FAKE_DIR/$name.json" ] || exit 2
cp "$FAKE_DIR/$name.json" "$report"
grep -q '"State":"failed"' "$report" && exit 1
exit 0
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCmdMutateWithFakeSuite(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	all := faults.Catalogue()
	if len(all) < 4 {
		t.Skip("needs four faults in the catalogue")
	}
	killed, survived, nospec, broken := all[0].Rule, all[1].Rule, all[2].Rule, all[3].Rule
	dir := t.TempDir()
	t.Setenv("FAKE_DIR", dir)
	suite := fakeSuite(t, dir)
	writeReport(t, filepath.Join(dir, "dry.json"),
		itSpec("k", types.SpecStatePassed, "rule:"+killed),
		itSpec("s", types.SpecStatePassed, "rule:"+survived),
		itSpec("b", types.SpecStatePassed, "rule:"+broken))
	writeReport(t, filepath.Join(dir, "baseline.json"),
		itSpec("k", types.SpecStatePassed, "rule:"+killed),
		itSpec("s", types.SpecStatePassed, "rule:"+survived),
		itSpec("b", types.SpecStatePassed, "rule:"+broken))
	writeReport(t, filepath.Join(dir, killed+".json"), itSpec("k", types.SpecStateFailed, "rule:"+killed))
	writeReport(t, filepath.Join(dir, survived+".json"), itSpec("s", types.SpecStatePassed, "rule:"+survived))
	// no report for the broken fault: the fake suite exits 2 without one

	out := filepath.Join(dir, "out")
	e, stdout, stderr := testEnv(t)
	code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--parallel", "2",
		"--only", strings.Join([]string{killed, survived, nospec, broken}, ",")}, e)
	if code != exitHarness {
		t.Errorf("exit %d, want %d (a run broke)\nstdout:\n%s\nstderr:\n%s", code, exitHarness, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, mutationFile))
	if err != nil {
		t.Fatal(err)
	}
	var m killtable.Mutation
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]killtable.Verdict{}
	for _, r := range m.Faults {
		verdicts[r.Rule] = r.Verdict
	}
	want := map[string]killtable.Verdict{killed: killtable.Killed, survived: killtable.Survived, nospec: killtable.NoSpec, broken: killtable.Broken}
	for id, v := range want {
		if verdicts[id] != v {
			t.Errorf("%s: %s, want %s", id, verdicts[id], v)
		}
	}
	if m.Killed != 1 || m.Total != 4 || m.Baseline == nil || !m.Baseline.Passed {
		t.Errorf("mutation: killed %d/%d baseline %+v", m.Killed, m.Total, m.Baseline)
	}
	if !strings.Contains(stdout.String(), "killed 1/4 (25%)") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// Without the broken fault the survivor decides: exit 1.
	e, _, _ = testEnv(t)
	if code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--only", killed + "," + survived}, e); code != exitFailed {
		t.Errorf("survivor: exit %d, want %d", code, exitFailed)
	}
	e, _, _ = testEnv(t)
	if code := realMain([]string{"mutate", "--suite", suite, "--out", out, "--only", killed}, e); code != exitOK {
		t.Errorf("all killed: exit %d, want %d", code, exitOK)
	}
}
