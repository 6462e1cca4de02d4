package mutation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/internal/registration"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/target"
)

// Cmd is one run of the suite binary.
type Cmd struct {
	Path string
	Args []string
	// Dir is the directory it runs in.
	Dir string
	// Output receives its stdout and stderr.
	Output io.Writer
	// Env is added to the caller's own environment.
	Env []string
}

// Exec runs c to its end and returns its exit status (-1 when a signal
// ended it), and an error only when it could not be started. conform runs
// each in a process group of its own that dies with it.
type Exec func(ctx context.Context, c Cmd) (int, error)

// Runner runs a plan's jobs.
type Runner struct {
	// Suite is the suite binary.
	Suite string
	// Dir is where the runs start (their reports and logs are there).
	Dir string
	// Parallel is how many runs go at a time.
	Parallel int
	// Timeout is the suite's own time limit of a run; Grace is how much
	// longer a run may take before its context ends it.
	Timeout, Grace time.Duration
	// Exec starts a run.
	Exec Exec
	// Progress receives a line per run ended.
	Progress io.Writer
}

// Run runs the jobs, Parallel at a time, each writing its output to its
// log, and returns each job's outcome by name.
func (r Runner) Run(ctx context.Context, jobs []Job) map[string]killtable.Run {
	var mu sync.Mutex
	out := map[string]killtable.Run{}
	done := 0
	queue := make(chan Job)
	var wg sync.WaitGroup
	for range min(r.Parallel, max(len(jobs), 1)) {
		wg.Go(func() {
			for j := range queue {
				run := r.run(ctx, j)
				mu.Lock()
				out[j.Name] = run
				done++
				state := "done"
				if run.Err != nil {
					state = "error: " + ginkgojson.FirstLine(run.Err.Error())
				}
				fmt.Fprintf(r.Progress, "mutate: [%d/%d] %s %s\n", done, len(jobs), j.Name, state)
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	return out
}

// Env is the environment a mutation run adds: most runs live a fraction of
// a second, most of it building the suite's tree of specs, and the
// collector's default pace (GOGC=100) spent a quarter of that CPU on it. A
// short run (Job.OneP: a REST fault's specs) gets one P (GOMAXPROCS=1): a
// dozen runs go at a time, so the parallelism is between processes, and
// with a P per CPU such a run spent a fifth more CPU (20 runs: 0.36
// CPU-seconds each against 0.30). The others keep a P per CPU: a baseline
// part or the limit batch with one P, on a loaded machine, left the trading
// stream silent for 3 s. A GOGC or GOMAXPROCS of the caller's own
// environment is kept. A target handed down to the caller itself
// (target.SuiteEnv) is not passed on: a fault is judged on the embedded
// emulator only. The run registers the job's top-level containers
// (registration.Env; none named: every one).
func Env(j Job) []string {
	env := []string{target.SuiteEnv + "=", registration.Env + "=" + registration.Value(j.Containers)}
	if _, set := os.LookupEnv("GOGC"); !set {
		env = append(env, "GOGC=400")
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); !set && j.OneP {
		env = append(env, "GOMAXPROCS=1")
	}
	return env
}

// run runs the suite binary once. A failing spec is the expected way for a
// fault run to end, so the exit status matters only when no report came.
func (r Runner) run(ctx context.Context, j Job) killtable.Run {
	logf, err := os.Create(j.Log)
	if err != nil {
		return killtable.Run{Err: fmt.Errorf("log: %w", err)}
	}
	defer logf.Close()
	ctx, cancel := context.WithTimeout(ctx, r.Timeout+r.Grace) // the suite's own --ginkgo.timeout should end it first
	defer cancel()
	status, err := r.Exec(ctx, Cmd{Path: r.Suite, Args: j.Args, Dir: r.Dir, Output: logf, Env: Env(j)})
	if err != nil {
		return killtable.Run{Err: err}
	}
	reports, err := ginkgojson.Read(j.Report)
	if err != nil {
		return killtable.Run{Err: fmt.Errorf("suite exited with status %d and wrote no report (see %s): %w", status, j.Log, err)}
	}
	return killtable.Run{Reports: reports}
}

// Judge gives each selected fault its verdict from the runs (specs counts
// a rule's specs), judges the baseline from its parts and tallies the kill
// table.
func Judge(selected []faults.Fault, specs func(rule string) int, p Plan, runs map[string]killtable.Run) *killtable.Mutation {
	var results []killtable.FaultResult
	for _, f := range selected {
		res := killtable.JudgeFault(f, specs(f.Rule), runs[f.Rule])
		if _, ran := runs[f.Rule]; ran {
			for _, j := range p.Jobs {
				if j.Name == f.Rule {
					res.Report, res.Log = j.Report, j.Log
				}
			}
		}
		results = append(results, res)
	}
	var bad map[string]bool
	baseline := p.Baseline
	if baseline != nil {
		// A copy: judging again (Again) starts from the plan's, not from
		// the problems an earlier judgement found.
		b := *p.Baseline
		b.Problems, b.Passed = nil, false
		baseline = &b
		var all killtable.Run
		if p.given != nil {
			all.Reports = p.given.Reports
			for _, id := range p.Covered {
				if held := killtable.Held(all.Reports, id); held < specs(id) {
					all.Err = errors.Join(all.Err, fmt.Errorf("%s: held %d of the %d specs of %s", p.Baseline.From, held, specs(id), id))
				}
			}
		}
		for _, name := range p.BaselineJobs {
			r := runs[name]
			all.Reports = append(all.Reports, r.Reports...)
			if r.Err != nil {
				all.Err = errors.Join(all.Err, fmt.Errorf("%s: %w", name, r.Err))
				continue
			}
			// A part that left out specs of its rules (a container it did
			// not register) passed without them.
			i := slices.IndexFunc(p.Jobs, func(j Job) bool { return j.Name == name })
			for _, id := range p.Jobs[i].Rules {
				if held := killtable.Held(r.Reports, id); held < specs(id) {
					all.Err = errors.Join(all.Err, fmt.Errorf("%s: held %d of the %d specs of %s", name, held, specs(id), id))
				}
			}
		}
		bad = killtable.JudgeBaseline(baseline, all)
	}
	return killtable.Tally(results, baseline, bad)
}

// againParallel is how many survivors' second runs go at a time: few, so
// that each has the harness on time that its first run, beside a dozen
// others on two cores, may not have had (a limit row then reads
// inconclusive, a stream spec's deadline passes).
const againParallel = 2

// Again runs a second time, againParallel at a time, the fault runs of the
// faults m found SURVIVED and the baseline parts that failed, into the same
// report and log, and judges again:
// a fault is killed when a spec of its rule fails in either run. A fault
// killed only on its second run says so in its note, with what its first
// run said, so that a kill that depends on a quiet machine stays visible.
func (r Runner) Again(ctx context.Context, selected []faults.Fault, specs func(rule string) int, p Plan, runs map[string]killtable.Run, m *killtable.Mutation) *killtable.Mutation {
	first := map[string]killtable.FaultResult{}
	var jobs []Job
	// A baseline part that failed runs again too: its specs failing without
	// any fault, under the same load, would leave every kill unjudged.
	for _, j := range p.Jobs {
		if !slices.Contains(p.BaselineJobs, j.Name) {
			continue
		}
		// Judged as the whole baseline is: no report, a failed node or spec,
		// an interruption.
		var b killtable.Baseline
		if killtable.JudgeBaseline(&b, runs[j.Name]); !b.Passed {
			jobs = append(jobs, j)
		}
	}
	for _, res := range m.Faults {
		if res.Verdict != killtable.Survived {
			continue
		}
		for _, j := range p.Jobs {
			if j.Name == res.Rule {
				first[res.Rule] = res
				jobs = append(jobs, j)
			}
		}
	}
	if len(jobs) == 0 {
		return m
	}
	fmt.Fprintf(r.Progress, "mutate: %d faults survived their first run and %d baseline parts failed; running them again, %d at a time\n",
		len(first), len(jobs)-len(first), againParallel)
	r.Parallel = againParallel
	for name, run := range r.Run(ctx, jobs) {
		runs[name] = run
	}
	again := Judge(selected, specs, p, runs)
	for i := range again.Faults {
		res := &again.Faults[i]
		was, retried := first[res.Rule]
		if !retried || res.Verdict != killtable.Killed {
			continue
		}
		why := "every spec passed"
		if was.Note != "" {
			why = was.Note
		}
		res.Note = "killed on its second run; its first, beside other runs, survived (" + why + ")"
	}
	return again
}
