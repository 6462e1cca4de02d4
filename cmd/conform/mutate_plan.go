package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/rules"
)

// waitClass ranks a rule's suite run by how long it is expected to take. A
// mutation run's jobs mostly wait rather than compute, so the plan starts the
// long ones first: started last, one of them ends the whole run alone.
type waitClass int

const (
	// waitShort: REST specs, a fraction of a second.
	waitShort waitClass = iota
	// waitStreams: stream specs and Serial ones (fills against the
	// counterparty), seconds; a fault often makes them wait out a timeout.
	waitStreams
	// waitLimits: the limit scenarios, seconds of offered load.
	waitLimits
	// waitSlow: specs labelled slow (the ping), tens of seconds.
	waitSlow
)

// Labels the plan reads (limits.LabelSlow and limits.LabelLimits; the
// suites/limits package is the suite's, not the CLI's).
const (
	labelSlow   = "slow"
	labelLimits = "limits"
)

// streamAreas are the areas whose specs wait on stream messages.
var streamAreas = []string{"area:streampublic", "area:streamtrading", "area:streamwallet", "area:v2streams"}

// ruleWaits reads each rule's wait class off the specs of a dry run: the
// longest of its specs' classes.
func ruleWaits(reports []types.Report) map[string]waitClass {
	out := map[string]waitClass{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt {
				continue
			}
			labels := s.Labels()
			c := waitShort
			switch {
			case slices.Contains(labels, labelSlow):
				c = waitSlow
			case slices.Contains(labels, labelLimits):
				c = waitLimits
			case s.IsSerial || slices.ContainsFunc(labels, func(l string) bool { return slices.Contains(streamAreas, l) }):
				c = waitStreams
			}
			for _, l := range labels {
				if id, ok := strings.CutPrefix(l, rules.LabelPrefix); ok {
					out[id] = max(out[id], c)
				}
			}
		}
	}
	return out
}

// baselineShares splits the covered rules into the baseline's parts: each
// slow rule alone and the limit rules together (one batch of scenarios), so
// that neither adds its wait to hundreds of other specs run one after
// another; the other rules in shares of about the same size, two per slot
// (a share of v2 rules waits on the per-user v2 budget: a quarter of them
// took 34 s in one process).
func baselineShares(covered []string, waits map[string]waitClass, parallel int) [][]string {
	var out [][]string
	var limits, rest []string
	for _, id := range covered {
		switch waits[id] {
		case waitSlow:
			out = append(out, []string{id})
		case waitLimits:
			limits = append(limits, id)
		default:
			rest = append(rest, id)
		}
	}
	if len(limits) > 0 {
		out = append(out, limits)
	}
	if len(rest) > 0 {
		out = append(out, shares(rest, 2*parallel)...)
	}
	return out
}

// planJobs returns the baseline parts and the fault runs of the covered
// rules, longest expected first (baseline parts before fault runs of the
// same class, the rest of the baseline with the limit runs), and the names
// of the baseline parts.
func planJobs(covered []string, waits map[string]waitClass, parallel int, job func(name, filter string, faultIDs ...string) mutationJob) ([]mutationJob, []string) {
	type ranked struct {
		job  mutationJob
		rank int
	}
	var plan []ranked
	var names []string
	for i, share := range baselineShares(covered, waits, parallel) {
		c := waitLimits // a share of the rest runs hundreds of specs
		for _, id := range share {
			c = max(c, waits[id])
		}
		b := job(fmt.Sprintf("baseline-%d", i+1), killtable.RuleFilter(share...))
		names = append(names, b.name)
		plan = append(plan, ranked{b, 2*int(c) + 1})
	}
	for _, id := range covered {
		plan = append(plan, ranked{job(id, killtable.RuleFilter(id), id), 2 * int(waits[id])})
	}
	slices.SortStableFunc(plan, func(a, b ranked) int { return cmp.Compare(b.rank, a.rank) })
	jobs := make([]mutationJob, len(plan))
	for i, r := range plan {
		jobs[i] = r.job
	}
	return jobs, names
}
