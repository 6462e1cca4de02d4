package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/internal/mutation"
	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/rules"
)

const mutateSynopsis = `usage: conform mutate [--only IDS] [--parallel N] [--out DIR] [--suite PATH] [--baseline FILE] [--list]

Mutation testing of the suite: for each emulator fault, runs the specs of the
fault's rule (--ginkgo.label-filter=rule:<ID>) against an embedded emulator
with that one fault on, and expects at least one of them to fail (KILLED).
A baseline run of the same specs without faults must pass (--baseline: read
from the report of a whole conform run of the same suite against the
embedded emulator instead, e.g. reports/ginkgo.json). Writes
<out>/mutation.json (the kill table, a summary of every run) and keeps the
report and log of a run under <out>/mutation/ only where someone has to
look: survivors, errors, a failing baseline (--keep-all keeps every one).
The previous run's mutation/ is kept as mutation.prev/. A fault that
survives its run is run a second time, two at a time, after the others; a
kill on that second run says so in the table.
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
	baseline string
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
	fs.StringVar(&o.baseline, "baseline", "", "the Ginkgo report (ginkgo.json) of a whole conform run of the same suite against the embedded emulator: the baseline, read instead of run")
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

	var covered []string
	for _, f := range selected {
		if len(cov.SpecsFor(f.Rule)) > 0 {
			covered = append(covered, f.Rule)
		}
	}
	plan := mutation.NewPlan(covered, mutation.Waits(dry), o.parallel, runDir, o.timeout)
	if o.baseline != "" {
		if err := plan.UseBaseline(o.baseline); err != nil {
			return usageErrorf("mutate: --baseline: %v", err)
		}
	}
	// Each run builds the tree of its rules' top-level containers only.
	plan.Confine(mutation.Containers(dry))
	for _, j := range plan.Jobs { // written by the suite runs
		if err := runsDir.Record(filepath.Base(j.Report), filepath.Base(j.Log)); err != nil {
			return outError("mutate", o.out, err)
		}
	}
	fmt.Fprintf(e.stderr, "mutate: %d faults, %d with specs; %d suite runs, %d at a time\n", len(selected), len(covered), len(plan.Jobs), o.parallel)
	runner := mutation.Runner{Suite: suite, Dir: runDir, Parallel: o.parallel, Timeout: o.timeout, Grace: killGrace, Exec: execChild, Progress: e.stderr}
	runs := runner.Run(ctx, plan.Jobs)
	specs := func(rule string) int { return len(cov.SpecsFor(rule)) }
	m := runner.Again(ctx, selected, specs, plan, runs, mutation.Judge(selected, specs, plan, runs))
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

// execChild runs a mutation run as conform runs every child: in a process
// group of its own, interrupted with conform and killed with it.
func execChild(ctx context.Context, c mutation.Cmd) (int, error) {
	return child{path: c.Path, args: c.Args, dir: c.Dir, stdout: c.Output, stderr: c.Output, env: c.Env}.run(ctx)
}
