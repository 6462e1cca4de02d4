package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/reporters/rundiff"
	"github.com/conform-harness/conform/rules"
)

// previousDir, inside the reports directory, keeps the readable reports of
// the run before (not its bulky ginkgo.json), so that what changed since
// is one diff away; one generation, never more.
const previousDir = "previous"

// rotated are the reports moved to previousDir when a run starts.
var rotated = []string{resultsReport, junitReport, htmlReport, runLog}

// rotatePrevious moves the last run's reports in out to out/previous,
// replacing the generation there (only when it is conform's: package
// outdir refuses to move or remove anything else). A certification starts
// from a clean bundle and keeps no previous run.
func rotatePrevious(out *outdir.Dir, certify bool) error {
	if certify {
		return out.RemoveSub(previousDir)
	}
	if !out.Has(resultsReport) {
		return nil // no earlier run here; an older previous/ stays the last one
	}
	return out.Rotate(previousDir, rotated...)
}

// openRunOut claims --out for conform run: refused when it is not
// conform's or in use, and, for a certification, when the .tar.gz beside it
// is not conform's; then the last run's reports become previous/ and
// what else an earlier run left is removed.
func openRunOut(o *runOptions, args []string, e *env) (*outdir.Dir, error) {
	if o.certify {
		if err := outdir.CheckArchive(o.out); err != nil {
			return nil, outError("run", o.out, err)
		}
	}
	out, err := openOut("run", o.out, args, e)
	if err != nil {
		return nil, err
	}
	err = rotatePrevious(out, o.certify)
	if err == nil {
		err = out.Remove(runFiles()...)
	}
	if err == nil {
		err = out.Record(ginkgoReport) // written by the Ginkgo CLI
	}
	if err != nil {
		out.Close()
		return nil, outError("run", o.out, err)
	}
	return out, nil
}

// runFiles are the files a run may write in --out.
func runFiles() []string {
	names := append([]string{ginkgoReport, junitReport, resultsReport, htmlReport, runLog}, certifyFiles...)
	for _, a := range rules.Areas() {
		if !slices.Contains(names, a.Document) {
			names = append(names, a.Document) // copied beside report.html (--spec-dir)
		}
	}
	return names
}

// sincePrevious prints one line comparing the run with the previous one in
// outDir, if there is one (the full list: conform report diff).
func sincePrevious(w io.Writer, outDir string, res *results.Results) {
	prev := filepath.Join(outDir, previousDir)
	old, err := rundiff.Load(prev)
	if err != nil {
		return
	}
	d := rundiff.Compare(old, res)
	incomplete := ""
	if d.NewInterrupted != nil {
		incomplete = fmt.Sprintf(", %d not judged (this run is incomplete)", len(d.NotJudged))
	}
	fmt.Fprintf(w, "since the previous run: %d newly failing, %d fixed, %d newly covered, %d changed%s (conform report diff %s %s)\n",
		len(d.NewlyFailing), len(d.Fixed), len(d.NewlyCovered), len(d.Changed), incomplete, prev, outDir)
}
