package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conform-harness/conform/load"
)

func TestLoadFlagErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // in the stderr line
	}{
		{"no rate", []string{"load"}, "give the rate"},
		{"rate and ramp", []string{"load", "--rate", "10/s", "--ramp", "1:10"}, "not both"},
		{"bad rate", []string{"load", "--rate", "fast"}, `rate "fast"`},
		{"rate above the cap", []string{"load", "--scenario", "public", "--rate", "20000/s"}, "--override-bounds"},
		{"max rate", []string{"load", "--scenario", "public", "--rate", "max"}, "--override-bounds"},
		{"too long", []string{"load", "--scenario", "public", "--rate", "10/s", "--duration", "1h"}, "--override-bounds"},
		{"no duration", []string{"load", "--scenario", "public", "--rate", "10/s", "--duration", "0s", "--override-bounds"}, "duration must be positive"},
		{"no scenario", []string{"load", "--rate", "10/s"}, "--scenario is required: one of mixed, orders, public, ws-connect, ws-market, ws-trading, ws2-market, ws2-trading"},
		{"unknown scenario", []string{"load", "--rate", "10/s", "--scenario", "chaos"}, `unknown scenario "chaos"`},
		{"bad threshold", []string{"load", "--scenario", "public", "--rate", "10/s", "--threshold", "p99>>1"}, "threshold"},
		{"bad local address", []string{"load", "--scenario", "public", "--rate", "10/s", "--local-addr", "localhost"}, "want an IP address"},
		{"no-limits with a target", []string{"load", "--scenario", "public", "--rate", "10/s", "--target", "http://127.0.0.1:1", "--emulator-no-limits"}, "embedded emulator only"},
		{"orders on a live target", []string{"load", "--rate", "10/s", "--scenario", "orders", "--target", "http://127.0.0.1:1"}, "--allow-live-trading"},
		{"orders without a key", []string{"load", "--rate", "10/s", "--scenario", "mixed", "--target", "http://127.0.0.1:1", "--sandbox"}, "need a key of role full"},
		{"merge without out", []string{"load", "merge", "a.bin"}, "--out is required"},
		{"merge without files", []string{"load", "merge", "--out", "x"}, "give the results files"},
		{"merge missing file", []string{"load", "merge", "--out", "x", "/no/such.bin"}, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _, stderr := testEnv(t)
			if code := realMain(c.args, e); code != exitUsage {
				t.Errorf("exit %d, want %d (stderr %q)", code, exitUsage, stderr)
			}
			if !strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q", stderr, c.want)
			}
		})
	}
}

func TestLoadHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "load"}, {"load", "-h"}, {"load", "merge", "-h"}} {
		e, stdout, _ := testEnv(t)
		if code := realMain(args, e); code != exitOK {
			t.Errorf("%v: exit %d", args, code)
		}
		for _, want := range []string{"conform load merge", "-scenario", "exit 5", "exits 130 or 143"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%v: help lacks %q", args, want)
			}
		}
	}
	e, stdout, _ := testEnv(t)
	realMain([]string{"help"}, e)
	if !strings.Contains(stdout.String(), "4  load: a threshold was breached") || !strings.Contains(stdout.String(), "load ") {
		t.Errorf("conform help lacks load:\n%s", stdout)
	}
	// An interrupted load exits 130 or 143, not 5; a run stopped by its
	// own bounds 6.
	codes := stdout.String()[strings.Index(stdout.String(), "Exit codes:"):]
	if strings.Contains(codes, "or interrupted") || !strings.Contains(codes, "130, 143  run or load stopped by SIGINT or SIGTERM") ||
		!strings.Contains(codes, "6  run: stopped by a bound of its own") {
		t.Errorf("exit codes in conform help:\n%s", codes)
	}
}

// slowServer answers after delay and counts requests by source address.
func slowServer(t *testing.T, delay time.Duration) (*httptest.Server, func(ip string) int) {
	t.Helper()
	var mu sync.Mutex
	byIP := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		mu.Lock()
		byIP[host]++
		mu.Unlock()
		time.Sleep(delay)
		if r.URL.Path == "/api/3/public/currency" { // what conform's preflight asks: this is the API
			_, _ = w.Write([]byte(`{"BTC":{"full_name":"Bitcoin","payin_enabled":true}}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func(ip string) int { mu.Lock(); defer mu.Unlock(); return byIP[ip] }
}

func TestLoadRunExitCodes(t *testing.T) {
	srv, _ := slowServer(t, 20*time.Millisecond)
	cases := []struct {
		name    string
		args    []string
		code    int
		verdict string
	}{
		{"embedded emulator", []string{"--rate", "50/s", "--duration", "1s", "--threshold", "success>0.99"}, exitOK, "PASS"},
		{"breached", []string{"--target", srv.URL, "--rate", "50/s", "--duration", "1s", "--threshold", "p99<1ms"}, exitThreshold, "BREACHED"},
		{"invalid", []string{"--target", srv.URL, "--rate", "200/s", "--duration", "1s", "--workers", "1", "--max-workers", "1", "--connections", "1"}, exitInvalid, "INVALID"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e, stdout, stderr := testEnv(t)
			out := filepath.Join(t.TempDir(), "load")
			code := realMain(append([]string{"load", "--scenario", "public", "--out", out}, c.args...), e)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, c.code, stdout, stderr)
			}
			if !strings.Contains(stdout.String(), "verdict         "+c.verdict) {
				t.Errorf("stdout lacks the verdict %s:\n%s", c.verdict, stdout)
			}
			if !strings.Contains(stderr.String(), "load:   1.0s/1s") {
				t.Errorf("no progress line on stderr:\n%s", stderr)
			}
			for _, f := range []string{load.ResultsFile, load.SummaryFile, load.ReportFile} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// workerArgsEnv carries a worker's arguments into a re-executed test binary.
const workerArgsEnv = "CONFORM_LOAD_TEST_WORKER_ARGS"

// TestLoadWorkerProcess is not a test: it is the body of a worker process
// started by TestLoadMergeOfWorkerProcesses.
func TestLoadWorkerProcess(t *testing.T) {
	raw := os.Getenv(workerArgsEnv)
	if raw == "" {
		t.Skip("runs only as a worker process")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(exitHarness)
	}
	os.Exit(realMain(args, newEnv()))
}

// TestLoadMergeOfWorkerProcesses runs conform load as N processes bound to
// distinct 127.0.0.x source addresses against one target, as N hosts
// would, then merges their results with conform load merge.
func TestLoadMergeOfWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	srv, seen := slowServer(t, 0)
	root := t.TempDir()
	const n = 3
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for k := range n {
		args, _ := json.Marshal([]string{"load", "--scenario", "public", "--target", srv.URL, "--rate", "100/s", "--duration", "1s",
			"--worker-id", fmt.Sprint(k), "--local-addr", fmt.Sprintf("127.0.0.%d", 2+k), "--out", filepath.Join(root, fmt.Sprintf("w%d", k))})
		cmds[k] = exec.Command(os.Args[0], "-test.run=^TestLoadWorkerProcess$")
		cmds[k].Env = append(os.Environ(), workerArgsEnv+"="+string(args))
		cmds[k].Stdout, cmds[k].Stderr = &outs[k], &outs[k]
		if err := cmds[k].Start(); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	for k, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", k, err, outs[k].String())
		}
		files = append(files, filepath.Join(root, fmt.Sprintf("w%d", k), load.ResultsFile))
	}

	e, stdout, stderr := testEnv(t)
	merged := filepath.Join(root, "merged")
	if code := realMain(append([]string{"load", "merge", "--out", merged, "--threshold", "success>0.99"}, files...), e); code != exitOK {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	s, err := load.ReadSummary(filepath.Join(merged, load.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	for k := range n {
		w, err := load.ReadSummary(filepath.Join(root, fmt.Sprintf("w%d", k), load.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		ip := fmt.Sprintf("127.0.0.%d", 2+k)
		if got := seen(ip); uint64(got) != w.Requests || w.Runs[0].Run.WorkerID != k {
			t.Errorf("worker %d: target saw %d requests from %s, the worker recorded %d", k, got, ip, w.Requests)
		}
		total += w.Requests
	}
	if s.Requests != total || len(s.Runs) != n || s.RequestedRate != 300 || s.Verdict.Status != load.StatusPass {
		t.Errorf("merged: %d requests of %d, %d runs, requested %g, %s %v", s.Requests, total, len(s.Runs), s.RequestedRate, s.Verdict.Status, s.Verdict.Problems)
	}
}
