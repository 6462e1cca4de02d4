package framework

import (
	"context"
	"crypto/tls"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/gorilla/websocket"
)

// Stream connections dialled ahead. Over a path tens of milliseconds away a
// new connection costs two round trips (TLS, then the WebSocket handshake)
// before the spec's first frame, and the suite opens some six hundred: half
// a minute of a remote certification. Off loopback, DialStream therefore
// hands out a connection the pool opened a moment before (fresh: nothing
// sent on it, no frame read from it), and the pool opens its successor in
// the background. On loopback (a source address of its own per connection)
// every connection is dialled when asked for.

const (
	// poolSpares is how many connections of a path wait ready: a spec that
	// opens two back to back finds both.
	poolSpares = 2
	// poolMaxAge is how long a ready connection stays usable: well before
	// the server's first ping (30 s after the connection is established),
	// so that a spec's connection has seen no frame of any kind.
	poolMaxAge = 20 * time.Second
)

// streamPool holds ready connections by stream URL.
type streamPool struct {
	tls     *tls.Config
	mu      sync.Mutex
	closed  bool
	ready   map[string][]readyConn
	dialing map[string]int
}

type readyConn struct {
	conn *websocket.Conn
	at   time.Time
}

func newStreamPool(conf *tls.Config) *streamPool {
	return &streamPool{tls: conf, ready: map[string][]readyConn{}, dialing: map[string]int{}}
}

// take returns a ready connection to url (nil when none is), and starts
// dialling to keep poolSpares ready; a url nobody asked for is never dialled.
func (p *streamPool) take(url string) *websocket.Conn {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	var got *websocket.Conn
	for len(p.ready[url]) > 0 && got == nil {
		r := p.ready[url][0]
		p.ready[url] = p.ready[url][1:]
		if time.Since(r.at) < poolMaxAge {
			got = r.conn
		} else {
			_ = r.conn.Close()
		}
	}
	for n := len(p.ready[url]) + p.dialing[url]; n < poolSpares; n++ {
		p.dialing[url]++
		go p.dial(url)
	}
	return got
}

// dial opens one ready connection to url. A failure leaves the pool a
// connection short: the next take dials again, and a spec that finds none
// ready dials itself, so that it sees the failure.
func (p *streamPool) dial(url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*client.HandshakeTimeout)
	defer cancel()
	conn, _, err := client.DialWSRaw(ctx, url, nil, nil, p.tls)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dialing[url]--
	if err != nil {
		return
	}
	if p.closed {
		_ = conn.Close()
		return
	}
	p.ready[url] = append(p.ready[url], readyConn{conn: conn, at: time.Now()})
}

// close closes every ready connection and stops dialling.
func (p *streamPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for url, rs := range p.ready {
		for _, r := range rs {
			_ = r.conn.Close()
		}
		delete(p.ready, url)
	}
}

// CloseStreamPool closes this process's ready stream connections and dials
// no more: before the limit scenarios (which count every connection from
// the address) and when the process's specs are done.
func (e *Env) CloseStreamPool() { e.streams.close() }

// CloseStreamPools is CloseStreamPool of this process's target, when it was
// set up (a suite that failed to set up has none).
func CloseStreamPools() {
	if env != nil {
		env.CloseStreamPool()
	}
}
