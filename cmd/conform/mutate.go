package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/target"
)

const mutateSynopsis = `usage: conform mutate [--only IDS] [--parallel N] [--out DIR] [--suite PATH] [--list]

Mutation testing of the suite: for each emulator fault, runs the specs of the
fault's rule (--ginkgo.label-filter=rule:<ID>) against an embedded emulator
with that one fault on, and expects at least one of them to fail (KILLED).
A baseline run of the same specs without faults must pass. Writes
<out>/mutation.json (the kill table, a summary of every run) and keeps the
report and log of a run under <out>/mutation/ only where someone has to
look: survivors, errors, a failing baseline (--keep-all keeps every one).
The previous run's mutation/ is kept as mutation.prev/.
Exits 1 when a fault SURVIVED or its rule has NO-SPEC, 3 when the baseline
fails or a run breaks.`

// mutationFile is the kill table in the output directory; mutationDir holds
// the reports and logs of the single runs.
const (
	mutationFile = "mutation.json"
	mutationDir  = "mutation"
)

type mutateOptions struct {
	suite    string
	parallel int
	only     string
	list     bool
	out      string
	timeout  time.Duration
	keepAll  bool
}

func mutateFlagSet(o *mutateOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.StringVar(&o.suite, "suite", "", "suite binary `path` (default: suites.test next to conform, in ./bin or on PATH)")
	fs.IntVar(&o.parallel, "parallel", 0, "suite runs at a time (default: 6 per CPU)")
	fs.StringVar(&o.only, "only", "", "comma-separated rule `IDs`: mutate only these faults")
	fs.BoolVar(&o.list, "list", false, "list the emulator's faults and exit")
	fs.StringVar(&o.out, "out", "reports", "output `dir` for mutation.json and the runs' reports")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "time limit of each suite run")
	fs.BoolVar(&o.keepAll, "keep-all", false, "keep the report and log of every run, killed faults' too")
	return fs
}

// selectFaults returns the catalogue's faults, or those named by only (a
// comma-separated list, each of which must be a fault).
func selectFaults(all []faults.Fault, only string) ([]faults.Fault, error) {
	ids := splitIDs(only)
	if len(ids) == 0 {
		return all, nil
	}
	var out []faults.Fault
	for _, id := range ids {
		i := slices.IndexFunc(all, func(f faults.Fault) bool { return f.Rule == id })
		if i < 0 {
			return nil, usageErrorf("mutate: --only: no fault for %s (see conform mutate --list)", id)
		}
		if !slices.ContainsFunc(out, func(f faults.Fault) bool { return f.Rule == id }) {
			out = append(out, all[i])
		}
	}
	return out, nil
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

// suiteRunArgs are the suite binary's flags for one mutation run (faults
// empty: the baseline). Run directly, without the Ginkgo CLI, and serially.
func suiteRunArgs(labelFilter, report string, timeout time.Duration, faultIDs ...string) []string {
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

func listFaults(w io.Writer, fs []faults.Fault) error {
	width := 0
	for _, f := range fs {
		width = max(width, len(f.Rule))
	}
	for _, f := range fs {
		if _, err := fmt.Fprintf(w, "%-*s  %s\n", width, f.Rule, f.Breaks); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%d faults\n", len(fs))
	return err
}

// mutationJob is one suite run of the plan.
type mutationJob struct {
	name   string // fault rule ID, or "baseline-<part>"
	filter string
	args   []string
	report string
	log    string
}

func cmdMutate(args []string, e *env) error {
	o := &mutateOptions{}
	if err := parseFlags("mutate", mutateFlagSet(o), args, e); err != nil {
		return err
	}
	if o.parallel == 0 {
		// A mutant's run mostly waits (limit windows, stream answers): on two
		// cores 316 mutants took 199 s one per CPU and 87 s three per CPU,
		// using the same CPU time. With the runs' reports cut to their
		// selected specs and the longest runs first, 428 mutants took 81 s
		// three per CPU and 45 s six per CPU (50 s of CPU either way).
		o.parallel = 6 * runtime.NumCPU()
	}
	switch {
	case o.parallel < 1:
		return usageErrorf("mutate: --parallel must be at least 1, got %d", o.parallel)
	case o.timeout <= 0:
		return usageErrorf("mutate: --timeout must be positive, got %s", o.timeout)
	}
	selected, err := selectFaults(faults.Catalogue(), o.only)
	if err != nil {
		return err
	}
	if o.list {
		if err := listFaults(e.stdout, selected); err != nil {
			return harnessError(err)
		}
		return nil
	}

	suite, err := e.locator().find(suiteBinary, o.suite, "suite")
	if err != nil {
		return err
	}
	out, err := openOut("mutate", o.out, args, e, mutationFile)
	if err != nil {
		return err
	}
	defer out.Close()
	outDir := out.Path()
	// The last run's reports become mutation.prev/ (one generation, only
	// when conform's): reports of an earlier run would be read as this one's.
	if err := out.MoveSub(mutationDir, mutationDir+".prev"); err != nil {
		return outError("mutate", o.out, err)
	}
	runsDir, err := out.Sub(mutationDir)
	if err != nil {
		return outError("mutate", o.out, err)
	}
	defer runsDir.Close()
	runDir := runsDir.Path()
	ctx := context.Background()
	dry, err := dryRun(ctx, suite)
	if err != nil {
		return err
	}
	cov := coverage.Compute(dry, rules.Default(), faults.Catalogue())

	job := func(name, filter string, faultIDs ...string) mutationJob {
		report := filepath.Join(runDir, name+".json")
		return mutationJob{name: name, report: report, log: filepath.Join(runDir, name+".log"), filter: filter,
			args: suiteRunArgs(filter, report, o.timeout, faultIDs...)}
	}
	var covered []string
	for _, f := range selected {
		if len(cov.SpecsFor(f.Rule)) > 0 {
			covered = append(covered, f.Rule)
		}
	}
	var baseline *killtable.Baseline
	var jobs []mutationJob
	var baselineJobs []string
	if len(covered) > 0 {
		// The baseline runs every covered rule's specs in one suite process
		// per part: as one part it was the longest job of the run by far.
		jobs, baselineJobs = planJobs(covered, ruleWaits(dry), o.parallel, job)
		baseline = &killtable.Baseline{LabelFilter: killtable.RuleFilter(covered...)}
		for _, j := range jobs {
			if slices.Contains(baselineJobs, j.name) {
				baseline.Parts = append(baseline.Parts, killtable.BaselinePart{Report: j.report, Log: j.log})
			}
		}
	}

	for _, j := range jobs { // written by the suite runs
		if err := runsDir.Record(filepath.Base(j.report), filepath.Base(j.log)); err != nil {
			return outError("mutate", o.out, err)
		}
	}
	fmt.Fprintf(e.stderr, "mutate: %d faults, %d with specs; %d suite runs, %d at a time\n", len(selected), len(covered), len(jobs), o.parallel)
	runs := runJobs(ctx, suite, runDir, jobs, o.parallel, o.timeout, e.stderr)

	var results []killtable.FaultResult
	for _, f := range selected {
		r := killtable.JudgeFault(f, len(cov.SpecsFor(f.Rule)), runs[f.Rule])
		if _, ran := runs[f.Rule]; ran {
			r.Report, r.Log = filepath.Join(runDir, f.Rule+".json"), filepath.Join(runDir, f.Rule+".log")
		}
		results = append(results, r)
	}
	var bad map[string]bool
	if baseline != nil {
		var all killtable.Run
		for _, name := range baselineJobs {
			r := runs[name]
			all.Reports = append(all.Reports, r.Reports...)
			if r.Err != nil {
				all.Err = errors.Join(all.Err, fmt.Errorf("%s: %w", name, r.Err))
			}
		}
		bad = killtable.JudgeBaseline(baseline, all)
	}
	m := killtable.Tally(results, baseline, bad)
	if !o.keepAll {
		if _, err := m.Prune(); err != nil {
			return harnessErrorf("mutate: prune the runs' reports: %w", err)
		}
	}

	fmt.Fprintln(e.stdout)
	if err := m.Print(e.stdout); err != nil {
		return harnessError(err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return harnessErrorf("encode %s: %w", mutationFile, err)
	}
	path := filepath.Join(outDir, mutationFile)
	if err := out.WriteFile(mutationFile, append(b, '\n'), 0o644); err != nil {
		return harnessErrorf("write %s: %w", mutationFile, err)
	}
	fmt.Fprintf(e.stdout, "kill table: %s\n", path)
	return mutationOutcome(m)
}

// mutationOutcome maps the kill table's outcome to conform's exit.
func mutationOutcome(m *killtable.Mutation) error {
	switch o, msg := m.Outcome(); o {
	case killtable.Unjudged:
		return harnessErrorf("%s", msg)
	case killtable.Weak:
		return failedf("%s", msg)
	}
	return nil
}

// runJobs runs the jobs, parallel at a time, each writing its output to its
// log, and returns each job's outcome by name.
func runJobs(ctx context.Context, suite, dir string, jobs []mutationJob, parallel int, timeout time.Duration, progress io.Writer) map[string]killtable.Run {
	var mu sync.Mutex
	out := map[string]killtable.Run{}
	done := 0
	queue := make(chan mutationJob)
	var wg sync.WaitGroup
	for range min(parallel, max(len(jobs), 1)) {
		wg.Go(func() {
			for j := range queue {
				run := runJob(ctx, suite, dir, j, timeout)
				mu.Lock()
				out[j.name] = run
				done++
				state := "done"
				if run.Err != nil {
					state = "error: " + firstLine(run.Err.Error())
				}
				fmt.Fprintf(progress, "mutate: [%d/%d] %s %s\n", done, len(jobs), j.name, state)
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

// jobEnv is the environment a mutation run adds: most runs live a fraction
// of a second, most of it building the suite's tree of specs, and the
// collector's default pace (GOGC=100) spent a quarter of that CPU on it.
// A GOGC of conform's own environment is kept. A target handed down to
// conform itself (target.SuiteEnv) is not passed on: a fault is judged on
// the embedded emulator only.
func jobEnv() []string {
	env := []string{target.SuiteEnv + "="}
	if _, set := os.LookupEnv("GOGC"); set {
		return env
	}
	return append(env, "GOGC=400")
}

// runJob runs the suite binary once. A failing spec is the expected way for
// a fault run to end, so the exit status matters only when no report came.
func runJob(ctx context.Context, suite, dir string, j mutationJob, timeout time.Duration) killtable.Run {
	logf, err := os.Create(j.log)
	if err != nil {
		return killtable.Run{Err: fmt.Errorf("log: %w", err)}
	}
	defer logf.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout+killGrace) // the suite's own --ginkgo.timeout should end it first
	defer cancel()
	status, err := child{path: suite, args: j.args, dir: dir, stdout: logf, stderr: logf, env: jobEnv()}.run(ctx)
	if err != nil {
		return killtable.Run{Err: err}
	}
	reports, err := ginkgojson.Read(j.report)
	if err != nil {
		return killtable.Run{Err: fmt.Errorf("suite exited with status %d and wrote no report (see %s): %w", status, j.log, err)}
	}
	return killtable.Run{Reports: reports}
}
