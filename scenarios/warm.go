package scenarios

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
)

// warmClient is an HTTP/1.1 client whose connections to one target are
// opened (TCP, and TLS for https) before any request is sent: over a path
// with tens of milliseconds each way, an offer on fresh connections spends
// two or three round trips on handshakes before its first request leaves,
// and its requests then arrive spread over more than a window. Opening a
// connection sends no request, so warming spends no budget.
//
// HTTP/2 is not offered: one connection multiplexing every request would
// leave the harness at the mercy of the server's stream limit, where
// connections of its own let it release a burst at once.
type warmClient struct {
	*http.Client
	tr   *http.Transport
	addr string // host:port
	tls  *tls.Config
	dial net.Dialer

	mu   sync.Mutex
	pool []pooled
}

type pooled struct {
	c  net.Conn
	at time.Time
}

// poolMaxAge is how long an opened connection waits for its first request
// before it is thrown away: servers close connections that send nothing
// (Go's ReadHeaderTimeout, nginx's client_header_timeout), and a request
// on a connection the server closed fails without being sent.
const poolMaxAge = 4 * time.Second

// newWarmClient returns a client for base (http or https) that keeps up to
// conns connections, trusting conf's roots (nil: the harness's own).
func newWarmClient(base string, conns int, conf *tls.Config) (*warmClient, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("scenarios: target %q: %w", base, err)
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	w := &warmClient{addr: net.JoinHostPort(u.Hostname(), port), dial: net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}}
	// The harness's own transport settings (its trust, when it has any).
	tr := client.DefaultTransport()
	if u.Scheme == "https" {
		w.tls = &tls.Config{}
		switch {
		case conf != nil:
			w.tls = conf.Clone()
		case tr.TLSClientConfig != nil:
			w.tls = tr.TLSClientConfig.Clone()
		}
		if w.tls.ServerName == "" {
			w.tls.ServerName = u.Hostname()
		}
		w.tls.NextProtos = []string{"http/1.1"}
		tr.TLSClientConfig = w.tls
		tr.DialTLSContext = w.take
	} else {
		tr.DialContext = w.take
	}
	tr.ForceAttemptHTTP2 = false
	tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	tr.MaxIdleConns = conns
	tr.MaxIdleConnsPerHost = conns
	tr.IdleConnTimeout = 30 * time.Second
	w.tr = tr
	w.Client = &http.Client{Transport: tr}
	return w, nil
}

// open dials one connection (and completes its TLS handshake).
func (w *warmClient) open(ctx context.Context) (net.Conn, error) {
	c, err := w.dial.DialContext(ctx, "tcp", w.addr)
	if err != nil || w.tls == nil {
		return c, err
	}
	tc := tls.Client(c, w.tls)
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	return tc, nil
}

// take is the transport's dialer: an opened connection when one is
// waiting, a fresh one otherwise.
func (w *warmClient) take(ctx context.Context, _, addr string) (net.Conn, error) {
	if addr == w.addr {
		w.mu.Lock()
		for len(w.pool) > 0 {
			p := w.pool[len(w.pool)-1]
			w.pool = w.pool[:len(w.pool)-1]
			if time.Since(p.at) < poolMaxAge {
				w.mu.Unlock()
				return p.c, nil
			}
			_ = p.c.Close()
		}
		w.mu.Unlock()
	}
	return w.open(ctx)
}

// Warm opens n connections at once and keeps them for the next requests.
// It returns how long the slowest took; connections that fail to open are
// an error (the target would not take the offer's either).
func (w *warmClient) Warm(ctx context.Context, n int) (time.Duration, error) {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		slowest time.Duration
		first   error
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			c, err := w.open(ctx)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if first == nil {
					first = fmt.Errorf("opening a connection to %s: %w", w.addr, err)
				}
				return
			}
			slowest = max(slowest, time.Since(start))
			w.mu.Lock()
			w.pool = append(w.pool, pooled{c, time.Now()})
			w.mu.Unlock()
		}()
	}
	wg.Wait()
	return slowest, first
}

// Close closes every connection, idle or waiting.
func (w *warmClient) Close() {
	w.tr.CloseIdleConnections()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.pool {
		_ = p.c.Close()
	}
	w.pool = nil
}
