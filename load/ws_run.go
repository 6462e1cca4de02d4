package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// RunStream makes one stream run and returns what it measured. Cancelling
// ctx stops it early: what was measured is kept and the record says it was
// interrupted.
func RunStream(ctx context.Context, cfg StreamConfig) (StreamRecord, error) {
	if err := cfg.check(); err != nil {
		return StreamRecord{}, err
	}
	info := StreamRunInfo{Scenario: cfg.Scenario, Attack: fmt.Sprintf("%s/w%d/%s", cfg.Scenario, cfg.WorkerID, nonce(5)),
		WorkerID: cfg.WorkerID, Target: cfg.url(), Rate: cfg.Rate, Duration: cfg.Duration, Started: time.Now()}
	for _, a := range cfg.SourceAddrs {
		info.SourceAddrs = append(info.SourceAddrs, a.String())
	}
	if len(info.SourceAddrs) > 8 {
		info.SourceAddrs = append(info.SourceAddrs[:4], "…", strconv.Itoa(len(cfg.SourceAddrs))+" in all")
	}
	var (
		rec StreamRecord
		err error
	)
	switch cfg.Scenario {
	case ScenarioWSMarket, ScenarioWS2Market:
		info.Subscribers, info.Channels, info.Symbols = cfg.Subscribers, cfg.Channels, cfg.symbols()
		rec, err = runMarket(ctx, &cfg, &info)
	case ScenarioWSConnect:
		rec, err = runConnect(ctx, &cfg, &info)
	case ScenarioWSTrading:
		rec, err = runTrading(ctx, &cfg, &info, v3Trading)
	case ScenarioWS2Trading:
		rec, err = runTrading(ctx, &cfg, &info, v2Trading)
	}
	if ctx.Err() != nil {
		rec.Run.Interrupted = true
	}
	return rec, err
}

// ExecuteStream makes one stream run into dir: stream.json, summary.json
// and report.html.
func ExecuteStream(ctx context.Context, dir string, cfg StreamConfig, title string, ts []Threshold) (*StreamAnalysis, error) {
	rec, err := RunStream(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := WriteStreamRecords(filepath.Join(dir, StreamResultsFile), []StreamRecord{rec}); err != nil {
		return nil, err
	}
	a := AnalyzeStream([]StreamRecord{rec}, title, ts)
	return a, a.WriteReports(dir)
}

// MergeStream combines the stream.json files of several workers into one
// report in dir.
func MergeStream(dir string, paths []string, title string, ts []Threshold) (*StreamAnalysis, error) {
	out, err := filepath.Abs(filepath.Join(dir, StreamResultsFile))
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	var all []StreamRecord
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil && abs == out {
			return nil, fmt.Errorf("merge: %s is an input; write the merged report to another directory", p)
		}
		recs, err := ReadStreamRecords(p)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		all = append(all, recs...)
	}
	if len(all) == 0 {
		return nil, errors.New("merge: no stream records")
	}
	if err := WriteStreamRecords(out, all); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	a := AnalyzeStream(all, title, ts)
	if err := a.WriteReports(dir); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return a, nil
}

// IsStreamResults tells whether a results file is a stream run's.
func IsStreamResults(path string) bool {
	if filepath.Base(path) == StreamResultsFile {
		return true
	}
	b := make([]byte, 1)
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	n, _ := f.Read(b)
	return n == 1 && b[0] == '['
}
