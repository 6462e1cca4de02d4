// Package netsim stands in for the network between the harness and a
// remote sandbox, so that the project's own tests exercise that path on one
// machine: a proxy that terminates TLS with a certificate of a private CA
// it makes up (the CA's PEM is for the harness's --ca-file), delays every
// byte by a configured one-way latency each way (the TLS handshake too), and
// relays every connection to the upstream from one source address, as a CI
// runner behind NAT reaches a sandbox. It relays bytes, not requests, so
// HTTP keep-alive and WebSocket upgrades pass through unchanged.
package netsim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Proxy. Upstream is required.
type Options struct {
	// Upstream is the host:port of the target behind the proxy, spoken to
	// in plain TCP (an emulator's http:// address).
	Upstream string
	// Delay is the one-way latency added each way: a request's first byte
	// reaches the upstream Delay after it was sent, an answer's first byte
	// reaches the client Delay after the upstream sent it.
	Delay time.Duration
	// Addr is the listen address (default 127.0.0.1:0).
	Addr string
	// Hosts are the names and addresses the server certificate is for
	// (default localhost and 127.0.0.1); the first is the URL's host.
	Hosts []string
	// Source is the one address every upstream connection is dialled from
	// (default 127.0.0.1).
	Source net.IP
}

// Proxy is a running stand-in for a remote path. Its zero value is not
// usable; see Start.
type Proxy struct {
	o     Options
	ln    net.Listener
	ca    *authority
	host  string
	conns atomic.Int64

	mu     sync.Mutex
	open   map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// handshakeTimeout bounds a client's TLS handshake with the proxy.
const handshakeTimeout = 10 * time.Second

// Start listens and serves until Close.
func Start(o Options) (*Proxy, error) {
	if o.Upstream == "" {
		return nil, errors.New("netsim: no upstream")
	}
	if o.Delay < 0 {
		return nil, fmt.Errorf("netsim: negative delay %s", o.Delay)
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if len(o.Hosts) == 0 {
		o.Hosts = []string{"localhost", "127.0.0.1"}
	}
	if o.Source == nil {
		o.Source = net.IPv4(127, 0, 0, 1)
	}
	ca, err := newAuthority(o.Hosts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("netsim: %w", err)
	}
	p := &Proxy{o: o, ln: ln, ca: ca, open: map[net.Conn]struct{}{}, host: o.Hosts[0]}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// URL is the proxy's https base URL, under the certificate's first host.
func (p *Proxy) URL() string {
	_, port, _ := net.SplitHostPort(p.ln.Addr().String())
	return "https://" + net.JoinHostPort(p.host, port)
}

// Addr is the address the proxy listens on.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// CAPEM is the PEM certificate of the CA that issued the proxy's certificate.
func (p *Proxy) CAPEM() []byte { return append([]byte(nil), p.ca.caPEM...) }

// WriteCA writes CAPEM to path (mode 0644: a certificate is public).
func (p *Proxy) WriteCA(path string) error {
	if err := os.WriteFile(path, p.ca.caPEM, 0o644); err != nil {
		return fmt.Errorf("netsim: %w", err)
	}
	return nil
}

// Connections is how many client connections the proxy has accepted.
func (p *Proxy) Connections() int64 { return p.conns.Load() }

// Close stops listening and closes every connection.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	p.closed = true
	for c := range p.open {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

// track registers a connection to close with the proxy; false when the
// proxy is already closed (the caller closes it).
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range cs {
		p.open[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.open, c)
	}
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		raw, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.conns.Add(1)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.relay(raw)
		}()
	}
}

// relay terminates TLS on a client connection (over the delayed path) and
// copies bytes both ways between it and a new upstream connection from
// the proxy's one source address.
func (p *Proxy) relay(raw net.Conn) {
	if !p.track(raw) {
		_ = raw.Close()
		return
	}
	defer p.untrack(raw)
	// Closing slow (tc.Close) closes raw once the bytes in flight have left.
	slow := newDelayConn(raw, p.o.Delay)
	tc := tls.Server(slow, &tls.Config{Certificates: []tls.Certificate{p.ca.leaf}, MinVersion: tls.VersionTLS12})
	defer tc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), handshakeTimeout)
	err := tc.HandshakeContext(ctx)
	cancel()
	if err != nil {
		return // the client refused the certificate, or spoke no TLS
	}
	d := &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: p.o.Source}}
	up, err := d.Dial("tcp", p.o.Upstream)
	if err != nil {
		return
	}
	if !p.track(up) {
		_ = up.Close()
		return
	}
	defer p.untrack(up)
	defer up.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(up, tc)
		if cw, ok := up.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	}()
	_, _ = io.Copy(tc, up)
	_ = tc.CloseWrite() // close_notify, then a half-close once it has crossed the delay
	<-done
}
