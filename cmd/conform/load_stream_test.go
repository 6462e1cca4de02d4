package main

import (
	"os"
	"path/filepath"
	"regexp"
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
			e, stdout, stderr := testEnv(t)
			out := filepath.Join(root, c.name)
			if code := realMain(append([]string{"load", "--out", out}, c.args...), e); code != c.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, c.code, stdout, stderr)
			}
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
