package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// okServer answers every request with a small JSON body.
func okServer(t *testing.T, delay time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if delay > 0 {
			time.Sleep(delay)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func publicRun(t *testing.T, srv *httptest.Server, rate string, d time.Duration) RunConfig {
	t.Helper()
	base := testBase(t, srv.URL)
	s, err := NewScenario(ScenarioPublic, ScenarioConfig{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseRate(rate)
	if err != nil {
		t.Fatal(err)
	}
	return RunConfig{Base: base, Scenario: s, Pacing: p, Duration: d, Workers: 4, MaxWorkers: 50, Connections: 20}
}

func thresholds(t *testing.T, exprs ...string) []Threshold {
	t.Helper()
	var ts []Threshold
	for _, e := range exprs {
		th, err := ParseThreshold(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	return ts
}

func countResults(t *testing.T, path string) (n int, attacks map[string]int) {
	t.Helper()
	attacks = map[string]int{}
	err := decodeFile(path, func(r *vegeta.Result) error {
		n++
		attacks[r.Attack]++
		if r.Code == 200 && (r.Body != nil || r.Headers != nil) {
			t.Errorf("a successful result kept its body or headers")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n, attacks
}

func TestExecuteVerdicts(t *testing.T) {
	cases := []struct {
		name       string
		delay      time.Duration
		rate       string
		tune       func(*RunConfig)
		thresholds []string
		status     string
		problem    string
	}{
		{"pass", 0, "200/s", nil, []string{"p99<1s", "success>0.99", "rate>190"}, StatusPass, ""},
		{"breached", 0, "200/s", nil, []string{"p99<1s", "max<1ns"}, StatusBreached, ""},
		// One worker on one connection against 20ms answers manages about
		// 50/s of the 200/s asked for: invalid, whatever the thresholds say.
		{"generator short", 20 * time.Millisecond, "200/s", func(c *RunConfig) { c.Workers, c.MaxWorkers, c.Connections = 1, 1, 1 },
			[]string{"p99<1s"}, StatusInvalid, "short"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := okServer(t, c.delay)
			cfg := publicRun(t, srv, c.rate, time.Second)
			if c.tune != nil {
				c.tune(&cfg)
			}
			var progress bytes.Buffer
			cfg.Progress, cfg.ProgressEvery = &progress, 200*time.Millisecond
			dir := t.TempDir()
			a, err := Execute(context.Background(), dir, cfg, AnalyzeOptions{Title: "test " + c.name, Thresholds: thresholds(t, c.thresholds...)})
			if err == nil && c.status != StatusInvalid && a.Summary.Verdict.Status == StatusInvalid {
				// A busy machine (make test's other steps, another user) left
				// the generator short of the rate: the verdict is right to say
				// INVALID, and says nothing of the case; measure it once more.
				t.Logf("first run INVALID on a busy machine (%v): once more", a.Summary.Verdict.Problems)
				dir = t.TempDir()
				a, err = Execute(context.Background(), dir, cfg, AnalyzeOptions{Title: "test " + c.name, Thresholds: thresholds(t, c.thresholds...)})
			}
			if err != nil {
				t.Fatal(err)
			}
			s := a.Summary
			if s.Verdict.Status != c.status {
				t.Errorf("verdict %s %v %v, want %s", s.Verdict.Status, s.Verdict.Problems, s.Verdict.Thresholds, c.status)
			}
			if c.problem != "" && !strings.Contains(strings.Join(s.Verdict.Problems, "\n"), c.problem) {
				t.Errorf("problems %q lack %q", s.Verdict.Problems, c.problem)
			}
			n, attacks := countResults(t, filepath.Join(dir, ResultsFile))
			if uint64(n) != s.Requests || len(attacks) != 1 || len(s.Runs) != 1 || s.Runs[0].Run == nil || s.Runs[0].Run.Sent != uint64(n) {
				t.Errorf("results.bin holds %d results of %v; summary %d requests, runs %+v", n, attacks, s.Requests, s.Runs)
			}
			if c.status != StatusInvalid && (s.Requests < 195 || s.Requests > 205 || s.Unsent > 2) {
				t.Errorf("%d requests (%d unsent) at 200/s for 1s", s.Requests, s.Unsent)
			}
			for _, f := range []string{SummaryFile, ReportFile} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
			back, err := ReadSummary(filepath.Join(dir, SummaryFile))
			if err != nil || back.Requests != s.Requests || back.Verdict.Status != s.Verdict.Status {
				t.Errorf("summary.json: %+v %v", back, err)
			}
			html, _ := os.ReadFile(filepath.Join(dir, ReportFile))
			for _, want := range []string{"<svg", "Latency over time", "srcdoc=", c.status} {
				if !bytes.Contains(html, []byte(want)) {
					t.Errorf("report.html lacks %q", want)
				}
			}
			if lines := strings.Count(progress.String(), "\n"); lines < 3 || !strings.Contains(progress.String(), "p99") {
				t.Errorf("progress:\n%s", progress.String())
			}
			var text bytes.Buffer
			if err := s.WriteText(&text); err != nil || !strings.Contains(text.String(), "verdict") || !strings.Contains(text.String(), "status codes") {
				t.Errorf("console summary:\n%s", text.String())
			}
		})
	}
}

// At max rate, through either engine, every request is answered and
// recorded, and the report's latency plot is complete (its points come
// in sequence order with rising timestamps). Not parallel: a max-rate
// run takes the machine.
func TestExecuteMaxRate(t *testing.T) {
	for _, std := range []bool{false, true} {
		t.Run(fmt.Sprintf("net/http %v", std), func(t *testing.T) {
			cfg := publicRun(t, okServer(t, 0), "max", 500*time.Millisecond)
			cfg.StdClient = std
			dir := t.TempDir()
			a, err := Execute(context.Background(), dir, cfg, AnalyzeOptions{Thresholds: thresholds(t, "success>=1")})
			if err != nil {
				t.Fatal(err)
			}
			s := a.Summary
			if s.Verdict.Status != StatusPass || s.Requests < 100 || a.PlotNote != "" {
				t.Errorf("verdict %s %v, %d requests, plot note %q", s.Verdict.Status, s.Verdict.Problems, s.Requests, a.PlotNote)
			}
			if n, _ := countResults(t, filepath.Join(dir, ResultsFile)); uint64(n) != s.Requests {
				t.Errorf("results.bin holds %d results, summary %d", n, s.Requests)
			}
		})
	}
}

func TestRunInterrupted(t *testing.T) {
	srv := okServer(t, 0)
	cfg := publicRun(t, srv, "100/s", 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	dir := t.TempDir()
	a, err := Execute(ctx, dir, cfg, AnalyzeOptions{Thresholds: []Threshold{mustThreshold(t, "success>=0.99")}})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("an interrupted run took %s", el)
	}
	// Stopped on purpose: its own outcome, not INVALID ("short of the
	// requested rate"), with what it measured kept.
	if a.Summary.Verdict.Status != StatusInterrupted || len(a.Summary.Verdict.Problems) > 0 ||
		len(a.Summary.Interrupted) != 1 || !strings.Contains(a.Summary.Interrupted[0], "interrupted after") {
		t.Errorf("verdict %+v, interrupted %q", a.Summary.Verdict, a.Summary.Interrupted)
	}
	for _, f := range []string{ResultsFile, SummaryFile, ReportFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// stray is a scenario that aims at another host after a few requests.
type stray struct {
	good, bad string
	n         atomic.Int64
}

func (*stray) Name() string { return "stray" }
func (s *stray) Targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		t.Method, t.URL = "GET", s.good
		if s.n.Add(1) > 5 {
			t.URL = s.bad
		}
		return nil
	}
}

func TestRunRefusesOtherHostsAndRedirects(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/api/3/public/symbol", http.StatusFound)
	}))
	defer redirect.Close()

	t.Run("targeter aims elsewhere", func(t *testing.T) {
		srv := okServer(t, 0)
		cfg := publicRun(t, srv, "100/s", 2*time.Second)
		cfg.Scenario = &stray{good: srv.URL + "/api/3/public/symbol", bad: other.URL + "/api/3/public/symbol"}
		start := time.Now()
		_, err := Run(context.Background(), withResults(cfg, io.Discard))
		if err == nil || !strings.Contains(err.Error(), "refusing") {
			t.Errorf("err %v", err)
		}
		if time.Since(start) > time.Second {
			t.Error("the run went on after the refusal")
		}
	})
	for _, std := range []bool{false, true} {
		t.Run(fmt.Sprintf("redirect not followed (net/http %v)", std), func(t *testing.T) {
			cfg := publicRun(t, redirect, "50/s", 200*time.Millisecond)
			cfg.StdClient = std
			a, err := Execute(context.Background(), t.TempDir(), cfg, AnalyzeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if s := a.Summary; s.Success != 0 || s.NoResponse != s.Requests || s.Requests == 0 {
				t.Errorf("success %g, %d of %d without an answer", s.Success, s.NoResponse, s.Requests)
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("%d requests reached another host", n)
	}
}

func withResults(c RunConfig, w io.Writer) RunConfig { c.Results = w; return c }

func TestRunConfigChecked(t *testing.T) {
	srv := okServer(t, 0)
	good := withResults(publicRun(t, srv, "10/s", time.Second), io.Discard)
	cases := []struct {
		name string
		f    func(*RunConfig)
	}{
		{"no target", func(c *RunConfig) { c.Base = nil }},
		{"no scenario", func(c *RunConfig) { c.Scenario = nil }},
		{"no results", func(c *RunConfig) { c.Results = nil }},
		{"no duration", func(c *RunConfig) { c.Duration = 0 }},
		{"workers above max", func(c *RunConfig) { c.Workers = 100 }},
		{"no connections", func(c *RunConfig) { c.Connections = 0 }},
	}
	for _, c := range cases {
		cfg := good
		c.f(&cfg)
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRunStopsWhenResultsCannotBeWritten(t *testing.T) {
	srv := okServer(t, 0)
	start := time.Now()
	_, err := Run(context.Background(), withResults(publicRun(t, srv, "2000/s", 3*time.Second), failingWriter{}))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("the run went on without recording")
	}
}

func mustThreshold(t *testing.T, s string) Threshold {
	t.Helper()
	th, err := ParseThreshold(s)
	if err != nil {
		t.Fatal(err)
	}
	return th
}
