package netsim

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// upstream serves /echo (the request body back), /peer (the address the
// request came from) and /ws (a WebSocket echo), and records every peer.
type upstream struct {
	*httptest.Server
	mu    sync.Mutex
	peers map[string]bool
}

func startUpstream(t *testing.T) *upstream {
	t.Helper()
	u := &upstream{peers: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body) // whole first: an HTTP/1 handler's body closes once it answers
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/peer", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.RemoteAddr) })
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			mt, b, err := c.ReadMessage()
			if err != nil || c.WriteMessage(mt, b) != nil {
				return
			}
		}
	})
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		u.mu.Lock()
		u.peers[host] = true
		u.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) sources() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for p := range u.peers {
		out = append(out, p)
	}
	return out
}

func startProxy(t *testing.T, o Options) *Proxy {
	t.Helper()
	p, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func trusting(t *testing.T, p *Proxy) *tls.Config {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(p.CAPEM()) {
		t.Fatal("CAPEM holds no certificate")
	}
	return &tls.Config{RootCAs: roots}
}

// A request crosses the path each way once per round trip: a fresh
// connection pays the TLS handshake's round trip too, a kept one only its own.
func TestDelayEachWay(t *testing.T) {
	up := startUpstream(t)
	const delay = 100 * time.Millisecond
	p := startProxy(t, Options{Upstream: strings.TrimPrefix(up.URL, "http://"), Delay: delay})
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: trusting(t, p)}}
	get := func() time.Duration {
		start := time.Now()
		resp, err := hc.Get(p.URL() + "/peer")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return time.Since(start)
	}
	if first := get(); first < 4*delay {
		t.Errorf("first request (TLS handshake and request, two round trips) took %s, want at least %s", first, 4*delay)
	}
	if kept := get(); kept < 2*delay || kept >= 4*delay {
		t.Errorf("request on a kept connection took %s, want one round trip of %s (less than two)", kept, 2*delay)
	}
}

// Every connection, HTTP or WebSocket, reaches the upstream from the one
// source address; bodies and frames pass through unchanged.
func TestOneSourceAndPassThrough(t *testing.T) {
	up := startUpstream(t)
	p := startProxy(t, Options{Upstream: strings.TrimPrefix(up.URL, "http://"), Delay: time.Millisecond, Source: net.IPv4(127, 0, 0, 7)})
	conf := trusting(t, p)
	body := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Transport: &http.Transport{TLSClientConfig: conf, DisableKeepAlives: true}}
			resp, err := hc.Post(p.URL()+"/echo", "application/octet-stream", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Equal(got, body) {
				t.Errorf("echo: %d bytes back of %d, or changed", len(got), len(body))
			}
		}()
	}
	wg.Wait()
	d := websocket.Dialer{TLSClientConfig: conf}
	ws, _, err := d.DialContext(context.Background(), strings.Replace(p.URL(), "https", "wss", 1)+"/ws", nil)
	if err != nil {
		t.Fatalf("WebSocket through the proxy: %v", err)
	}
	defer ws.Close()
	for _, m := range []string{"hello", strings.Repeat("x", 100000)} {
		if err := ws.WriteMessage(websocket.TextMessage, []byte(m)); err != nil {
			t.Fatal(err)
		}
		if _, got, err := ws.ReadMessage(); err != nil || string(got) != m {
			t.Fatalf("WebSocket echo: %d bytes, %v", len(got), err)
		}
	}
	if got := up.sources(); len(got) != 1 || got[0] != "127.0.0.7" {
		t.Errorf("the upstream saw connections from %v, want 127.0.0.7 alone", got)
	}
	if n := p.Connections(); n != 5 {
		t.Errorf("the proxy counted %d connections, want 5", n)
	}
}

// Without its CA a client refuses the proxy's certificate; under another
// name too.
func TestCertificate(t *testing.T) {
	up := startUpstream(t)
	p := startProxy(t, Options{Upstream: strings.TrimPrefix(up.URL, "http://"), Hosts: []string{"sandbox.test"}})
	if !strings.HasPrefix(p.URL(), "https://sandbox.test:") {
		t.Errorf("URL %s does not name the certificate's host", p.URL())
	}
	_, err := tls.Dial("tcp", p.Addr(), &tls.Config{ServerName: "sandbox.test"})
	var unknown x509.UnknownAuthorityError
	if !errorsAs(err, &unknown) {
		t.Errorf("without the CA: %v, want an unknown authority", err)
	}
	conf := trusting(t, p)
	conf.ServerName = "127.0.0.1"
	_, err = tls.Dial("tcp", p.Addr(), conf)
	var host x509.HostnameError
	if !errorsAs(err, &host) {
		t.Errorf("under another name: %v, want a hostname error", err)
	}
	conf.ServerName = "sandbox.test"
	c, err := tls.Dial("tcp", p.Addr(), conf)
	if err != nil {
		t.Fatalf("with the CA and the name: %v", err)
	}
	c.Close()
}

// Close ends connections that are still open.
func TestCloseEndsConnections(t *testing.T) {
	up := startUpstream(t)
	p, err := Start(Options{Upstream: strings.TrimPrefix(up.URL, "http://"), Delay: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d := websocket.Dialer{TLSClientConfig: trusting(t, p)}
	ws, _, err := d.DialContext(context.Background(), strings.Replace(p.URL(), "https", "wss", 1)+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	done := make(chan error, 1)
	go func() { done <- p.Close() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return with a WebSocket open")
	}
	_ = ws.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, _, err := ws.ReadMessage(); err == nil {
		t.Error("the WebSocket is still open after Close")
	}
}

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }
