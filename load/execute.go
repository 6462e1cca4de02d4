package load

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Execute makes one capacity run into dir: it streams the results to
// dir/results.bin, then analyzes them into summary.json and report.html.
// cfg.Results is set by Execute. A run that could not be carried out (a
// refused target, an unwritable results file) is an error; a run that was
// carried out is judged in the returned Summary's Verdict.
func Execute(ctx context.Context, dir string, cfg RunConfig, opt AnalyzeOptions) (*Analysis, error) {
	path := filepath.Join(dir, ResultsFile)
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	cfg.Results = f
	info, runErr := Run(ctx, cfg)
	if err := f.Close(); runErr == nil && err != nil {
		runErr = fmt.Errorf("load: write results: %w", err)
	}
	if runErr != nil {
		return nil, runErr
	}
	a, err := Analyze([]Source{{Path: path, Runs: []RunInfo{info}}}, opt)
	if err != nil {
		return nil, err
	}
	if err := a.WriteReports(dir); err != nil {
		return nil, err
	}
	return a, nil
}
