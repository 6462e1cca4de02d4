package load

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// Execute analyzes a run as it is recorded; the figures must be those of
// Analyze reading the results file back, failures, errors and schedule lag
// included.
func TestExecuteAnalyzesAsAnalyzeReadsBack(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%7 == 0 {
			http.Error(w, "nope", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	for _, rate := range []string{"300/s", "max"} {
		cfg := publicRun(t, srv, rate, 500*time.Millisecond)
		cfg.Workers, cfg.MaxWorkers, cfg.Connections = 1, 1, 1
		dir := t.TempDir()
		opt := AnalyzeOptions{Title: "same", Thresholds: thresholds(t, "p99<1s")}
		a, err := Execute(context.Background(), dir, cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.Summary.Requests == 0 || len(a.Summary.Errors) == 0 {
			t.Fatalf("%s: %d requests, errors %v: want some of each", rate, a.Summary.Requests, a.Summary.Errors)
		}
		b, err := Analyze([]Source{{Path: filepath.Join(dir, ResultsFile), Runs: []RunInfo{*a.Summary.Runs[0].Run}}}, opt)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(a.Summary)
		want, _ := json.Marshal(b.Summary)
		if string(got) != string(want) {
			t.Errorf("%s: as recorded\n%s\nread back\n%s", rate, got, want)
		}
		var pa, pb bytes.Buffer
		if _, err := a.Plot.WriteTo(&pa); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Plot.WriteTo(&pb); err != nil {
			t.Fatal(err)
		}
		if pa.String() != pb.String() {
			t.Errorf("%s: the plot differs from the one read back", rate)
		}
	}
}
