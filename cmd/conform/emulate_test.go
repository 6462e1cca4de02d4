package main

import (
	"bytes"
	"net/http"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lineWatcher is a concurrency-safe writer that reports when a pattern has
// been written.
type lineWatcher struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	re   *regexp.Regexp
	seen chan string
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, _ := w.buf.Write(p)
	if m := w.re.FindStringSubmatch(w.buf.String()); m != nil && w.seen != nil {
		w.seen <- m[1]
		w.seen = nil
	}
	return n, nil
}

func TestCmdEmulateServesUntilInterrupted(t *testing.T) {
	e, _, stderr := testEnv(t)
	// The test reads its own copy of the channel: the watcher clears its
	// field from emulate's goroutine once the line is seen.
	seen := make(chan string, 1)
	w := &lineWatcher{re: regexp.MustCompile(`conform emulator listening on (http://\S+)\n`), seen: seen}
	e.stdout = w
	done := make(chan int, 1)
	go func() { done <- realMain([]string{"emulate", "--addr", "127.0.0.1:0", "--faults", "V3-ERR-404"}, e) }()

	var url string
	select {
	case url = <-seen:
	case code := <-done:
		t.Fatalf("emulate exited %d before listening: %s", code, stderr)
	case <-time.After(10 * time.Second):
		t.Fatal("emulate did not report listening")
	}
	resp, err := http.Get(url + "/_conform/info")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("control plane: HTTP %d", resp.StatusCode)
	}
	// The listening line is printed after emulate registered for SIGINT, so
	// the signal reaches it rather than the test process's default handler.
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after SIGINT: %s", code, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("emulate did not stop on SIGINT")
	}
}

func TestCmdEmulateRejectsAMalformedAddressAsABadFlag(t *testing.T) {
	for _, addr := range []string{"bad", "127.0.0.1", "127.0.0.1:http-alt", "127.0.0.1:70000"} {
		e, _, _ := testEnv(t)
		if err := cmdEmulate([]string{"--addr", addr}, e); exitCode(err) != exitUsage {
			t.Errorf("--addr %q: %v (exit %d), want exit %d", addr, err, exitCode(err), exitUsage)
		}
	}
}
