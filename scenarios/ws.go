package scenarios

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/gorilla/websocket"
)

// answerTimeout bounds the wait for the answers to one offer of messages.
const answerTimeout = 3 * time.Second

// wsDial opens a WebSocket connection from a source address, over the
// TLS of ctx (WithTLS).
func wsDial(ctx context.Context, url string, from net.IP) (*websocket.Conn, *http.Response, error) {
	return client.DialWSRaw(ctx, url, from, nil, tlsOf(ctx))
}

// tlsKey is the context key of the run's TLS configuration.
type tlsKey struct{}

// WithTLS returns ctx carrying the TLS configuration of every connection
// the scenarios open under it (nil: the system's roots). It travels with
// the context, as the cancellation does, so that no offer, sender or
// connection of a run, however deep, can dial without it. Run sets it from
// Config.TLS.
func WithTLS(ctx context.Context, conf *tls.Config) context.Context {
	return context.WithValue(ctx, tlsKey{}, conf)
}

func tlsOf(ctx context.Context) *tls.Config {
	conf, _ := ctx.Value(tlsKey{}).(*tls.Config)
	return conf
}

// newWSClient starts the shared client's reader on a connection opened to
// url: it hands answers to whoever waits for their id, answers the
// server's pings and notices a close. The guard decides by url's host.
func newWSClient(conn *websocket.Conn, url string, guard *client.Guard) *client.WSConn {
	return client.NewWSConn(conn, url, client.WSOptions{Guard: guard})
}

// wsSender offers messages on a stream over several connections from one
// source address. The first answer it gets sets what an accepted answer
// looks like (a result, or an error with the same code: unauthenticated
// trading requests get an error that is still an answer, not a refusal).
type wsSender struct {
	url     string
	from    net.IP
	conns   int
	message string // with %q for the id
	guard   *client.Guard

	clients []*client.WSConn
	seq     int
	normal  string
}

// connect (re)opens the connections the server has closed.
func (s *wsSender) connect(ctx context.Context) error {
	for len(s.clients) < s.conns {
		s.clients = append(s.clients, nil)
	}
	for i, c := range s.clients {
		if c != nil && !c.IsClosed() {
			continue
		}
		conn, resp, err := wsDial(ctx, s.url, s.from)
		if err != nil {
			return fmt.Errorf("connecting to %s from %s: %s", s.url, s.from, client.DescribeHandshake(resp, err))
		}
		s.clients[i] = newWSClient(conn, s.url, s.guard)
	}
	return nil
}

func (s *wsSender) Send(ctx context.Context, n int) (Burst, error) {
	if err := s.connect(ctx); err != nil {
		return Burst{}, err
	}
	type pending struct {
		c  *client.WSConn
		ch <-chan client.WSMessage
	}
	waits := make([]pending, n)
	b := Burst{Offered: n, Start: time.Now()}
	for i := range n {
		c := s.clients[i%len(s.clients)]
		id := fmt.Sprintf("m%d", s.seq)
		s.seq++
		waits[i] = pending{c, c.Expect(id)}
		err := c.SendRaw(fmt.Appendf(nil, s.message, id))
		if errors.Is(err, client.ErrLiveTrading) {
			return b, err
		}
		if err != nil && !c.IsClosed() {
			b.Failed = append(b.Failed, fmt.Sprintf("sending message %d: %v", i, err))
		}
	}
	deadline := time.NewTimer(answerTimeout)
	defer deadline.Stop()
	b.End = b.Start
	for i, w := range waits {
		a, outcome := await(ctx, w.c, w.ch, deadline.C)
		switch outcome {
		case answered:
			if a.At.After(b.End) {
				b.End = a.At
			}
			if s.normal == "" {
				s.normal = a.Kind()
			}
			if a.Kind() == s.normal {
				b.Accepted++
				continue
			}
			b.Refused++
			b.addRefusal(a.Describe())
		case closedFirst:
			b.Closed++
			b.addRefusal(w.c.CloseReason())
			b.End = time.Now()
		case timedOut:
			// The target's silence, not the harness's speed: say what was
			// waited for, where, and how long.
			b.Failed = append(b.Failed, fmt.Sprintf("%s stayed silent: no answer to message %d (%s) nor to the %d after it within %s",
				s.url, i, fmt.Sprintf(s.message, fmt.Sprintf("m%d", s.seq-n+i)), n-i-1, answerTimeout))
			return b, nil
		case canceled:
			return b, ctx.Err()
		}
	}
	return b, nil
}

type awaited int

const (
	answered awaited = iota
	closedFirst
	timedOut
	canceled
)

// await waits for one answer. An answer that came in before the
// connection closed is still an answer.
func await(ctx context.Context, c *client.WSConn, ch <-chan client.WSMessage, deadline <-chan time.Time) (client.WSMessage, awaited) {
	select {
	case a := <-ch:
		return a, answered
	case <-c.Closed():
		select {
		case a := <-ch:
			return a, answered
		default:
			return client.WSMessage{}, closedFirst
		}
	case <-deadline:
		return client.WSMessage{}, timedOut
	case <-ctx.Done():
		return client.WSMessage{}, canceled
	}
}

func (b *Burst) addRefusal(desc string) {
	if b.Refusals == nil {
		b.Refusals = map[string]int{}
	}
	b.Refusals[desc]++
}

func (s *wsSender) close() {
	for _, c := range s.clients {
		if c != nil {
			c.Close()
		}
	}
}

// openMany opens n connections to url from one address, a few handshakes
// at a time.
func openMany(ctx context.Context, url string, from net.IP, n int) ([]*client.WSConn, []string) {
	var (
		mu      sync.Mutex
		clients []*client.WSConn
		errs    []string
		wg      sync.WaitGroup
		slots   = make(chan struct{}, 20)
	)
	for range n {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			conn, resp, err := wsDial(ctx, url, from)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, client.DescribeHandshake(resp, err))
				return
			}
			clients = append(clients, newWSClient(conn, url, nil))
		}()
	}
	wg.Wait()
	return clients, errs
}

func closeAll(cs []*client.WSConn) {
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close() }()
	}
	wg.Wait()
}

// tryOneMore opens one more connection and says whether the server kept
// it: refused at the handshake, or closed within a second of it, counts
// as refused.
func tryOneMore(ctx context.Context, url string, from net.IP) (accepted bool, how string) {
	conn, resp, err := wsDial(ctx, url, from)
	if err != nil {
		return false, client.DescribeHandshake(resp, err)
	}
	c := newWSClient(conn, url, nil)
	defer c.Close()
	select {
	case <-c.Closed():
		return false, "accepted at the handshake, then " + c.CloseReason()
	case <-time.After(time.Second):
		return true, "accepted and kept open"
	}
}

// CapOutcome is how the connection cap of one stream fared.
type CapOutcome struct {
	Stream    string
	From      string
	Opened    int
	OpenFails []string
	// Extra is how connection ConnCap+1 fared.
	ExtraAccepted bool
	Extra         string
	// Other is how a connection from another address fared; with one
	// address (OneAddress) there is none to try.
	OtherAccepted bool
	Other         string
	OneAddress    bool
	// Dropped counts connections of the first ConnCap the server closed.
	Dropped int
	// Freed says whether, after one of ours closed, a new connection from
	// the address was accepted (within a few seconds).
	Freed    bool
	FreedHow string
	// Attempts is 2 when the first attempt opened fewer than ConnCap
	// connections and none over it (one address: a connection of the run
	// not yet let go of) and the check ran again.
	Attempts int
}

// Problems says how the outcome departs from V3-LIMIT-WS-CONN.
func (o CapOutcome) Problems() []string {
	var p []string
	if o.Opened != ConnCap {
		p = append(p, fmt.Sprintf("%s from %s: %d of %d connections opened (e.g. %v)", o.Stream, o.From, o.Opened, ConnCap, first(o.OpenFails)))
	}
	if o.ExtraAccepted {
		p = append(p, fmt.Sprintf("%s from %s: connection %d was %s", o.Stream, o.From, ConnCap+1, o.Extra))
	}
	if !o.OtherAccepted && !o.OneAddress {
		p = append(p, fmt.Sprintf("%s: a connection from another address was refused: %s", o.Stream, o.Other))
	}
	if o.Dropped > 0 {
		p = append(p, fmt.Sprintf("%s from %s: the server closed %d of the first %d connections", o.Stream, o.From, o.Dropped, ConnCap))
	}
	if o.Opened == ConnCap && !o.Freed {
		p = append(p, fmt.Sprintf("%s from %s: after one connection closed, no new one was accepted: %s", o.Stream, o.From, o.FreedHow))
	}
	return p
}

func first(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return xs[0]
}

// checkCap opens ConnCap connections to a stream from one address, then
// one more, then one from another address, then frees a slot; it closes
// every connection before it returns. With from and other nil, the
// connections come from this machine's one address and no other is tried.
func checkCap(ctx context.Context, url string, from, other net.IP) CapOutcome {
	o := CapOutcome{Stream: url, From: from.String(), OneAddress: from == nil && other == nil}
	if o.OneAddress {
		o.From = "this machine's one address"
	}
	clients, errs := openMany(ctx, url, from, ConnCap)
	defer func() { closeAll(clients) }()
	o.Opened, o.OpenFails = len(clients), errs
	o.ExtraAccepted, o.Extra = tryOneMore(ctx, url, from)
	if o.OneAddress {
		o.Other = "not tried (one address)"
	} else {
		o.OtherAccepted, o.Other = tryOneMore(ctx, url, other)
	}
	for _, c := range clients {
		if c.IsClosed() {
			o.Dropped++
		}
	}
	if len(clients) == 0 {
		return o
	}
	clients[0].Close()
	clients = clients[1:]
	deadline := time.Now().Add(3 * time.Second)
	for {
		conn, resp, err := wsDial(ctx, url, from)
		if err == nil {
			o.Freed = true
			clients = append(clients, newWSClient(conn, url, nil))
			return o
		}
		o.FreedHow = client.DescribeHandshake(resp, err)
		if time.Now().After(deadline) || ctx.Err() != nil {
			return o
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ScopeOutcome records whether the cap is per stream (V3-LIMIT-WS-CONN-SCOPE).
type ScopeOutcome struct {
	Opened   int
	Accepted bool
	How      string
}

// checkScope fills /ws/public's cap from one address, then tries /ws/trading.
func checkScope(ctx context.Context, wsBase string, from net.IP) ScopeOutcome {
	clients, _ := openMany(ctx, wsBase+"/api/3/ws/public", from, ConnCap)
	defer closeAll(clients)
	o := ScopeOutcome{Opened: len(clients)}
	o.Accepted, o.How = tryOneMore(ctx, wsBase+"/api/3/ws/trading", from)
	return o
}

// WaitPing connects from an address and returns how long after the
// handshake the server's first ping came, or an error after timeout.
func WaitPing(ctx context.Context, url string, from net.IP, timeout time.Duration) (time.Duration, error) {
	conn, resp, err := wsDial(ctx, url, from)
	if err != nil {
		return 0, errors.New(client.DescribeHandshake(resp, err))
	}
	start := time.Now()
	pinged := make(chan time.Duration, 1)
	c := client.NewWSConn(conn, url, client.WSOptions{OnPing: func() {
		select {
		case pinged <- time.Since(start):
		default:
		}
	}})
	defer c.Close()
	select {
	case d := <-pinged:
		return d, nil
	case <-c.Closed():
		return 0, errors.New(c.CloseReason())
	case <-time.After(timeout):
		return 0, fmt.Errorf("no ping within %s", timeout)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
