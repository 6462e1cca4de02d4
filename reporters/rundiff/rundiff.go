// Package rundiff compares two conformance runs rule by rule: what newly
// fails (a regression), what was fixed, what is newly covered and what
// else changed outcome. Either run may be a results.json, a certification
// bundle directory or its .tar.gz. An interrupted run is incomplete: a rule
// it did not get to judge is set apart, never a regression.
package rundiff

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/conform-harness/conform/reporters/results"
)

// ResultsFile is the name of the results in a reports directory or bundle.
const ResultsFile = "results.json"

// Load reads the results of a run from a results.json, a directory that
// holds one, or a .tar.gz (or .tgz) bundle that holds one.
func Load(p string) (*results.Results, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", p, err)
	}
	var r io.Reader
	switch {
	case fi.IsDir():
		f, err := os.Open(filepath.Join(p, ResultsFile))
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", p, err)
		}
		defer f.Close()
		r = f
	case strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz"):
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", p, err)
		}
		defer f.Close()
		if r, err = fromTarGz(f); err != nil {
			return nil, fmt.Errorf("run %s: %w", p, err)
		}
	default:
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", p, err)
		}
		defer f.Close()
		r = f
	}
	var res results.Results
	if err := json.NewDecoder(bufio.NewReader(r)).Decode(&res); err != nil {
		return nil, fmt.Errorf("run %s: results: %w", p, err)
	}
	if len(res.Rules) == 0 {
		return nil, fmt.Errorf("run %s: results name no rule (is it a results.json of conform run?)", p)
	}
	return &res, nil
}

// fromTarGz finds the bundle's results.json (at the top of the bundle's
// directory, not inside a nested one).
func fromTarGz(f io.Reader) (io.Reader, error) {
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the bundle", ResultsFile)
		}
		if err != nil {
			return nil, err
		}
		name := path.Clean(h.Name)
		if path.Base(name) == ResultsFile && strings.Count(name, "/") <= 1 {
			return tr, nil
		}
	}
}

// Change is one rule whose outcome differs between the runs.
type Change struct {
	ID   string          `json:"id"`
	Area string          `json:"area,omitempty"`
	Old  results.Verdict `json:"old"`
	New  results.Verdict `json:"new"`
	// Why is the first failure or reason of the new run, or what changed
	// in an observation.
	Why string `json:"why,omitempty"`
}

// Diff is the comparison of two runs.
type Diff struct {
	// NewlyFailing are rules that fail (or cannot run in a certification)
	// in the new run and did not in the old: regressions.
	NewlyFailing []Change `json:"newly_failing"`
	// Fixed are rules that failed in the old run and pass in the new.
	Fixed []Change `json:"fixed"`
	// NewlyCovered are rules that the new run checks (pass or fail) and
	// the old did not.
	NewlyCovered []Change `json:"newly_covered"`
	// Changed are the other outcome changes (lost coverage, an ambiguous
	// rule observed differently, a rule added or removed).
	Changed []Change `json:"changed"`
	// NotJudged are the rules the new run, interrupted, did not get to
	// judge (interrupted, or in a certification not run): nothing is known
	// of them, so they are no regression.
	NotJudged []Change `json:"not_judged"`
	// OldInterrupted and NewInterrupted are set when that run was stopped
	// before its end: it is incomplete.
	OldInterrupted *results.Interruption `json:"old_interrupted,omitempty"`
	NewInterrupted *results.Interruption `json:"new_interrupted,omitempty"`
}

// Regressed reports whether the new run fails a rule the old did not; a
// rule the new run did not judge is none.
func (d *Diff) Regressed() bool { return len(d.NewlyFailing) > 0 }

// Incomplete reports whether either run was interrupted.
func (d *Diff) Incomplete() bool { return d.OldInterrupted != nil || d.NewInterrupted != nil }

const absent results.Verdict = "absent"

func failing(v results.Verdict) bool {
	return v == results.VerdictFailed || v == results.VerdictNotRun
}

func checked(v results.Verdict) bool {
	return v == results.VerdictPassed || v == results.VerdictFailed
}

// Compare compares the old run with the new, rule by rule, in the new
// run's order (then rules only the old run has).
func Compare(old, cur *results.Results) *Diff {
	d := &Diff{NewlyFailing: []Change{}, Fixed: []Change{}, NewlyCovered: []Change{}, Changed: []Change{}, NotJudged: []Change{},
		OldInterrupted: old.Interrupted, NewInterrupted: cur.Interrupted}
	before := map[string]results.RuleResult{}
	for _, r := range old.Rules {
		before[r.ID] = r
	}
	seen := map[string]bool{}
	for _, n := range cur.Rules {
		seen[n.ID] = true
		o, ok := before[n.ID]
		ov := o.Verdict
		if !ok {
			ov = absent
		}
		c := Change{ID: n.ID, Area: n.Area, Old: ov, New: n.Verdict}
		switch {
		case n.Verdict == results.VerdictInterrupted || (cur.Interrupted != nil && n.Verdict == results.VerdictNotRun):
			d.NotJudged = append(d.NotJudged, c)
		case failing(n.Verdict) && !failing(ov):
			c.Why = first(n.Failures)
			d.NewlyFailing = append(d.NewlyFailing, c)
		case failing(ov) && !(old.Interrupted != nil && ov == results.VerdictNotRun) && n.Verdict == results.VerdictPassed:
			d.Fixed = append(d.Fixed, c)
		case checked(n.Verdict) && !checked(ov):
			d.NewlyCovered = append(d.NewlyCovered, c)
		case ov != n.Verdict:
			c.Why = why(n)
			d.Changed = append(d.Changed, c)
		case n.Verdict == results.VerdictInformational && !sameObservations(o.Observations, n.Observations):
			c.Why = "observed now: " + first(n.Observations) + "; before: " + first(o.Observations)
			d.Changed = append(d.Changed, c)
		}
	}
	for _, o := range old.Rules {
		if !seen[o.ID] {
			d.Changed = append(d.Changed, Change{ID: o.ID, Area: o.Area, Old: o.Verdict, New: absent, Why: "not in the new run's catalogue"})
		}
	}
	return d
}

// noise are the parts of an observation that differ from run to run
// without the target behaving differently: loopback addresses and ports
// (the harness picks its own source addresses), timings.
var noise = []*regexp.Regexp{
	regexp.MustCompile(`\b127\.\d+\.\d+\.\d+(:\d+)?|\b(localhost|\[::1\]):\d+`),
	regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s)\b`),
}

// sameObservations compares two rules' observations as sets of lines, with the
// noise of each run taken out, so that the order parallel specs finished
// in or a port does not count as a change.
func sameObservations(a, b []string) bool {
	norm := func(obs []string) []string {
		var out []string
		for _, o := range obs {
			// One entry may hold several readings, one per line, in the
			// order parallel specs recorded them.
			for line := range strings.SplitSeq(o, "\n") {
				for _, re := range noise {
					line = re.ReplaceAllString(line, "…")
				}
				out = append(out, strings.TrimSpace(line))
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(norm(a), norm(b))
}

func why(r results.RuleResult) string {
	switch {
	case len(r.Failures) > 0:
		return first(r.Failures)
	case len(r.Inconclusive) > 0:
		return first(r.Inconclusive)
	case len(r.SkipReasons) > 0:
		return first(r.SkipReasons)
	case len(r.Observations) > 0:
		return "observed: " + first(r.Observations)
	}
	return ""
}

func first(items []string) string {
	for _, it := range items {
		if it != "" {
			line, _, _ := strings.Cut(strings.TrimSpace(it), "\n")
			return line
		}
	}
	return ""
}

// idsShown bounds the rule IDs listed as not judged; the JSON has them all.
const idsShown = 12

// Print writes the comparison for a person: each group with its rules,
// and a closing line with the counts.
func (d *Diff) Print(w io.Writer) error {
	bw := bufio.NewWriter(w)
	group := func(title string, cs []Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(bw, "%s (%d)\n", title, len(cs))
		for _, c := range cs {
			fmt.Fprintf(bw, "  %-32s %s -> %s", c.ID, c.Old, c.New)
			if c.Why != "" {
				fmt.Fprintf(bw, "  %s", c.Why)
			}
			fmt.Fprintln(bw)
		}
		fmt.Fprintln(bw)
	}
	group("NEWLY FAILING (regressions)", d.NewlyFailing)
	group("FIXED", d.Fixed)
	group("NEWLY COVERED", d.NewlyCovered)
	group("CHANGED OUTCOME", d.Changed)
	if i := d.OldInterrupted; i != nil {
		fmt.Fprintf(bw, "the old run is incomplete: %s; a rule it did not judge counts as newly covered when the new run judges it\n\n", i)
	}
	if i := d.NewInterrupted; i != nil {
		fmt.Fprintf(bw, "the new run is incomplete: %s\n  %d rules it did not judge are not compared (a rule that did not run is no regression)", i, len(d.NotJudged))
		for n, c := range d.NotJudged {
			if n == idsShown {
				fmt.Fprintf(bw, " … %d more", len(d.NotJudged)-n)
				break
			}
			sep := ", "
			if n == 0 {
				sep = ": "
			}
			fmt.Fprintf(bw, "%s%s", sep, c.ID)
		}
		fmt.Fprint(bw, "\n\n")
	}
	fmt.Fprintf(bw, "diff: %d newly failing, %d fixed, %d newly covered, %d changed",
		len(d.NewlyFailing), len(d.Fixed), len(d.NewlyCovered), len(d.Changed))
	if d.NewInterrupted != nil {
		fmt.Fprintf(bw, ", %d not judged (the new run was interrupted: incomplete)", len(d.NotJudged))
	}
	fmt.Fprintln(bw)
	return bw.Flush()
}
