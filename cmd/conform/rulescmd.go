package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

const rulesSynopsis = `usage: conform rules [--json | --yaml | --id ID | --emulator-only] [--check] [--suite PATH]

Lists the rule catalogue joined with the specs that check each rule (their
area and files), learnt from a dry run of the suite binary (no spec runs, no
target is needed), and the emulator fault that breaks each rule.
--id ID prints one rule end to end: its sentence, section, specs (file:line),
fault and where the reports carry it.
--yaml prints the generated rules.yaml checked in at the repository root.
--emulator-only lists the rules judged only (or in part) where the
emulator's control plane is, then those judged only (or in part) with source
addresses of their own, each with the reason from the catalogue: what a
certification of a remote sandbox lists as not applicable.
--check exits 1 and lists the problems when a testable rule that is not
pending has no spec or no fault, or a spec names no rule, an unknown rule or
an out-of-scope one.`

type rulesOptions struct {
	json, yaml, check bool
	emulatorOnly      bool
	id                string
	suite             string
	results           string
}

func rulesFlagSet(o *rulesOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.BoolVar(&o.json, "json", false, "print the joined catalogue as JSON")
	fs.BoolVar(&o.yaml, "yaml", false, "print the catalogue as rules.yaml (rule, area, section, sentence, specs, fault)")
	fs.StringVar(&o.id, "id", "", "print one rule `ID` end to end: sentence, specs and their files, fault, report rows")
	fs.BoolVar(&o.check, "check", false, "exit 1 listing coverage problems")
	fs.BoolVar(&o.emulatorOnly, "emulator-only", false, "list the rules that need the emulator's control plane, with the reason")
	fs.StringVar(&o.suite, "suite", "", "suite binary `path` (default: suites.test next to conform, in ./bin or on PATH)")
	fs.StringVar(&o.results, "results", "", "results.json of a full run against the emulator: with --check, a rule whose every spec skipped there is a problem")
	return fs
}

func cmdRules(args []string, e *env) error {
	o := &rulesOptions{}
	if err := parseFlags("rules", rulesFlagSet(o), args, e); err != nil {
		return err
	}
	if n := btoi(o.json) + btoi(o.yaml) + btoi(o.id != "") + btoi(o.emulatorOnly); n > 1 {
		return usageErrorf("rules: --json, --yaml, --id and --emulator-only exclude each other")
	}
	if o.id != "" {
		if _, ok := rules.Default().Lookup(o.id); !ok {
			return usageErrorf("rules: --id %s: no such rule in the catalogue", o.id)
		}
	}
	suite, err := e.locator().find(suiteBinary, o.suite, "suite")
	if err != nil {
		return err
	}
	cov, err := dryRunCoverage(context.Background(), suite)
	if err != nil {
		return err
	}
	if o.results != "" {
		run, err := readRunOutcomes(o.results)
		if err != nil {
			return usageErrorf("rules: --results: %v", err)
		}
		cov.CheckRun(run)
	}
	switch {
	case o.id != "":
		r, _ := cov.Rule(o.id)
		if err := r.Print(e.stdout); err != nil {
			return harnessError(err)
		}
	case o.yaml:
		if err := rules.WriteYAML(e.stdout, cov.Joined()); err != nil {
			return harnessError(err)
		}
	case o.emulatorOnly:
		if err := cov.PrintEmulatorOnly(e.stdout); err != nil {
			return harnessError(err)
		}
	case o.json:
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		out := struct {
			*coverage.Coverage
			Totals coverage.Totals `json:"totals"`
		}{cov, cov.Totals()}
		if err := enc.Encode(out); err != nil {
			return harnessErrorf("encode: %w", err)
		}
	default:
		if err := cov.Print(e.stdout); err != nil {
			return harnessError(err)
		}
	}
	if o.check && len(cov.Problems) > 0 {
		w := e.stdout
		if o.json || o.yaml {
			w = e.stderr // keep stdout valid JSON or YAML
		}
		fmt.Fprintf(w, "\ncoverage problems (%d):\n", len(cov.Problems))
		for _, p := range cov.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
		return failedf("rules --check: %d coverage problems", len(cov.Problems))
	}
	return nil
}

// readRunOutcomes reads what a run's results.json made of each rule.
func readRunOutcomes(path string) (map[string]coverage.RunOutcome, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res struct {
		Specs []struct {
			Rules      []string `json:"rules"`
			Labels     []string `json:"labels"`
			Outcome    string   `json:"outcome"`
			SkipReason string   `json:"skip_reason"`
		} `json:"specs"`
		Rules []struct {
			ID      string `json:"id"`
			Verdict string `json:"verdict"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]coverage.RunOutcome{}
	for _, r := range res.Rules {
		out[r.ID] = coverage.RunOutcome{Verdict: r.Verdict}
	}
	for _, sp := range res.Specs {
		if sp.Outcome != "skipped" {
			continue
		}
		for _, id := range sp.Rules {
			o := out[id]
			o.OnRequest = o.OnRequest || slices.Contains(sp.Labels, "slow")
			if o.Reason == "" {
				o.Reason = firstLine(sp.SkipReason)
			}
			out[id] = o
		}
	}
	return out, nil
}

// dryRunCoverage runs the suite binary in dry-run mode, which lists every
// spec with its labels without running any, and joins it with the catalogue.
func dryRunCoverage(ctx context.Context, suite string) (*coverage.Coverage, error) {
	reports, err := dryRun(ctx, suite)
	if err != nil {
		return nil, err
	}
	return coverage.Compute(reports, rules.Default(), faults.Catalogue()), nil
}

// dryRun runs the suite binary in dry-run mode and returns its report.
func dryRun(ctx context.Context, suite string) ([]types.Report, error) {
	return dryRunWith(ctx, suite, nil)
}

// dryRunWith is dryRun with more suite arguments (a selection) and
// environment (a target handoff) for the suite process.
func dryRunWith(ctx context.Context, suite string, env []string, args ...string) ([]types.Report, error) {
	dir, err := os.MkdirTemp("", "conform-dry-run-")
	if err != nil {
		return nil, harnessErrorf("dry run: %w", err)
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "dry-run.json")
	var output bytes.Buffer
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	c := child{path: suite, args: append(dryRunArgs(report), args...), dir: dir, stdout: &output, stderr: &output, env: env}
	status, err := c.run(ctx)
	if err != nil {
		return nil, harnessError(err)
	}
	reports, err := ginkgojson.Read(report)
	if err != nil {
		return nil, harnessErrorf("dry run of %s (status %d) wrote no report: %v\n%s", suite, status, err, tail(output.String(), 20))
	}
	if status != 0 {
		return nil, harnessErrorf("dry run of %s failed with status %d:\n%s", suite, status, tail(output.String(), 20))
	}
	return reports, nil
}

func dryRunArgs(report string) []string {
	return []string{"--ginkgo.dry-run", "--ginkgo.no-color", "--ginkgo.json-report=" + report}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tail returns the last n lines of s, for showing why a child failed.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
