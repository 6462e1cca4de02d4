package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
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

func TestExposureWarning(t *testing.T) {
	on, token, off := &emulateOptions{controlPlane: true}, &emulateOptions{controlPlane: true, controlToken: "t0ken-123456"}, &emulateOptions{}
	for _, tc := range []struct {
		url  string
		o    *emulateOptions
		want []string // substrings; none: no warning
	}{
		{"http://127.0.0.1:8080", token, nil},
		{"http://[::1]:8080", on, nil},
		{"http://localhost:8080", on, nil},
		{"http://0.0.0.0:8080", on, []string{"0.0.0.0:8080", "exchange API", "answers this machine only", "--addr 127.0.0.1"}},
		{"http://[::]:8080", token, []string{"control plane /_conform (reset, fund, clock) to holders of the control token", "--control-plane=false"}},
		{"http://192.0.2.2:8080", off, []string{"exchange API", "--addr 127.0.0.1"}},
	} {
		got := exposure(tc.url, tc.o)
		if len(tc.want) == 0 {
			if got != "" {
				t.Errorf("%s: warned %q", tc.url, got)
			}
			continue
		}
		if strings.Contains(got, "\n") || !strings.HasPrefix(got, "conform emulate: warning: ") {
			t.Errorf("%s: %q is not one warning line", tc.url, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.url, got, w)
			}
		}
	}
}

// nonLoopbackIP is an address of this machine that is not loopback, or nil.
func nonLoopbackIP() net.IP {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP
		}
	}
	return nil
}

// emulateOn runs conform emulate with args until the test ends and returns
// its URL and what it wrote to stderr.
func emulateOn(t *testing.T, getenv func(string) string, args ...string) (string, *bytes.Buffer) {
	t.Helper()
	e, _, stderr := testEnv(t)
	if getenv != nil {
		e.getenv = getenv
	}
	seen := make(chan string, 1)
	e.stdout = &lineWatcher{re: regexp.MustCompile(`conform emulator listening on (http://\S+)\n`), seen: seen}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = runEmulate(ctx, append([]string{"--addr"}, args...), e) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case u := <-seen:
		return u, stderr
	case <-done:
		t.Fatalf("emulate stopped: %s", stderr)
	case <-time.After(10 * time.Second):
		t.Fatal("emulate did not report listening")
	}
	return "", nil
}

// controlStatus asks url's control plane for /info from source address
// from (nil: any), with token when not empty.
func controlStatus(t *testing.T, url string, from net.IP, token string) int {
	t.Helper()
	d := &net.Dialer{Timeout: 5 * time.Second}
	if from != nil {
		d.LocalAddr = &net.TCPAddr{IP: from}
	}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 5 * time.Second}
	req, _ := http.NewRequest(http.MethodGet, url+"/_conform/info", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// conform emulate on every interface warns in one line; its control plane
// answers this machine's loopback but not a peer on the network, and with
// a token (flag or environment) whoever presents it and nobody else.
func TestCmdEmulateKeepsTheControlPlaneLocal(t *testing.T) {
	ip := nonLoopbackIP()
	if ip == nil {
		t.Skip("this machine has no address beyond loopback")
	}
	const token = "ctl-5e3f0a1b2c3d4e5f"
	at := func(u string) (local, network string) {
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(u, "http://"))
		return "http://127.0.0.1:" + port, "http://" + net.JoinHostPort(ip.String(), port)
	}
	t.Run("no token", func(t *testing.T) {
		u, stderr := emulateOn(t, nil, "0.0.0.0:0")
		if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "warning") || !strings.Contains(lines[0], "control plane") {
			t.Errorf("want one warning line naming the control plane, got:\n%s", stderr)
		}
		local, network := at(u)
		if got := controlStatus(t, local, nil, ""); got != http.StatusOK {
			t.Errorf("from loopback: HTTP %d", got)
		}
		if got := controlStatus(t, network, ip, ""); got != http.StatusForbidden {
			t.Errorf("from %s: HTTP %d, want 403", ip, got)
		}
	})
	for name, setup := range map[string]struct {
		env  func(string) string
		args []string
	}{
		"token flag":        {nil, []string{"0.0.0.0:0", "--control-token", token}},
		"token environment": {func(k string) string { return map[string]string{"CONFORM_CONTROL_TOKEN": token}[k] }, []string{"0.0.0.0:0"}},
	} {
		t.Run(name, func(t *testing.T) {
			u, stderr := emulateOn(t, setup.env, setup.args...)
			if !strings.Contains(stderr.String(), "holders of the control token") || strings.Contains(stderr.String(), token) {
				t.Errorf("the warning does not name the token holders' access (or shows the token):\n%s", stderr)
			}
			local, network := at(u)
			for _, c := range []struct {
				url   string
				from  net.IP
				token string
				want  int
			}{{network, ip, token, 200}, {network, ip, "", 401}, {local, nil, "", 401}, {local, nil, token, 200}, {network, ip, "wrong", 401}} {
				if got := controlStatus(t, c.url, c.from, c.token); got != c.want {
					t.Errorf("%s with token %q: HTTP %d, want %d", c.url, c.token, got, c.want)
				}
			}
		})
	}
	t.Run("loopback: no warning", func(t *testing.T) {
		if _, stderr := emulateOn(t, nil, "127.0.0.1:0"); stderr.Len() != 0 {
			t.Errorf("warned on loopback: %s", stderr)
		}
	})
	t.Run("a token without control plane is a bad flag", func(t *testing.T) {
		e, _, _ := testEnv(t)
		if err := cmdEmulate([]string{"--control-plane=false", "--control-token", token}, e); exitCode(err) != exitUsage {
			t.Errorf("%v (exit %d), want exit %d", err, exitCode(err), exitUsage)
		}
	})
}
