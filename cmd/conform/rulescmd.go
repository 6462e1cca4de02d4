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

// specColumn bounds the spec texts shown per rule in the table.
const specColumn = 70

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
		if err := printRule(e.stdout, r); err != nil {
			return harnessError(err)
		}
	case o.yaml:
		if err := rules.WriteYAML(e.stdout, cov.Joined()); err != nil {
			return harnessError(err)
		}
	case o.emulatorOnly:
		if err := printEmulatorOnly(e.stdout, cov); err != nil {
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
		if err := printRules(e.stdout, cov); err != nil {
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
	return reports, nil
}

func dryRunArgs(report string) []string {
	return []string{"--ginkgo.dry-run", "--ginkgo.no-color", "--ginkgo.json-report=" + report}
}

func printRules(w io.Writer, cov *coverage.Coverage) error {
	// Widths are computed here rather than with text/tabwriter, whose column
	// blocks would break at the indented reason lines.
	wID, wArea, wStatus := len("ID"), len("AREA"), len("STATUS")
	for _, r := range cov.Rules {
		wID, wArea, wStatus = max(wID, len(r.ID)), max(wArea, len(r.Area)), max(wStatus, len(r.StatusName()))
	}
	bw := bufio.NewWriter(w)
	row := func(id, area, st, n, files string) {
		fmt.Fprintf(bw, "%-*s  %-*s  %-*s  %5s  %s\n", wID, id, wArea, area, wStatus, st, n, files)
	}
	row("ID", "AREA", "STATUS", "SPECS", "SPEC FILES")
	for _, r := range cov.Rules {
		files := strings.Join(specFiles(r.Locations), ", ")
		if files == "" {
			files = "-"
		}
		row(r.ID, r.Area, r.StatusName(), strconv.Itoa(len(r.Specs)), clip(files, specColumn))
		switch {
		case r.Pending != "":
			fmt.Fprintf(bw, "%*s  pending: %s\n", wID, "", r.Pending)
		case r.Reason != "":
			fmt.Fprintf(bw, "%*s  %s: %s\n", wID, "", r.Status, r.Reason)
		}
		if r.EmulatorOnly != "" {
			fmt.Fprintf(bw, "%*s  emulator-only: %s\n", wID, "", r.EmulatorOnly)
		}
		if r.SecondAddress != "" {
			fmt.Fprintf(bw, "%*s  second address: %s\n", wID, "", r.SecondAddress)
		}
	}
	t := cov.Totals()
	fmt.Fprintf(bw, "\n%d rules: %d/%d testable with specs (%d pending), %d/%d ambiguous with specs, %d out of scope; %d specs\n",
		t.Rules, t.Covered, t.Testable, t.Pending, t.AmbCovered, t.Ambiguous, t.OutOfScope, t.Specs)
	return bw.Flush()
}

// specFiles lists the distinct files of spec locations (file:line), in order.
func specFiles(locs []string) []string {
	var out []string
	for _, l := range locs {
		f, _, _ := strings.Cut(l, ":")
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// printRule shows one rule's four places: its sentence in the catalogue,
// its specs, its emulator fault and its rows in the reports.
func printRule(w io.Writer, r coverage.Rule) error {
	bw := bufio.NewWriter(w)
	area, _ := rules.LookupArea(r.Area)
	fmt.Fprintf(bw, "%s  (%s)\n", r.ID, r.StatusName())
	fmt.Fprintf(bw, "  sentence: %s\n", r.Statement)
	fmt.Fprintf(bw, "  section:  %s (%s)\n", r.Section, area.Document)
	fmt.Fprintf(bw, "  area:     %s  (rules/%s.go, emulator/faults/%s.go, %s)\n", r.Area, r.Area, r.Area, suiteDir(r.Area))
	if r.Reason != "" {
		fmt.Fprintf(bw, "  %s: %s\n", r.Status, r.Reason)
	}
	if r.Pending != "" {
		fmt.Fprintf(bw, "  pending:  %s\n", r.Pending)
	}
	if r.EmulatorOnly != "" {
		fmt.Fprintf(bw, "  emulator-only: %s\n", r.EmulatorOnly)
	}
	if r.SecondAddress != "" {
		fmt.Fprintf(bw, "  second address: %s\n", r.SecondAddress)
	}
	fmt.Fprintf(bw, "  specs:    %d\n", len(r.Specs))
	for i, text := range r.Specs {
		fmt.Fprintf(bw, "    %s\n      %s\n", r.Locations[i], text)
	}
	fault := r.Fault
	if fault == "" {
		fault = "none"
	}
	fmt.Fprintf(bw, "  fault:    %s  (conform emulate --faults %s; conform mutate --only %s)\n", fault, r.ID, r.ID)
	fmt.Fprintf(bw, "  reports:  results.json rules[id=%s]; junit.xml testcase %q; report.html#%s; select with --label-filter 'rule:%s'\n", r.ID, r.ID, r.ID, r.ID)
	return bw.Flush()
}

// printEmulatorOnly lists the rules the catalogue marks emulator-only, with
// the reason and the specs that carry the emulator-only label.
func printEmulatorOnly(w io.Writer, cov *coverage.Coverage) error {
	bw := bufio.NewWriter(w)
	n := 0
	for _, r := range cov.Rules {
		if r.EmulatorOnly == "" {
			continue
		}
		n++
		fmt.Fprintf(bw, "%s  (%s)\n  %s\n", r.ID, r.Area, r.EmulatorOnly)
	}
	fmt.Fprintf(bw, "\n%d rules need the emulator's control plane (reset, fund, clock), all or in part; on a sandbox their specs skip with the reason\n\n", n)
	n = 0
	for _, r := range cov.Rules {
		if r.SecondAddress == "" {
			continue
		}
		n++
		fmt.Fprintf(bw, "%s  (%s)\n  %s\n", r.ID, r.Area, r.SecondAddress)
	}
	fmt.Fprintf(bw, "\n%d rules need source addresses of their own, all or in part; from one address (a sandbox across a network) they end inconclusive with the reason\n", n)
	fmt.Fprintf(bw, "a certification of a target without the control plane, or reached from one address, lists these as not applicable, not as failures\n")
	return bw.Flush()
}

// suiteDir is where an area's specs live.
func suiteDir(area string) string { return "suites/" + area + "/" }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
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
