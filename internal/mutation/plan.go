// Package mutation plans and schedules the suite runs of conform mutate: for
// each fault, one run of its rule's specs against the embedded emulator with
// that fault on, and a baseline of the same specs without faults in parts;
// the runs expected to wait longest start first. Judging each run is
// reporters/killtable's; running a process is the caller's (Exec).
package mutation

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/registration"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/rules"
)

// Wait ranks a rule's suite run by how long it is expected to take. A
// mutation run's jobs mostly wait rather than compute, so the plan starts the
// long ones first: started last, one of them ends the whole run alone.
type Wait int

// Wait classes, shortest first.
const (
	// WaitShort: REST specs, a fraction of a second.
	WaitShort Wait = iota
	// WaitStreams: stream specs and Serial ones (fills against the
	// counterparty), seconds; a fault often makes them wait out a timeout.
	WaitStreams
	// WaitLimits: the limit scenarios, seconds of offered load.
	WaitLimits
	// WaitSlow: specs labelled slow (the ping), tens of seconds.
	WaitSlow
)

// Labels the plan reads (suites/limits' LabelSlow and LabelLimits; that
// package is the suite's, not the CLI's).
const (
	labelSlow   = "slow"
	labelLimits = "limits"
)

// streamAreas are the areas whose specs wait on stream messages.
var streamAreas = []string{"area:streampublic", "area:streamtrading", "area:streamwallet", "area:v2streams"}

// Waits reads each rule's wait class off the specs of a dry run: the
// longest of its specs' classes.
func Waits(reports []types.Report) map[string]Wait {
	out := map[string]Wait{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt {
				continue
			}
			labels := s.Labels()
			c := WaitShort
			switch {
			case slices.Contains(labels, labelSlow):
				c = WaitSlow
			case slices.Contains(labels, labelLimits):
				c = WaitLimits
			case s.IsSerial || slices.ContainsFunc(labels, func(l string) bool { return slices.Contains(streamAreas, l) }):
				c = WaitStreams
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

// Containers reads off the specs of a dry run the top-level containers
// holding each rule's specs (registration.Key; a spec at the top level is
// its own), which a run of the rule must register.
func Containers(reports []types.Report) map[string][]string {
	out := map[string][]string{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt {
				continue
			}
			key := registration.KeyOf(s)
			for _, id := range rules.FromLabels(s.Labels()) {
				if !slices.Contains(out[id], key) {
					out[id] = append(out[id], key)
				}
			}
		}
	}
	return out
}

// Job is one suite run of the plan.
type Job struct {
	// Name is the fault's rule ID, or "baseline-<part>".
	Name string
	// Filter is the run's label filter.
	Filter string
	// Args are the suite binary's arguments (SuiteArgs).
	Args []string
	// Report and Log are the files the run writes.
	Report string
	Log    string
	// OneP: a short run (WaitShort), run with one P (see Env).
	OneP bool
	// Rules are the rules whose specs the run selects.
	Rules []string
	// Containers are the top-level containers the run registers (see
	// Confine; none: every one).
	Containers []string
}

// Plan is a mutation run's suite runs, in the order they start.
type Plan struct {
	Jobs []Job
	// BaselineJobs names the baseline's parts among Jobs.
	BaselineJobs []string
	// Baseline is the kill table's baseline, its parts' files filled in;
	// nil when no rule is covered.
	Baseline *killtable.Baseline
	// Covered are the rules whose faults the plan runs.
	Covered []string
	// given is the baseline read from a conform run (UseBaseline), nil
	// when the plan runs its own.
	given *killtable.Run
}

// UseBaseline takes the fault-free run of the covered rules' specs from
// report, the Ginkgo report (ginkgo.json) of a whole conform run of the same
// suite against the embedded emulator, instead of running it: make test's
// conformance run is that run, and running it again was a third of the
// mutation run's CPU. The plan's baseline jobs are dropped; Judge holds
// the report to what it holds a baseline run to (every spec of each
// covered rule there, none failed, the suite run to its end), and a run
// with a label filter is refused.
func (p *Plan) UseBaseline(report string) error {
	reports, err := ginkgojson.Read(report)
	if err != nil {
		return fmt.Errorf("baseline %s: %w", report, err)
	}
	for _, r := range reports {
		if f := r.SuiteConfig.LabelFilter; f != "" {
			return fmt.Errorf("baseline %s: a run of the specs matching %q, not of the whole suite", report, f)
		}
	}
	if p.Baseline == nil {
		return nil
	}
	p.Jobs = slices.DeleteFunc(p.Jobs, func(j Job) bool { return slices.Contains(p.BaselineJobs, j.Name) })
	p.BaselineJobs, p.Baseline.Parts, p.Baseline.From = nil, nil, report
	p.given = &killtable.Run{Reports: reports}
	return nil
}

// NewPlan plans the fault runs of the covered rules (those with specs) and
// the baseline of their specs, parallel runs at a time, each writing its
// report and log into dir and bounded by timeout.
func NewPlan(covered []string, waits map[string]Wait, parallel int, dir string, timeout time.Duration) Plan {
	if len(covered) == 0 {
		return Plan{}
	}
	job := func(name, filter string, faultIDs ...string) Job {
		report := filepath.Join(dir, name+".json")
		return Job{Name: name, Report: report, Log: filepath.Join(dir, name+".log"), Filter: filter,
			Args: SuiteArgs(filter, report, timeout, faultIDs...)}
	}
	// The baseline runs every covered rule's specs in one suite process
	// per part: as one part it was the longest job of the run by far.
	p := Plan{Baseline: &killtable.Baseline{LabelFilter: killtable.RuleFilter(covered...)}, Covered: covered}
	p.Jobs, p.BaselineJobs = planJobs(covered, waits, parallel, job)
	for _, j := range p.Jobs {
		if slices.Contains(p.BaselineJobs, j.Name) {
			p.Baseline.Parts = append(p.Baseline.Parts, killtable.BaselinePart{Report: j.Report, Log: j.Log})
		}
	}
	return p
}

// Confine has each job register only the top-level containers of its
// rules' specs (containers, from Containers), the rest of the suite's tree
// left unbuilt: most of a short run's CPU was building the tree of every
// spec. A job with a rule that containers lacks registers every one. Judge
// checks that each run held every spec of its rules.
func (p Plan) Confine(containers map[string][]string) {
	for i := range p.Jobs {
		j := &p.Jobs[i]
		var cs []string
		for _, id := range j.Rules {
			c, ok := containers[id]
			if !ok {
				cs = nil
				break
			}
			cs = append(cs, c...)
		}
		slices.Sort(cs)
		j.Containers = slices.Compact(cs)
	}
}

// SuiteArgs are the suite binary's flags for one mutation run (faults
// empty: the baseline). Run directly, without the Ginkgo CLI, and serially.
func SuiteArgs(labelFilter, report string, timeout time.Duration, faultIDs ...string) []string {
	args := []string{
		"--ginkgo.label-filter=" + labelFilter,
		"-conform.report=" + report, // the selected specs only: Ginkgo's report would hold every spec
		"--ginkgo.no-color",
		"--ginkgo.timeout=" + timeout.String(),
	}
	if len(faultIDs) > 0 {
		args = append(args, "-conform.faults="+strings.Join(faultIDs, ","))
	}
	return args
}

// shares deals ids out into at most n parts of about the same size, in
// order (neighbouring rules, which share setup, stay together).
func shares(ids []string, n int) [][]string {
	n = max(1, min(n, len(ids)))
	var out [][]string
	for i := range n {
		lo, hi := i*len(ids)/n, (i+1)*len(ids)/n
		if lo < hi {
			out = append(out, ids[lo:hi])
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
func baselineShares(covered []string, waits map[string]Wait, parallel int) [][]string {
	var out [][]string
	var limits, rest []string
	for _, id := range covered {
		switch waits[id] {
		case WaitSlow:
			out = append(out, []string{id})
		case WaitLimits:
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
func planJobs(covered []string, waits map[string]Wait, parallel int, job func(name, filter string, faultIDs ...string) Job) ([]Job, []string) {
	type ranked struct {
		job  Job
		rank int
	}
	var plan []ranked
	var names []string
	for i, share := range baselineShares(covered, waits, parallel) {
		c := WaitLimits // a share of the rest runs hundreds of specs
		for _, id := range share {
			c = max(c, waits[id])
		}
		b := job(fmt.Sprintf("baseline-%d", i+1), killtable.RuleFilter(share...))
		b.Rules = share
		names = append(names, b.Name)
		plan = append(plan, ranked{b, 2*int(c) + 1})
	}
	for _, id := range covered {
		j := job(id, killtable.RuleFilter(id), id)
		j.OneP = waits[id] == WaitShort
		j.Rules = []string{id}
		plan = append(plan, ranked{j, 2 * int(waits[id])})
	}
	slices.SortStableFunc(plan, func(a, b ranked) int { return cmp.Compare(b.rank, a.rank) })
	jobs := make([]Job, len(plan))
	for i, r := range plan {
		jobs[i] = r.job
	}
	return jobs, names
}
