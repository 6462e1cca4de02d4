package wiremut

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The proxy is transparent to source addresses on loopback: it connects
// upstream from the client's own address, so an emulator's per-address
// budgets (and the harness's limit scenarios, which give every client an
// address of its own) see each client as it is, not one merged proxy.

// sourceIP is the loopback address the client connected from, or nil.
func sourceIP(remoteAddr string) net.IP {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil
	}
	return ip
}

type sourceKey struct{}

// withSource marks a request's context with its client's source address.
func withSource(r *http.Request) *http.Request {
	if ip := sourceIP(r.RemoteAddr); ip != nil {
		return r.WithContext(context.WithValue(r.Context(), sourceKey{}, ip))
	}
	return r
}

// dialer connects from local when set.
func dialer(local net.IP) *net.Dialer {
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if local != nil {
		d.LocalAddr = &net.TCPAddr{IP: local}
	}
	return d
}

// bySource is a RoundTripper with one transport per client source address,
// so that a pooled upstream connection serves only the address it was
// opened from.
type bySource struct {
	mu sync.Mutex
	ts map[string]*http.Transport
}

func (b *bySource) RoundTrip(r *http.Request) (*http.Response, error) {
	ip, _ := r.Context().Value(sourceKey{}).(net.IP)
	b.mu.Lock()
	if b.ts == nil {
		b.ts = map[string]*http.Transport{}
	}
	t, ok := b.ts[ip.String()]
	if !ok {
		t = &http.Transport{DialContext: dialer(ip).DialContext, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}
		b.ts[ip.String()] = t
	}
	b.mu.Unlock()
	return t.RoundTrip(r)
}

// wsDialer dials upstream WebSocket connections from the client's address.
func wsDialer(r *http.Request) *websocket.Dialer {
	return &websocket.Dialer{HandshakeTimeout: 10 * time.Second, NetDialContext: dialer(sourceIP(r.RemoteAddr)).DialContext}
}
