package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/reporters/rundiff"
)

// previousDir, inside the reports directory, keeps the readable reports of
// the run before (not its bulky ginkgo.json), so that what changed since
// is one diff away; one generation, never more.
const previousDir = "previous"

// rotated are the reports moved to previousDir when a run starts.
var rotated = []string{resultsReport, junitReport, htmlReport, runLog}

// rotatePrevious moves the last run's reports in outDir to outDir/previous.
// A certification starts from a clean bundle and keeps no previous run.
func rotatePrevious(outDir string, certify bool) error {
	prev := filepath.Join(outDir, previousDir)
	if certify {
		return os.RemoveAll(prev)
	}
	if _, err := os.Stat(filepath.Join(outDir, resultsReport)); err != nil {
		return nil // no earlier run here; an older previous/ stays the last one
	}
	if err := os.RemoveAll(prev); err != nil {
		return err
	}
	if err := os.MkdirAll(prev, 0o755); err != nil {
		return err
	}
	for _, name := range rotated {
		err := os.Rename(filepath.Join(outDir, name), filepath.Join(prev, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
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
