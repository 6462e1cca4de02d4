package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-harness/conform/load"
)

func TestLoadStreamFlagErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"subscribers on a REST scenario", []string{"--scenario", "public", "--rate", "10/s", "--subscribers", "5"}, "--subscribers applies to the stream scenarios"},
		{"gaps threshold on a REST scenario", []string{"--scenario", "public", "--rate", "10/s", "--threshold", "gaps==0"}, "applies to the stream scenarios"},
		{"ramp", []string{"--scenario", "ws-market", "--ramp", "1:10"}, "constant --rate"},
		{"no subscribers", []string{"--scenario", "ws-market", "--rate", "10/s", "--subscribers", "0"}, "--subscribers 0"},
		{"bad trade", []string{"--scenario", "ws-market", "--rate", "10/s", "--trade", "BTCUSDT@1"}, "SYMBOL:QUANTITY@PRICE"},
		{"REST flags", []string{"--scenario", "ws-market", "--rate", "10/s", "--connections", "5"}, "apply to the REST scenarios"},
		{"bad equality", []string{"--scenario", "ws-market", "--rate", "10/s", "--threshold", "p99==1ms"}, "== applies to gaps and disconnects"},
		{"live trading", []string{"--scenario", "ws-market", "--rate", "10/s", "--target", "http://127.0.0.1:1"}, "--allow-live-trading"},
		{"v3 channel on v2", []string{"--scenario", "ws2-market", "--rate", "10/s", "--channels", "trades,ticker/1s"}, `v2 channel "ticker/1s"`},
		{"v2 live trading", []string{"--scenario", "ws2-trading", "--rate", "10/s", "--target", "http://127.0.0.1:1"}, "--allow-live-trading"},
		{"v2 ramp", []string{"--scenario", "ws2-market", "--ramp", "1:10"}, "constant --rate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _, stderr := testEnv(t)
			if code := realMain(append([]string{"load"}, c.args...), e); code != exitUsage {
				t.Errorf("exit %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", stderr, c.want)
			}
		})
	}
}

// TestLoadStreamRuns runs the stream scenarios against the embedded
// emulator: a pass, a breached threshold (exit 4), and their merge.
func TestLoadStreamRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the emulator with stream subscribers")
	}
	root := t.TempDir()
	market := []string{"--scenario", "ws-market", "--subscribers", "16", "--connect-rate", "40", "--rate", "10/s", "--duration", "1s", "--drain", "500ms"}
	cases := []struct {
		name    string
		args    []string
		code    int
		verdict string
	}{
		{"pass", market, exitOK, "PASS"},
		{"breached", append(market, "--threshold", "p99<1us", "--threshold", "gaps==0"), exitThreshold, "BREACHED"},
		{"connect", []string{"--scenario", "ws-connect", "--rate", "40/s", "--duration", "1s"}, exitOK, "PASS"},
		{"trading", []string{"--scenario", "ws-trading", "--rate", "8/s", "--duration", "1s"}, exitOK, "PASS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(root, c.name)
			stdout := runLoad(t, out, c.args, c.code)
			if !regexp.MustCompile(`verdict +` + c.verdict).MatchString(stdout.String()) {
				t.Errorf("stdout lacks the verdict %s:\n%s", c.verdict, stdout)
			}
			for _, f := range []string{load.StreamResultsFile, load.SummaryFile, load.ReportFile} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	e, stdout, stderr := testEnv(t)
	files := []string{filepath.Join(root, "pass", load.StreamResultsFile), filepath.Join(root, "breached", load.StreamResultsFile)}
	if code := realMain(append([]string{"load", "merge", "--out", filepath.Join(root, "merged")}, files...), e); code != exitOK {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	recs, err := load.ReadStreamRecords(filepath.Join(root, "merged", load.StreamResultsFile))
	if err != nil || len(recs) != 2 {
		t.Fatalf("merged records: %d, %v", len(recs), err)
	}
	if !regexp.MustCompile(`connections +32 opened`).MatchString(stdout.String()) {
		t.Errorf("merged summary:\n%s", stdout)
	}
	e, _, stderr = testEnv(t)
	mixed := []string{"load", "merge", "--out", filepath.Join(root, "mixed"), files[0], filepath.Join(root, "x.bin")}
	if err := os.WriteFile(filepath.Join(root, "x.bin"), []byte("gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := realMain(mixed, e); code != exitUsage || !strings.Contains(stderr.String(), "not both") {
		t.Errorf("mixed merge: exit %d, %s", code, stderr)
	}
}

// TestLoadStreamV2Runs runs the v2 stream scenarios against the embedded
// emulator for about a second each and reads their summary.json: a pass
// of each, and a breached threshold (exit 4).
func TestLoadStreamV2Runs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the emulator with stream subscribers")
	}
	market := []string{"--scenario", "ws2-market", "--subscribers", "16", "--connect-rate", "40", "--rate", "10/s", "--duration", "1s", "--drain", "500ms"}
	trading := []string{"--scenario", "ws2-trading", "--rate", "8/s", "--duration", "1s"}
	type summary struct {
		Scenarios []string `json:"scenarios"`
		Targets   []string `json:"targets"`
		LatencyOf string   `json:"latency_of"`
		Samples   uint64   `json:"latency_samples"`
		Latency   struct {
			P99MS float64 `json:"p99_ms"`
		} `json:"latency"`
		MessagesPerSecond float64                   `json:"messages_per_second"`
		MessagesByChannel map[string]uint64         `json:"messages_by_channel"`
		Gaps              *uint64                   `json:"gaps"`
		GapsByChannel     map[string]uint64         `json:"gaps_by_channel"`
		Disconnects       uint64                    `json:"disconnects"`
		Opened            uint64                    `json:"connections_opened"`
		Ops               struct{ Sent, OK uint64 } `json:"ops"`
		Verdict           struct {
			Status     string `json:"status"`
			Thresholds []struct {
				Threshold string `json:"threshold"`
				Pass      bool   `json:"pass"`
			} `json:"thresholds"`
		} `json:"verdict"`
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		verdict  string
		path     string   // of the stream
		channels []string // messages received on each
		check    func(s summary) string
	}{
		{"market", market, exitOK, "PASS", "/api/2/ws/public", []string{"candles/M1", "orderbook", "ticker", "trades"}, func(s summary) string {
			if s.GapsByChannel == nil || len(s.GapsByChannel) != 2 || s.Opened != 16 || s.LatencyOf != "trade timestamp to receipt by a subscriber (trades channel)" {
				return "want the gaps of trades and orderbook, 16 opened, latency of trades"
			}
			return ""
		}},
		{"trading", trading, exitOK, "PASS", "/api/2/ws/trading", []string{"reports"}, func(s summary) string {
			if s.Samples != s.Ops.OK || !strings.Contains(s.LatencyOf, "report") {
				return "want one latency (request to report) per answered order or cancel"
			}
			return ""
		}},
		{"breached", append(trading, "--threshold", "p99<1us", "--threshold", "disconnects==0"), exitThreshold, "BREACHED", "/api/2/ws/trading", []string{"reports"}, func(s summary) string {
			th := s.Verdict.Thresholds
			if len(th) != 2 || th[0].Pass || !th[1].Pass {
				return "want p99<1us breached and disconnects==0 held"
			}
			return ""
		}},
	}
	root := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(root, c.name)
			runLoad(t, out, c.args, c.code)
			b, err := os.ReadFile(filepath.Join(out, load.SummaryFile))
			if err != nil {
				t.Fatal(err)
			}
			var s summary
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			var chans []string
			for ch, n := range s.MessagesByChannel {
				if n > 0 {
					chans = append(chans, ch)
				}
			}
			slices.Sort(chans)
			switch {
			case len(s.Scenarios) != 1 || s.Scenarios[0] != c.args[1] || len(s.Targets) != 1 || !strings.HasSuffix(s.Targets[0], c.path):
				t.Errorf("scenarios %v, targets %v: want %s on %s", s.Scenarios, s.Targets, c.args[1], c.path)
			case s.Verdict.Status != c.verdict:
				t.Errorf("verdict %s, want %s", s.Verdict.Status, c.verdict)
			case s.Samples == 0 || s.Latency.P99MS <= 0 || s.MessagesPerSecond <= 0:
				t.Errorf("%d latency samples, p99 %gms, %g messages/s: want some", s.Samples, s.Latency.P99MS, s.MessagesPerSecond)
			case s.Gaps == nil || *s.Gaps != 0 || s.Disconnects != 0:
				t.Errorf("gaps %v, disconnects %d: want 0, 0", s.Gaps, s.Disconnects)
			case s.Ops.Sent < 7 || s.Ops.OK != s.Ops.Sent:
				t.Errorf("ops %+v: want about a second's worth, all ok", s.Ops)
			case !slices.Equal(chans, c.channels):
				t.Errorf("messages on %v, want on %v", chans, c.channels)
			}
			if why := c.check(s); why != "" {
				t.Errorf("%s:\n%s", why, b)
			}
			if _, err := os.Stat(filepath.Join(out, load.ReportFile)); err != nil {
				t.Error(err)
			}
		})
	}
}

// runLoad runs conform load with args into out and fails t unless it exits
// with want; it returns the run's standard output.
func runLoad(t *testing.T, out string, args []string, want int) *bytes.Buffer {
	t.Helper()
	e, stdout, stderr := testEnv(t)
	if code := realMain(append([]string{"load", "--out", out}, args...), e); code != want {
		t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, want, stdout, stderr)
	}
	return stdout
}
