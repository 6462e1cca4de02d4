package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/conform-harness/conform/load"
)

// loadMergeOptions are the flags of conform load merge.
type loadMergeOptions struct {
	out           string
	thresholds    thresholdList
	requestedRate float64
	title         string
}

func loadMergeFlagSet(o *loadMergeOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("load merge", flag.ContinueOnError)
	fs.StringVar(&o.out, "out", "", "output `dir` for the merged results.bin (or stream.json), summary.json and report.html (required)")
	fs.Var(&o.thresholds, "threshold", "a threshold `expr` such as p99<50ms, success>0.99, rate>1000 (repeatable)")
	fs.Float64Var(&o.requestedRate, "requested-rate", 0, "total requested rate, for results files without a summary.json beside them")
	fs.StringVar(&o.title, "title", "", "report title (default: conform load merge of N files)")
	return fs
}

// cmdLoadMerge combines the results files of several workers into one report.
func cmdLoadMerge(args []string, e *env) error {
	o := &loadMergeOptions{}
	fs := loadMergeFlagSet(o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			printUsage(e.stdout, commands()["load"])
			fs.SetOutput(e.stdout)
			io.WriteString(e.stdout, "\nFlags of load merge:\n")
			fs.PrintDefaults()
			return errHelp
		}
		return usageErrorf("load merge: %v (see conform help load)", err)
	}
	files := fs.Args()
	switch {
	case o.out == "":
		return usageErrorf("load merge: --out is required")
	case len(files) == 0:
		return usageErrorf("load merge: give the results files to merge")
	case o.requestedRate < 0:
		return usageErrorf("load merge: --requested-rate must not be negative")
	}
	merged, err := filepath.Abs(filepath.Join(o.out, load.ResultsFile))
	if err != nil {
		return usageErrorf("load merge: --out %s: %v", o.out, err)
	}
	for _, f := range files {
		if strings.HasPrefix(f, "-") {
			return usageErrorf("load merge: flag %s after the files: put flags first", f)
		}
		if _, err := os.Stat(f); err != nil {
			return usageErrorf("load merge: %v", err)
		}
		if abs, err := filepath.Abs(f); err == nil && abs == merged {
			return usageErrorf("load merge: %s is an input: write the merged report to another --out", f)
		}
	}
	streams := 0
	for _, f := range files {
		if load.IsStreamResults(f) {
			streams++
		}
	}
	if streams > 0 && streams < len(files) {
		return usageErrorf("load merge: give either REST results (results.bin) or stream results (stream.json), not both")
	}
	loadFiles := []string{load.ResultsFile, load.SummaryFile, load.ReportFile}
	stale := append(loadFiles, load.StreamResultsFile)
	if streams > 0 {
		loadFiles = []string{load.StreamResultsFile, load.SummaryFile, load.ReportFile}
	}
	out, err := openOut("load merge", o.out, args, e, stale...)
	if err != nil {
		return err
	}
	defer out.Close()
	if err := out.Record(loadFiles...); err != nil { // written by package load
		return outError("load merge", o.out, err)
	}
	outDir := out.Path()
	title := o.title
	if title == "" {
		title = "conform load merge of " + plural(len(files), "results file")
	}
	if streams > 0 {
		ts := []load.Threshold(o.thresholds)
		if o.thresholds == nil {
			ts = defaultStreamThresholds("")
		}
		a, err := load.MergeStream(outDir, files, title, ts)
		if err != nil {
			return harnessError(err)
		}
		return streamOutcome(a, outDir, e.stdout, nil)
	}
	a, err := load.Merge(outDir, files, load.AnalyzeOptions{Title: title, Thresholds: o.thresholds.withDefault(), RequestedRate: o.requestedRate})
	if err != nil {
		return harnessError(err)
	}
	return loadOutcome(a, outDir, e.stdout, nil)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
