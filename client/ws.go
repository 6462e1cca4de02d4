package client

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// WSOptions configure a WebSocket connection. The zero value dials from any
// address, refuses stream methods that trade (a nil Guard refuses) and
// redacts by form only.
type WSOptions struct {
	// From is the local address to dial from (nil: any).
	From net.IP
	// TLS configures wss connections (nil: the system's roots).
	TLS *tls.Config
	// Header is sent with the handshake (X-Forwarded-For, for example).
	Header http.Header
	// Guard is consulted before every frame whose method trades or moves
	// funds (see TradingStreamMethod), with the URL dialled.
	Guard *Guard
	// OnRefused, when set, is called with the guard's error whenever the
	// guard refuses a frame, before SendRaw returns (a suite turns it into
	// a skip).
	OnRefused func(error)
	// Redactor cleans every recorded frame (login payloads included).
	Redactor *Redactor
	// OnPing, when set, is called for every ping of the server (the pong
	// is still sent).
	OnPing func()
	// Notifications is the length of the queue of frames that answer no
	// waiting request (default 4096); when it is full the oldest are lost
	// and NotificationsLost counts them.
	Notifications int
	// Keep is how many frames the transcript keeps (default 200).
	Keep int
	// Pacer, when set, spaces the frames sent as requests to PacePath (the
	// stream's path after the API prefix, e.g. /ws/public), for a target
	// whose per-IP stream budget is shared.
	Pacer    *Pacer
	PacePath string
}

// HandshakeTimeout bounds a WebSocket handshake.
const HandshakeTimeout = 5 * time.Second

// DialWS opens a WebSocket connection. On a refused handshake the error says
// how it was refused (DescribeHandshake).
func DialWS(ctx context.Context, url string, opts WSOptions) (*WSConn, error) {
	conn, resp, err := DialWSRaw(ctx, url, opts.From, opts.Header, opts.TLS)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %s", url, DescribeHandshake(resp, err))
	}
	return NewWSConn(conn, url, opts), nil
}

// DialWSRaw opens a WebSocket connection from a source address (nil: any),
// over TLS configured by conf for wss (nil: the system's roots), and hands
// back the bare connection and the handshake's answer.
func DialWSRaw(ctx context.Context, url string, from net.IP, h http.Header, conf *tls.Config) (*websocket.Conn, *http.Response, error) {
	nd := &net.Dialer{Timeout: HandshakeTimeout}
	if from != nil {
		nd.LocalAddr = &net.TCPAddr{IP: from}
	}
	d := websocket.Dialer{HandshakeTimeout: HandshakeTimeout, NetDialContext: nd.DialContext, TLSClientConfig: conf}
	return d.DialContext(ctx, url, h)
}

// DescribeHandshake says how a failed handshake was refused.
func DescribeHandshake(resp *http.Response, err error) string {
	if resp == nil {
		return fmt.Sprintf("handshake failed without an answer: %v", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	resp.Body.Close()
	return fmt.Sprintf("handshake answered HTTP %d %s", resp.StatusCode, body)
}

// WSError is the error member of a stream answer.
type WSError struct {
	Code        json.Number `json:"code"`
	Message     string      `json:"message"`
	Description string      `json:"description"`
}

// WSMessage is one frame received, with what identifies it read loosely
// (the frame itself is in Raw for exact checks).
type WSMessage struct {
	Raw []byte
	At  time.Time
	// ID is the id member when it is a string or a number (as its JSON
	// text for numbers); HasID says whether the frame had a non-null id.
	ID    string
	HasID bool
	// Method and Ch are set on notifications.
	Method, Ch string
	Error      *WSError
}

// Kind is "result" or "error <code>".
func (m WSMessage) Kind() string {
	if m.Error != nil {
		return "error " + m.Error.Code.String()
	}
	return "result"
}

// Describe says briefly what the frame was.
func (m WSMessage) Describe() string {
	if m.Error != nil {
		return fmt.Sprintf("error %s %q", m.Error.Code, m.Error.Message)
	}
	return "a result"
}

// WSConn is a stream connection with a reader that hands answers to whoever
// waits for their id and queues the other frames as notifications. Reading
// all the time also answers the server's pings and notices a close.
type WSConn struct {
	conn   *websocket.Conn
	url    string
	opts   WSOptions
	notes  chan WSMessage
	closed chan struct{}

	wmu sync.Mutex // one writer at a time

	mu      sync.Mutex
	waiting map[string]chan WSMessage
	err     error // why reading stopped
	frames  []string
	lost    int
}

// NewWSConn wraps an open connection and starts its reader. url is the
// URL the connection was opened to: the guard decides by its host.
func NewWSConn(conn *websocket.Conn, url string, opts WSOptions) *WSConn {
	if opts.Notifications <= 0 {
		opts.Notifications = 4096
	}
	if opts.Keep <= 0 {
		opts.Keep = 200
	}
	c := &WSConn{conn: conn, url: url, opts: opts, notes: make(chan WSMessage, opts.Notifications),
		closed: make(chan struct{}), waiting: map[string]chan WSMessage{}}
	if opts.OnPing != nil {
		conn.SetPingHandler(func(data string) error {
			opts.OnPing()
			err := conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
			if errors.Is(err, websocket.ErrCloseSent) {
				return nil
			}
			return err
		})
	}
	go c.read()
	return c
}

// Conn is the underlying connection (for control frames and deadlines).
func (c *WSConn) Conn() *websocket.Conn { return c.conn }

func (c *WSConn) record(dir string, data []byte) {
	s := c.opts.Redactor.Redact(dir + " " + clip(data))
	c.mu.Lock()
	if len(c.frames) >= c.opts.Keep {
		c.frames = append(c.frames[:0], c.frames[1:]...)
	}
	c.frames = append(c.frames, s)
	c.mu.Unlock()
}

// Transcript is the latest frames sent (>) and received (<), redacted.
func (c *WSConn) Transcript() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.url + "\n" + strings.Join(c.frames, "\n")
}

func (c *WSConn) read() {
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			close(c.closed)
			return
		}
		c.record("<", data)
		m := ParseWSMessage(data)
		var ch chan WSMessage
		if m.HasID {
			c.mu.Lock()
			ch = c.waiting[m.ID]
			delete(c.waiting, m.ID)
			c.mu.Unlock()
		}
		if ch != nil {
			ch <- m
			continue
		}
		c.queue(m)
	}
}

func (c *WSConn) queue(m WSMessage) {
	for {
		select {
		case c.notes <- m:
			return
		default:
		}
		select {
		case <-c.notes:
			c.mu.Lock()
			c.lost++
			c.mu.Unlock()
		default:
		}
	}
}

// ParseWSMessage reads what identifies a frame; a frame that is not a JSON
// object yields a message with Raw only.
func ParseWSMessage(data []byte) WSMessage {
	m := WSMessage{Raw: data, At: time.Now()}
	var f struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Ch     string          `json:"ch"`
		Error  *WSError        `json:"error"`
	}
	if json.Unmarshal(data, &f) != nil {
		return m
	}
	m.Method, m.Ch, m.Error = f.Method, f.Ch, f.Error
	if len(f.ID) > 0 && string(f.ID) != "null" {
		m.HasID = true
		if json.Unmarshal(f.ID, &m.ID) != nil {
			m.ID = string(f.ID)
		}
	}
	return m
}

// Notifications are the frames that answered no waiting request, in order.
func (c *WSConn) Notifications() <-chan WSMessage { return c.notes }

// NotificationsLost is how many notifications were dropped from a full queue.
func (c *WSConn) NotificationsLost() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost
}

// Expect registers an id before its request is sent; the answer with that
// id goes to the channel returned instead of the notifications.
func (c *WSConn) Expect(id string) <-chan WSMessage {
	ch := make(chan WSMessage, 1)
	c.mu.Lock()
	c.waiting[id] = ch
	c.mu.Unlock()
	return ch
}

// TradingStreamMethod reports whether a stream method places, changes or
// cancels orders or moves funds: the v3 trading stream's and the v2
// JSON-RPC streams' names, and any name that says it enters, replaces or
// cancels an order, transfers, withdraws, freezes or activates (a service's
// further methods, in either naming style), so that an unlisted one is not
// waved through.
func TradingStreamMethod(method string) bool {
	switch method {
	case "spot_new_order", "spot_new_order_list", "spot_replace_order", "spot_cancel_order", "spot_cancel_orders",
		"margin_new_order", "margin_new_order_list", "margin_replace_order", "margin_cancel_order", "margin_cancel_orders",
		"futures_new_order", "futures_new_order_list", "futures_replace_order", "futures_cancel_order", "futures_cancel_orders",
		"futures_set_account", "futures_close_position",
		"newOrder", "cancelOrder", "cancelReplaceOrder":
		return true
	}
	m := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(method))
	for _, verb := range []string{"neworder", "placeorder", "createorder", "replace", "cancel", "closeposition", "setaccount",
		"transfer", "withdraw", "freeze", "activate", "convert", "payout"} {
		if strings.Contains(m, verb) {
			return true
		}
	}
	return false
}

// Send writes v as JSON, after asking the guard about its method.
func (c *WSConn) Send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding a stream request: %w", err)
	}
	return c.SendRaw(data)
}

// SendRaw writes a text frame as it is (malformed frames included), after
// asking the guard about the method it names, if any, on the URL the
// connection was opened to. A refused frame is not sent: OnRefused is
// called with the error, which is returned.
func (c *WSConn) SendRaw(data []byte) error {
	var f struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(data, &f) == nil {
		if err := c.opts.Guard.CheckStream(c.url, f.Method); err != nil {
			c.record("refused >", data)
			if c.opts.OnRefused != nil {
				c.opts.OnRefused(err)
			}
			return err
		}
	}
	if c.opts.Pacer != nil {
		_ = c.opts.Pacer.Wait(context.Background(), c.opts.PacePath)
	}
	c.record(">", data)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(HandshakeTimeout))
	if err := c.conn.WriteMessage(websocket.TextMessage, data); err != nil {
		return fmt.Errorf("sending to %s: %w", c.url, err)
	}
	return nil
}

// Request sends {"method", "params" (when not nil), "id"} merged with extra
// members (such as "ch") and waits up to timeout for the answer with its id.
func (c *WSConn) Request(ctx context.Context, timeout time.Duration, id string, method string, extra map[string]any) (WSMessage, error) {
	req := map[string]any{"method": method, "id": id}
	for k, v := range extra {
		req[k] = v
	}
	ch := c.Expect(id)
	if err := c.Send(req); err != nil {
		c.forget(id)
		return WSMessage{}, err
	}
	return c.Await(ctx, ch, timeout)
}

func (c *WSConn) forget(id string) {
	c.mu.Lock()
	delete(c.waiting, id)
	c.mu.Unlock()
}

// ErrWSTimeout is wrapped when no answer came in time.
var ErrWSTimeout = errors.New("no answer in time")

// Await waits for an answer registered with Expect. An answer that came in
// before the connection closed is still an answer.
func (c *WSConn) Await(ctx context.Context, ch <-chan WSMessage, timeout time.Duration) (WSMessage, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m := <-ch:
		return m, nil
	case <-c.closed:
		select {
		case m := <-ch:
			return m, nil
		default:
			return WSMessage{}, errors.New(c.CloseReason())
		}
	case <-t.C:
		return WSMessage{}, fmt.Errorf("%w: %s within %s", ErrWSTimeout, c.url, timeout)
	case <-ctx.Done():
		return WSMessage{}, ctx.Err()
	}
}

// Closed is closed when the connection is gone.
func (c *WSConn) Closed() <-chan struct{} { return c.closed }

// IsClosed reports whether the connection is gone.
func (c *WSConn) IsClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// CloseError is the close frame the server sent (nil when none).
func (c *WSConn) CloseError() *websocket.CloseError {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ce *websocket.CloseError
	if errors.As(c.err, &ce) {
		return ce
	}
	return nil
}

// CloseReason says how the connection ended.
func (c *WSConn) CloseReason() string {
	if ce := c.CloseError(); ce != nil {
		return fmt.Sprintf("connection closed with %d %q", ce.Code, ce.Text)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("connection closed: %v", c.err)
}

// Close ends the connection from our side and waits for the reader.
func (c *WSConn) Close() {
	c.wmu.Lock()
	_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	c.wmu.Unlock()
	_ = c.conn.Close()
	<-c.closed
}
