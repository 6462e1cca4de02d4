package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/mutation"
	"github.com/conform-harness/conform/internal/registration"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/killtable"
)

// A mutation run registers only the top-level containers of its rules'
// specs (mutation.Containers, registration.Env): for every rule, such a
// run selects exactly the specs a run of the whole tree selects with the
// same filter (text, location, labels, Serial), and fewer specs are built.
// One dry run per set of containers, its rules together. Needs CONFORM_BIN.
func TestTrustConfinedRunsSelectTheSameSpecs(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	suite := filepath.Join(binDir(t), "suites.test")
	ctx := context.Background()
	full, err := dryRun(ctx, suite)
	if err != nil {
		t.Fatal(err)
	}
	byContainers := map[string][]string{}
	for id, cs := range mutation.Containers(full) {
		v := registration.Value(cs)
		byContainers[v] = append(byContainers[v], id)
	}
	if len(byContainers) < 2 {
		t.Fatalf("the dry run's rules come from %d sets of containers", len(byContainers))
	}
	t.Logf("%d rules in %d sets of containers", len(mutation.Containers(full)), len(byContainers))
	// conform run with a filter confines its tree the same way (confineRun)
	// and reports every spec of the whole tree, those left out skipped.
	t.Run("conform run", func(t *testing.T) {
		out := t.TempDir()
		if code, console := conformCLI(t, binDir(t), nil, "run", "--label-filter", quickFilter, "--procs", fewSpecsProcs, "--out", out); code != exitOK {
			t.Fatalf("exit %d:\n%s", code, console)
		}
		var r struct {
			Summary struct {
				Specs    int `json:"specs"`
				SpecsRun int `json:"specs_run"`
				Skipped  int `json:"skipped"`
			}
		}
		b, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			t.Fatal(err)
		}
		s, all := r.Summary, len(ginkgojson.Specs(full))
		if s.Specs != all || s.SpecsRun == 0 || s.SpecsRun+s.Skipped != all {
			t.Errorf("a run of %s reports %+v, want %d specs in all, those run and the rest skipped", quickFilter, s, all)
		}
		ginkgo, err := ginkgojson.Read(filepath.Join(out, "ginkgo.json"))
		if err != nil {
			t.Fatal(err)
		}
		if built := len(ginkgojson.Specs(ginkgo)); built >= all {
			t.Errorf("the run built %d specs, as many as the whole tree: not confined", built)
		}
	})
	dir := t.TempDir()
	for containers, ids := range byContainers {
		slices.Sort(ids)
		filter := killtable.RuleFilter(ids...)
		report := filepath.Join(dir, "dry.json")
		var out bytes.Buffer
		c := child{path: suite, args: append(dryRunArgs(report), "--ginkgo.label-filter="+filter), dir: dir,
			stdout: &out, stderr: &out, env: []string{registration.Env + "=" + containers}}
		if status, err := c.run(ctx); err != nil || status != 0 {
			t.Fatalf("%s=%s: status %d, %v\n%s", registration.Env, containers, status, err, tail(out.String(), 20))
		}
		confined, err := ginkgojson.Read(report)
		if err != nil {
			t.Fatal(err)
		}
		want, built := selected(t, full, filter), len(ginkgojson.Specs(confined))
		if got := selected(t, confined, filter); !slices.Equal(got, want) {
			t.Errorf("%s=%s, filter %s: selects %d specs, the whole tree %d:\n%q\nwant\n%q", registration.Env, containers, filter, len(got), len(want), got, want)
		}
		if built >= len(ginkgojson.Specs(full)) {
			t.Errorf("%s=%s: built %d specs, as many as the whole tree", registration.Env, containers, built)
		}
	}
}

// selected lists the specs of reports the label filter selects, each as
// its text, location, labels and Serial, sorted.
func selected(t *testing.T, reports []types.Report, filter string) []string {
	t.Helper()
	match, err := types.ParseLabelFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range ginkgojson.Specs(reports) {
		if match(s.Labels()) {
			out = append(out, s.FullText()+" @ "+s.LeafNodeLocation.String()+" "+strings.Join(s.Labels(), ",")+
				map[bool]string{true: " Serial"}[s.IsSerial])
		}
	}
	slices.Sort(out)
	return out
}
