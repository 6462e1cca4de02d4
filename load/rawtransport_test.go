package load

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRawTransport(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/chunked":
			w.(http.Flusher).Flush() // forces a chunked answer
			_, _ = io.WriteString(w, "part1-")
			_, _ = io.WriteString(w, "part2")
		case "/close":
			w.Header().Set("Connection", "close")
			_, _ = io.WriteString(w, "bye")
		default:
			w.Header().Set("X-Method", r.Method)
			_, _ = io.WriteString(w, r.URL.RawQuery+"|"+string(b)+"|"+r.Header.Get("Authorization"))
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := &http.Client{Transport: newRawTransport(&net.Dialer{Timeout: time.Second}, 2, 0), Timeout: 5 * time.Second}
	do := func(method, path, body string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "HS256 abc")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, h := do("POST", "/x?a=1", "symbol=ETHBTC"); code != 200 || body != "a=1|symbol=ETHBTC|HS256 abc" || h.Get("X-Method") != "POST" {
		t.Errorf("POST: %d %q", code, body)
	}
	if _, body, _ := do("GET", "/chunked", ""); body != "part1-part2" {
		t.Errorf("chunked: %q", body)
	}
	if _, body, _ := do("GET", "/close", ""); body != "bye" {
		t.Errorf("close: %q", body)
	}
	if _, body, _ := do("DELETE", "/y", ""); body != "||HS256 abc" {
		t.Errorf("DELETE: %q", body)
	}
	// Concurrent requests share at most two connections (plus the one the
	// server closed on purpose).
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); do("GET", "/z", "") }()
	}
	wg.Wait()
	if n := conns.Load(); n > 3 {
		t.Errorf("%d connections opened, want at most 3 (cap 2, one closed by the server)", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tr := newRawTransport(&net.Dialer{}, 1, 0)
	tr.slots <- struct{}{} // the only connection is taken
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	if _, err := tr.RoundTrip(req); err == nil {
		t.Error("a canceled request waited for a connection forever or succeeded")
	}
	if _, err := tr.RoundTrip(httptest.NewRequest("GET", "https://x/", nil)); err == nil {
		t.Error("https accepted by the plain HTTP transport")
	}
}

// The transport's own timeout bounds a request whose client sets none.
func TestRawTransportTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer srv.Close()
	defer close(release)
	c := &http.Client{Transport: newRawTransport(&net.Dialer{Timeout: time.Second}, 1, 200*time.Millisecond)}
	start := time.Now()
	if resp, err := c.Get(srv.URL + "/slow"); err == nil {
		resp.Body.Close()
		t.Fatal("a request slower than the timeout succeeded")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timed out after %s, want about 200ms", d)
	}
	// The timed-out connection was dropped: the next request gets a new one.
	resp, err := c.Get(srv.URL + "/fast")
	if err != nil {
		t.Fatalf("after a timeout: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Errorf("body %q", b)
	}
}
