package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/reporters/rundiff"
)

// diffFault is a fault that breaks exactly its rule, and diffFilter the
// areas the two runs cover (two small areas keep the check quick).
const (
	diffFault  = "V3-CONV-KEEPALIVE-HTTP10"
	diffFilter = "area:conventions || area:errors"
)

// Two runs of the built CLI, against an emulator without and with one
// fault: conform report diff names exactly the fault's rule as a
// regression and exits 1, and the replay line printed for it re-runs just
// that rule against the same target.
func TestTrustReportDiffNamesTheFaultsRule(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	clean := startEmulator(t, emulator.Options{ControlPlane: true})
	faulty := startEmulator(t, emulator.Options{ControlPlane: true, Faults: []string{diffFault}})
	old, cur := t.TempDir(), t.TempDir()
	if code, console := conformCLI(t, bin, nil, "run", "--target", clean, "--label-filter", diffFilter, "--procs", fewSpecsProcs, "--out", old); code != exitOK {
		t.Fatalf("clean run: exit %d:\n%s", code, console)
	}
	code, console := conformCLI(t, bin, nil, "run", "--target", faulty, "--label-filter", diffFilter, "--procs", fewSpecsProcs, "--out", cur)
	if code != exitFailed {
		t.Fatalf("run with %s on: exit %d:\n%s", diffFault, code, console)
	}

	code, out := conformCLI(t, bin, nil, "report", "diff", "--json", old, cur)
	if code != exitFailed {
		t.Fatalf("report diff: exit %d, want %d:\n%s", code, exitFailed, out)
	}
	var d rundiff.Diff
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &d); err != nil {
		t.Fatalf("report diff --json: %v\n%s", err, out)
	}
	var ids []string
	for _, c := range d.NewlyFailing {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{diffFault}) || len(d.Fixed) != 0 || len(d.NewlyCovered) != 0 {
		t.Errorf("regressions %v (want exactly %s), fixed %v, newly covered %v", ids, diffFault, d.Fixed, d.NewlyCovered)
	}

	m := regexp.MustCompile(`(?m)^\s+replay: (.*--label-filter rule:` + diffFault + `.*)$`).FindStringSubmatch(console)
	if m == nil {
		t.Fatalf("no replay line for %s:\n%s", diffFault, console)
	}
	replay := regexp.MustCompile(`--out \S+`).ReplaceAllString(m[1], "--out "+filepath.Join(t.TempDir(), "replay"))
	cmd := exec.Command("/bin/sh", "-c", replay)
	b, _ := cmd.CombinedOutput()
	if got := cmd.ProcessState.ExitCode(); got != exitFailed || !strings.Contains(string(b), "FAILED (1 rule)\n  "+diffFault) {
		t.Errorf("replay %q: exit %d, want %d and the one rule failing:\n%s", replay, got, exitFailed, b)
	}
	if strings.Contains(string(b), "Will run 0 of") || !regexp.MustCompile(`Will run \d+ of`).Match(b) {
		t.Errorf("replay ran nothing:\n%s", b)
	}
}
