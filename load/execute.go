package load

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Execute makes one capacity run into dir: it streams the results to
// dir/results.bin and analyzes them as they are written (as Analyze would
// read them back, without reading them back), then writes summary.json
// and report.html.
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
	z := newAnalyzer(opt)
	cfg.analyze = func(start RunInfo) func(*vegeta.Result) error { return z.source(0, []RunInfo{start}) }
	info, runErr := Run(ctx, cfg)
	if err := f.Close(); runErr == nil && err != nil {
		runErr = fmt.Errorf("load: write results: %w", err)
	}
	if runErr != nil {
		return nil, runErr
	}
	if ri := z.infos[info.Attack]; ri != nil {
		*ri = info // as it ended
	}
	a := z.finish()
	if err := a.WriteReports(dir); err != nil {
		return nil, err
	}
	return a, nil
}
