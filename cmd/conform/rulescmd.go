package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/reporters/coverage"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

const rulesSynopsis = `usage: conform rules [--json] [--check] [--suite PATH]

Lists the rule catalogue joined with the specs that check each rule, learnt
from a dry run of the suite binary (no spec runs, no target is needed).
--check exits 1 and lists the problems when a testable rule that is not
pending has no spec, or a spec names no rule, an unknown rule or an
out-of-scope one.`

// specColumn bounds the spec texts shown per rule in the table.
const specColumn = 70

type rulesOptions struct {
	json, check bool
	suite       string
	results     string
}

func rulesFlagSet(o *rulesOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.BoolVar(&o.json, "json", false, "print the joined catalogue as JSON")
	fs.BoolVar(&o.check, "check", false, "exit 1 listing coverage problems")
	fs.StringVar(&o.suite, "suite", "", "suite binary `path` (default: suites.test next to conform, in ./bin or on PATH)")
	fs.StringVar(&o.results, "results", "", "results.json of a full run against the emulator: with --check, a rule whose every spec skipped there is a problem")
	return fs
}

func cmdRules(args []string, e *env) error {
	o := &rulesOptions{}
	if err := parseFlags("rules", rulesFlagSet(o), args, e); err != nil {
		return err
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
	if o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		out := struct {
			*coverage.Coverage
			Totals coverage.Totals `json:"totals"`
		}{cov, cov.Totals()}
		if err := enc.Encode(out); err != nil {
			return harnessErrorf("encode: %w", err)
		}
	} else if err := printRules(e.stdout, cov); err != nil {
		return harnessError(err)
	}
	if o.check && len(cov.Problems) > 0 {
		w := e.stdout
		if o.json {
			w = e.stderr // keep stdout valid JSON
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
	dir, err := os.MkdirTemp("", "conform-dry-run-")
	if err != nil {
		return nil, harnessErrorf("dry run: %w", err)
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "dry-run.json")
	var output bytes.Buffer
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	c := child{path: suite, args: dryRunArgs(report), dir: dir, stdout: &output, stderr: &output}
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
	return coverage.Compute(reports, rules.Default()), nil
}

func dryRunArgs(report string) []string {
	return []string{"--ginkgo.dry-run", "--ginkgo.no-color", "--ginkgo.json-report=" + report}
}

func printRules(w io.Writer, cov *coverage.Coverage) error {
	// Widths are computed here rather than with text/tabwriter, whose column
	// blocks would break at the indented reason lines.
	status := func(r coverage.Rule) string {
		if r.Pending != "" {
			return "pending"
		}
		return string(r.Status)
	}
	wID, wStatus, wSection := len("ID"), len("STATUS"), len("SECTION")
	for _, r := range cov.Rules {
		wID, wStatus, wSection = max(wID, len(r.ID)), max(wStatus, len(status(r))), max(wSection, len([]rune(r.Section)))
	}
	bw := bufio.NewWriter(w)
	row := func(id, st, section, n, texts string) {
		fmt.Fprintf(bw, "%-*s  %-*s  %-*s  %5s  %s\n", wID, id, wStatus, st, wSection, section, n, texts)
	}
	row("ID", "STATUS", "SECTION", "SPECS", "SPEC TEXTS")
	for _, r := range cov.Rules {
		texts := strings.Join(r.Specs, "; ")
		if texts == "" {
			texts = "-"
		}
		row(r.ID, status(r), r.Section, strconv.Itoa(len(r.Specs)), clip(texts, specColumn))
		switch {
		case r.Pending != "":
			fmt.Fprintf(bw, "%*s  pending: %s\n", wID, "", r.Pending)
		case r.Reason != "":
			fmt.Fprintf(bw, "%*s  %s: %s\n", wID, "", r.Status, r.Reason)
		}
	}
	t := cov.Totals()
	fmt.Fprintf(bw, "\n%d rules: %d/%d testable with specs (%d pending), %d/%d ambiguous with specs, %d out of scope; %d specs\n",
		t.Rules, t.Covered, t.Testable, t.Pending, t.AmbCovered, t.Ambiguous, t.OutOfScope, t.Specs)
	return bw.Flush()
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

// tail returns the last n lines of s, for showing why a child failed.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
