package main

import (
	"context"
	"slices"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/registration"
	"github.com/conform-harness/conform/reporters/ginkgojson"
)

// confinement is what a run with --label-filter or --focus registers of
// the suite's tree: the top-level containers holding the specs it selects
// (registration.Env), and the specs of every other container, as the
// selection leaves them (skipped), to add to the run's report.
//
// Why: Ginkgo's parallel processes report every spec a filter left out to
// the CLI, one by one; for a run of a few specs that was three quarters of
// its CPU (2.5 of 3.3 CPU-seconds at --procs 2, a dry run in one process
// costs 0.45). Mutation runs confine their tree the same way.
type confinement struct {
	containers []string
	left       []types.SpecReport
}

// confineRun dry-runs the suite in one process with the run's selection
// and returns what the run registers, or nil when confining would leave
// nothing out (no filter, or a filter every container has a spec of). A
// selection of no spec at all is a usage error, said before any process
// starts. env is the suite's environment (the target handoff), so that the
// tree is built as the run builds it.
func confineRun(ctx context.Context, o *runOptions, suite string, env []string) (*confinement, error) {
	if o.certify || (o.labelFilter == "" && o.focus == "") {
		return nil, nil
	}
	var args []string
	if o.labelFilter != "" {
		args = append(args, "--ginkgo.label-filter="+o.labelFilter)
	}
	if o.focus != "" {
		args = append(args, "--ginkgo.focus="+o.focus)
	}
	dry, err := dryRunWith(ctx, suite, env, args...)
	if err != nil {
		// A filter Ginkgo refuses, for one: the run itself says why.
		return nil, nil
	}
	if none(dry) {
		return nil, selectsNoSpec(o)
	}
	return confinementOf(dry), nil
}

// none reports whether a dry run selected no spec (every one skipped).
func none(dry []types.Report) bool {
	for _, s := range ginkgojson.Specs(dry) {
		if s.State != types.SpecStateSkipped {
			return false
		}
	}
	return true
}

// confinementOf reads off a dry run with the run's selection which
// top-level containers hold a selected spec; nil when that is none or all.
func confinementOf(dry []types.Report) *confinement {
	var chosen, all []string
	for _, s := range ginkgojson.Specs(dry) {
		key := registration.KeyOf(s)
		all = append(all, key)
		if s.State != types.SpecStateSkipped {
			chosen = append(chosen, key)
		}
	}
	slices.Sort(chosen)
	slices.Sort(all)
	chosen, all = slices.Compact(chosen), slices.Compact(all)
	if len(chosen) == 0 || len(chosen) == len(all) {
		return nil
	}
	c := &confinement{containers: chosen}
	for _, s := range ginkgojson.Specs(dry) {
		if _, in := slices.BinarySearch(chosen, registration.KeyOf(s)); !in {
			c.left = append(c.left, s)
		}
	}
	return c
}

// env is the suite environment that registers the confinement's
// containers only.
func (c *confinement) env() []string {
	if c == nil {
		return nil
	}
	return []string{registration.Env + "=" + registration.Value(c.containers)}
}

// complete adds to the run's reports the specs the confinement left
// unregistered, skipped as the selection leaves them, so that the results
// count every spec of the tree as a run of the whole tree does.
func (c *confinement) complete(reports []types.Report) {
	if c == nil || len(reports) == 0 {
		return
	}
	reports[0].SpecReports = append(reports[0].SpecReports, c.left...)
	reports[0].PreRunStats.TotalSpecs += len(c.left)
}
