package load

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// SourceFor returns the Source of a results file, with the runs named in
// the summary.json beside it when there is one.
func SourceFor(path string) (Source, error) {
	src := Source{Path: path}
	s, err := ReadSummary(filepath.Join(filepath.Dir(path), SummaryFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return src, nil
	case err != nil:
		return src, err
	}
	for _, r := range s.Runs {
		if r.Run != nil {
			src.Runs = append(src.Runs, *r.Run)
		}
	}
	return src, nil
}

// Merge combines the results files of several workers into one report in
// dir: the merged results.bin (one gob stream, which Vegeta reads),
// summary.json and report.html. Each file's runs are read from the
// summary.json beside it, so that every worker is judged against its own
// requested rate.
func Merge(dir string, paths []string, opt AnalyzeOptions) (*Analysis, error) {
	out := filepath.Join(dir, ResultsFile)
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	sources := make([]Source, 0, len(paths))
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if abs == outAbs {
			return nil, fmt.Errorf("merge: %s is an input; write the merged report to another directory", out)
		}
		src, err := SourceFor(p)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		sources = append(sources, src)
	}
	tmp, err := os.CreateTemp(dir, ResultsFile+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	bw := bufio.NewWriterSize(tmp, 1<<16)
	opt.Out = vegeta.NewEncoder(bw)
	a, err := Analyze(sources, opt)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := a.WriteReports(dir); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return a, nil
}
