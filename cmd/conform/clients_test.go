package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
)

// clientsDir is where the real client libraries' checks live.
var clientsDir = filepath.Join("..", "..", "clients")

// TestClientsCCXT runs ccxt's hitbtc class, unchanged but for its base URL,
// against the emulator: clients/ccxt/check.js (ccxt 4.5.84, API v3, REST
// and pro) and check-v2.js (ccxt 4.0.33, the last release on API v2: REST
// and pro over /api/2/ws) print one line per unified call, ok or FAIL with
// the reason; each runs against a fresh emulator.
// It needs node and the pinned ccxt installed (npm ci --prefix
// clients/ccxt) and skips, saying so, without them; with
// CONFORM_CLIENTS=require (make clients) it fails instead. With CONFORM_BIN
// it runs against the built `conform emulate`, else an emulator in process.
func TestClientsCCXT(t *testing.T) {
	dir := filepath.Join(clientsDir, "ccxt")
	requireClients(t, dir)
	for _, script := range []string{"check.js", "check-v2.js"} {
		t.Run(script, func(t *testing.T) { runClientCheck(t, dir, script, clientTarget(t)) })
	}
}

// runClientCheck runs one node check script against base and fails with
// every FAIL line it printed.
func runClientCheck(t *testing.T, dir, script, base string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, base)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CCXT_KEY_A=", "CCXT_KEY_B=") // the emulator's fixture keys
	out, err := cmd.CombinedOutput()
	t.Logf("node %s %s:\n%s", script, base, out)
	var failed []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "FAIL") {
			failed = append(failed, line)
		}
	}
	if len(failed) > 0 {
		t.Errorf("ccxt calls failed against the emulator:\n%s", strings.Join(failed, "\n"))
	}
	if err != nil && len(failed) == 0 {
		t.Errorf("node %s: %v", script, err)
	}
}

// requireClients skips (or, under CONFORM_CLIENTS=require, fails) when node
// or the client library pinned in dir/package.json is not installed.
func requireClients(t *testing.T, dir string) {
	t.Helper()
	stop := t.Skipf
	if os.Getenv("CONFORM_CLIENTS") == "require" {
		stop = t.Fatalf
	}
	if _, err := exec.LookPath("node"); err != nil {
		stop("node is not installed: the real client library checks need Node.js 18 or later")
		return
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSON(filepath.Join(dir, "package.json"), &pkg); err != nil {
		t.Fatal(err)
	}
	for name, want := range pkg.Dependencies {
		var got struct {
			Version string `json:"version"`
		}
		if err := readJSON(filepath.Join(dir, "node_modules", name, "package.json"), &got); err != nil {
			stop("%s is not installed (npm ci --prefix %s): %v", name, dir, err)
			return
		}
		// An alias ("npm:ccxt@4.0.33") pins the version after its last @.
		if i := strings.LastIndex(want, "@"); strings.HasPrefix(want, "npm:") && i > 0 {
			want = want[i+1:]
		}
		if got.Version != want {
			stop("%s %s is installed, %s is pinned (npm ci --prefix %s)", name, got.Version, want, dir)
			return
		}
	}
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

var listening = regexp.MustCompile(`conform emulator listening on (http://\S+)`)

// clientTarget is the base URL of a fresh emulator for one client check:
// the built binary's when CONFORM_BIN names it, else one in process.
func clientTarget(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CONFORM_BIN")
	if dir == "" {
		return startEmulator(t, emulator.Options{})
	}
	cmd := exec.Command(filepath.Join(dir, "conform"), "emulate", "--addr", "127.0.0.1:0", "--control-plane=false")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(15 * time.Second):
		t.Fatal("conform emulate did not report listening")
		return ""
	}
}
