package scenarios

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// answerTimeout bounds the wait for the answers to one offer of messages.
const answerTimeout = 3 * time.Second

// wsDial opens a WebSocket connection from a source address.
func wsDial(ctx context.Context, url string, from net.IP) (*websocket.Conn, *http.Response, error) {
	d := websocket.Dialer{
		HandshakeTimeout: 5 * time.Second,
		NetDialContext:   (&net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: from}}).DialContext,
	}
	return d.DialContext(ctx, url, nil)
}

// describeRefusedHandshake says how a failed handshake was refused.
func describeRefusedHandshake(resp *http.Response, err error) string {
	if resp == nil {
		return fmt.Sprintf("handshake failed without an answer: %v", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	resp.Body.Close()
	return fmt.Sprintf("handshake answered HTTP %d %s", resp.StatusCode, body)
}

// wsAnswer is one message received, by request id.
type wsAnswer struct {
	kind string // "result" or "error <code>"
	desc string
	at   time.Time
}

// wsClient is a connection with a reader that hands answers to whoever
// waits for their id. Reading all the time also answers the server's
// pings (gorilla/websocket's default handler) and notices a close.
type wsClient struct {
	conn *websocket.Conn

	mu      sync.Mutex
	waiting map[string]chan wsAnswer
	closed  chan struct{}
	err     error // why reading stopped
}

func newWSClient(conn *websocket.Conn) *wsClient {
	c := &wsClient{conn: conn, waiting: map[string]chan wsAnswer{}, closed: make(chan struct{})}
	go c.read()
	return c
}

func (c *wsClient) read() {
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			close(c.closed)
			return
		}
		at := time.Now()
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code    json.Number `json:"code"`
				Message string      `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		var id string
		if json.Unmarshal(msg.ID, &id) != nil {
			continue // notifications and answers to nobody's id
		}
		a := wsAnswer{kind: "result", desc: "a result", at: at}
		if msg.Error != nil {
			a.kind = "error " + msg.Error.Code.String()
			a.desc = fmt.Sprintf("error %s %q", msg.Error.Code, msg.Error.Message)
		}
		c.mu.Lock()
		ch := c.waiting[id]
		delete(c.waiting, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- a
		}
	}
}

// isClosed reports whether the server closed the connection.
func (c *wsClient) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func (c *wsClient) closeReason() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ce *websocket.CloseError
	if errors.As(c.err, &ce) {
		return fmt.Sprintf("connection closed with %d %q", ce.Code, ce.Text)
	}
	return fmt.Sprintf("connection closed: %v", c.err)
}

// expect registers an id before its request is sent.
func (c *wsClient) expect(id string) chan wsAnswer {
	ch := make(chan wsAnswer, 1)
	c.mu.Lock()
	c.waiting[id] = ch
	c.mu.Unlock()
	return ch
}

// close ends the connection from our side and waits for the reader.
func (c *wsClient) close() {
	_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.conn.Close()
	<-c.closed
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

	clients []*wsClient
	seq     int
	normal  string
}

// connect (re)opens the connections the server has closed.
func (s *wsSender) connect(ctx context.Context) error {
	for len(s.clients) < s.conns {
		s.clients = append(s.clients, nil)
	}
	for i, c := range s.clients {
		if c != nil && !c.isClosed() {
			continue
		}
		conn, resp, err := wsDial(ctx, s.url, s.from)
		if err != nil {
			return fmt.Errorf("connecting to %s from %s: %s", s.url, s.from, describeRefusedHandshake(resp, err))
		}
		s.clients[i] = newWSClient(conn)
	}
	return nil
}

func (s *wsSender) Send(ctx context.Context, n int) (Burst, error) {
	if err := s.connect(ctx); err != nil {
		return Burst{}, err
	}
	type pending struct {
		c  *wsClient
		ch chan wsAnswer
	}
	waits := make([]pending, n)
	b := Burst{Offered: n, Start: time.Now()}
	for i := range n {
		c := s.clients[i%len(s.clients)]
		id := fmt.Sprintf("m%d", s.seq)
		s.seq++
		waits[i] = pending{c, c.expect(id)}
		_ = c.conn.SetWriteDeadline(time.Now().Add(answerTimeout))
		if err := c.conn.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, s.message, id)); err != nil && !c.isClosed() {
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
			if a.at.After(b.End) {
				b.End = a.at
			}
			if s.normal == "" {
				s.normal = a.kind
			}
			if a.kind == s.normal {
				b.Accepted++
				continue
			}
			b.Refused++
			b.addRefusal(a.desc)
		case closedFirst:
			b.Closed++
			b.addRefusal(w.c.closeReason())
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
func await(ctx context.Context, c *wsClient, ch chan wsAnswer, deadline <-chan time.Time) (wsAnswer, awaited) {
	select {
	case a := <-ch:
		return a, answered
	case <-c.closed:
		select {
		case a := <-ch:
			return a, answered
		default:
			return wsAnswer{}, closedFirst
		}
	case <-deadline:
		return wsAnswer{}, timedOut
	case <-ctx.Done():
		return wsAnswer{}, canceled
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
			c.close()
		}
	}
}

// openMany opens n connections to url from one address, a few handshakes
// at a time.
func openMany(ctx context.Context, url string, from net.IP, n int) ([]*wsClient, []string) {
	var (
		mu      sync.Mutex
		clients []*wsClient
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
				errs = append(errs, describeRefusedHandshake(resp, err))
				return
			}
			clients = append(clients, newWSClient(conn))
		}()
	}
	wg.Wait()
	return clients, errs
}

func closeAll(cs []*wsClient) {
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() { defer wg.Done(); c.close() }()
	}
	wg.Wait()
}

// tryOneMore opens one more connection and says whether the server kept
// it: refused at the handshake, or closed within a second of it, counts
// as refused.
func tryOneMore(ctx context.Context, url string, from net.IP) (accepted bool, how string) {
	conn, resp, err := wsDial(ctx, url, from)
	if err != nil {
		return false, describeRefusedHandshake(resp, err)
	}
	c := newWSClient(conn)
	defer c.close()
	select {
	case <-c.closed:
		return false, "accepted at the handshake, then " + c.closeReason()
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
	// Other is how a connection from another address fared.
	OtherAccepted bool
	Other         string
	// Dropped counts connections of the first ConnCap the server closed.
	Dropped int
	// Freed says whether, after one of ours closed, a new connection from
	// the address was accepted (within a few seconds).
	Freed    bool
	FreedHow string
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
	if !o.OtherAccepted {
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
// every connection before it returns.
func checkCap(ctx context.Context, url string, from, other net.IP) CapOutcome {
	o := CapOutcome{Stream: url, From: from.String()}
	clients, errs := openMany(ctx, url, from, ConnCap)
	defer func() { closeAll(clients) }()
	o.Opened, o.OpenFails = len(clients), errs
	o.ExtraAccepted, o.Extra = tryOneMore(ctx, url, from)
	o.OtherAccepted, o.Other = tryOneMore(ctx, url, other)
	for _, c := range clients {
		if c.isClosed() {
			o.Dropped++
		}
	}
	if len(clients) == 0 {
		return o
	}
	clients[0].close()
	clients = clients[1:]
	deadline := time.Now().Add(3 * time.Second)
	for {
		conn, resp, err := wsDial(ctx, url, from)
		if err == nil {
			o.Freed = true
			clients = append(clients, newWSClient(conn))
			return o
		}
		o.FreedHow = describeRefusedHandshake(resp, err)
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
		return 0, errors.New(describeRefusedHandshake(resp, err))
	}
	start := time.Now()
	pinged := make(chan time.Duration, 1)
	conn.SetPingHandler(func(data string) error {
		select {
		case pinged <- time.Since(start):
		default:
		}
		return conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	c := newWSClient(conn)
	defer c.close()
	select {
	case d := <-pinged:
		return d, nil
	case <-c.closed:
		return 0, errors.New(c.closeReason())
	case <-time.After(timeout):
		return 0, fmt.Errorf("no ping within %s", timeout)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
