package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// writeRun writes n results of a 100/s run whose request k is sent late
// by lateBy(k), and returns its Source.
func writeRun(t *testing.T, dir string, n int, lateBy func(k int) time.Duration, code func(k int) uint16) Source {
	t.Helper()
	path := filepath.Join(dir, ResultsFile)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := vegeta.NewEncoder(f)
	start := time.Unix(1_700_000_000, 0)
	for k := range n {
		r := vegeta.Result{Attack: "public/w0/test", Seq: uint64(k), Code: code(k), Latency: time.Millisecond,
			Timestamp: start.Add(time.Duration(k)*10*time.Millisecond + lateBy(k)), Method: "GET", URL: "http://h/api/3/public/symbol"}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	info := RunInfo{Attack: "public/w0/test", Scenario: ScenarioPublic, RateFreq: 100, RatePerNS: int64(time.Second),
		RequestedRate: 100, DurationS: float64(n) / 100, Expected: uint64(n), Sent: uint64(n)}
	return Source{Path: path, Runs: []RunInfo{info}}
}

func TestAnalyzeScheduleLagAndStatusMix(t *testing.T) {
	onTime := func(int) time.Duration { return 0 }
	ok := func(int) uint16 { return 200 }
	cases := []struct {
		name    string
		late    func(int) time.Duration
		code    func(int) uint16
		lagMax  time.Duration
		warning bool
		share   float64
		success float64
	}{
		{"on time", onTime, ok, 0, false, 0, 1},
		// Requests 300 to 319 held back, then sent at once when the 320th
		// was due: the last sent 190ms late, p99 90ms.
		{"one stall", func(k int) time.Duration {
			if k >= 300 && k < 320 {
				return time.Duration(319-k) * 10 * time.Millisecond
			}
			return 0
		}, ok, 190 * time.Millisecond, true, 0, 1},
		{"a quarter limited", onTime, func(k int) uint16 {
			if k%4 == 0 {
				return 429
			}
			return 200
		}, 0, false, 0.25, 0.75},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := writeRun(t, t.TempDir(), 1000, c.late, c.code)
			a, err := Analyze([]Source{src}, AnalyzeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := a.Summary
			if s.ScheduleLag == nil || time.Duration(s.ScheduleLag.MaxMS*float64(time.Millisecond)) < c.lagMax ||
				time.Duration(s.ScheduleLag.MaxMS*float64(time.Millisecond)) > c.lagMax+c.lagMax/1000+time.Microsecond {
				t.Errorf("schedule lag %+v, want max %s", s.ScheduleLag, c.lagMax)
			}
			if got := len(s.Verdict.Warnings) > 0; got != c.warning || (got && !strings.Contains(s.Verdict.Warnings[0], "behind schedule")) {
				t.Errorf("warnings %q", s.Verdict.Warnings)
			}
			if s.Share429 != c.share || s.Success != c.success || s.Verdict.Status != StatusPass {
				t.Errorf("429 share %g success %g %s %v", s.Share429, s.Success, s.Verdict.Status, s.Verdict.Problems)
			}
		})
	}
}

func TestAnalyzeRefusesWhatIsNotAResultsFile(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.bin")
	if err := os.WriteFile(junk, []byte("not results\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze([]Source{{Path: junk}}, AnalyzeOptions{}); err == nil || !strings.Contains(err.Error(), "not a Vegeta results file") {
		t.Errorf("err %v", err)
	}
	if _, err := Analyze(nil, AnalyzeOptions{}); err == nil {
		t.Error("no sources accepted")
	}
	empty := filepath.Join(dir, "empty.bin")
	_ = os.WriteFile(empty, nil, 0o644)
	a, err := Analyze([]Source{{Path: empty}}, AnalyzeOptions{RequestedRate: 10})
	if err != nil || a.Summary.Verdict.Status != StatusInvalid {
		t.Errorf("an empty run: %v %+v", err, a)
	}
}
