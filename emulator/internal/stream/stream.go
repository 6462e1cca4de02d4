// Package stream serves the emulator's WebSocket interfaces
// ({ws_url}/api/3/ws/public, /ws/trading and /ws/wallet) with the limits of
// the spec: at most 100 connections per IP address per stream, 10 messages
// per second with a burst of 10 per IP address per stream, and a ping every
// 30 seconds. /ws/public serves the market data channels (public.go) when
// Options.Market is set; the other streams refuse every method for now.
//
// Choices where the spec is silent, recorded by the ambiguous rules:
//   - a handshake over the connection cap is refused with HTTP 429 and the
//     documented error body, before the upgrade (V3-LIMIT-WS-CONN-REFUSAL);
//   - the cap counts per stream (V3-LIMIT-WS-CONN-SCOPE);
//   - a message over the rate limit is answered with the streaming error
//     shape {error: {code 429, message, description}, id} and the
//     connection stays open (V3-LIMIT-WS-MSG-REFUSAL).
package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/limits"
	"github.com/gorilla/websocket"
)

// DefaultPingInterval is the documented ping period.
const DefaultPingInterval = 30 * time.Second

// Options configure a Server.
type Options struct {
	// Prefix is the API version prefix the stream paths hang under
	// (default /api/3).
	Prefix string
	// PingInterval is the time between pings on a connection (default
	// DefaultPingInterval).
	PingInterval time.Duration
	// Guard enforces the connection cap and message limits; nil enforces
	// none.
	Guard *limits.Guard
	// Faults switch on stream faults (V3-LIMIT-WS-PING).
	Faults *faults.Set
	// Logger receives connection failures; default discards.
	Logger *slog.Logger
	// Accounts serves the trading and wallet streams; nil refuses their
	// methods.
	Accounts *Accounts
	// Market feeds the market data channels of /ws/public; nil answers
	// subscriptions only.
	Market *Market
}

// Server is the set of streams. It is an http.Handler for paths under
// Prefix; Close ends every connection.
type Server struct {
	opts     Options
	interval time.Duration
	upgrader websocket.Upgrader
	writer   *api.Writer

	conns  Conns[*conn]
	wg     sync.WaitGroup
	frames *frameCache
}

// New builds a Server.
func New(o Options) *Server {
	if o.Prefix == "" {
		o.Prefix = "/api/3"
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opts: o, interval: o.PingInterval, writer: &api.Writer{Faults: o.Faults}, frames: newFrameCache(len(o.Faults.IDs()) == 0)}
	if o.Faults.On("V3-LIMIT-WS-PING") {
		s.interval *= 2
	}
	s.upgrader = Upgrader(func(w http.ResponseWriter, r *http.Request, status int, reason error) {
		e := &api.Error{Status: status, Code: status, Message: http.StatusText(status), Description: reason.Error()}
		if status == http.StatusBadRequest {
			e = api.Validation("not a WebSocket handshake: %v", reason)
		}
		s.writer.Error(w, r, e)
	})
	return s
}

// streams are the paths served, relative to the prefix.
var streams = []string{limits.StreamPublic, limits.StreamTrading, limits.StreamWallet}

// ServeHTTP accepts a WebSocket handshake on one of the stream paths.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	stream := strings.TrimPrefix(r.URL.Path, s.opts.Prefix)
	known := false
	for _, st := range streams {
		known = known || st == stream
	}
	if !known || !strings.HasPrefix(r.URL.Path, s.opts.Prefix) {
		s.writer.Error(w, r, api.NotFound(r.Method, r.URL.Path))
		return
	}
	if s.conns.IsShut() {
		s.writer.Error(w, r, &api.Error{Status: http.StatusServiceUnavailable, Code: 503, Message: "Service Unavailable", Description: "the emulator is shutting down"})
		return
	}
	ip := limits.ClientIP(r)
	release := func() {}
	if g := s.opts.Guard; g != nil {
		rel, ok := g.Connect(stream, ip)
		if !ok {
			s.writer.Error(w, r, g.TooManyConnections(stream, ip))
			return
		}
		release = rel
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release() // the upgrader has answered the failed handshake
		return
	}
	c := &conn{srv: s, ws: ws, stream: stream, ip: ip, release: release, done: make(chan struct{})}
	adopt(ws, &c.w)
	if stream == limits.StreamPublic && s.opts.Market != nil {
		c.pub = newPublic(c, s.opts.Market)
	}
	if !s.register(c) {
		c.closeWith(websocket.CloseGoingAway, shuttingDown)
		return
	}
	go c.read()
	go c.ping(s.interval)
}

// register adds c unless the server is closing; the goroutines of c are
// counted here, under the lock Close takes, so Close waits for all of them.
func (s *Server) register(c *conn) bool {
	return s.conns.Add(c, func() {
		s.wg.Add(2)
		if c.pub != nil {
			s.wg.Add(1)
			go c.pub.pump()
		}
	})
}

// Close refuses new handshakes, closes every connection with 1001 (going
// away) and waits for their goroutines.
func (s *Server) Close() error {
	for _, c := range s.conns.Shut() {
		c.closeWith(websocket.CloseGoingAway, shuttingDown)
	}
	s.wg.Wait()
	return nil
}

// Conns is the number of open connections (for tests).
func (s *Server) Conns() int {
	return s.conns.Len()
}

// conn is one WebSocket connection. Its frames leave through w: answers
// from the read goroutine, notifications from the public pump and the
// account notifiers, pings, pongs and the close frame.
type conn struct {
	srv     *Server
	ws      *websocket.Conn
	stream  string
	ip      string
	account string   // set by a stream login (the real service's shape: the spec shows none)
	sess    *session // trading and wallet state
	release func()
	done    chan struct{}
	once    sync.Once
	w       wire
	pub     *public // the market data channels of /ws/public; nil elsewhere
}

// write sends a text frame for each message (nil ones skipped), in one
// write. A failed write ends the connection.
func (c *conn) write(msgs ...[]byte) error {
	if err := c.w.send(websocket.TextMessage, msgs...); err != nil {
		go c.close()
		return err
	}
	return nil
}

// closeWith sends a close frame with a code and ends the connection.
func (c *conn) closeWith(code int, text string) {
	_ = c.w.send(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
	c.close()
}

func (c *conn) close() {
	c.once.Do(func() {
		close(c.done)
		if c.sess != nil {
			c.sess.close()
		}
		_ = c.ws.Close()
		c.release()
		c.srv.conns.Remove(c)
	})
}

func (c *conn) read() {
	defer c.srv.wg.Done()
	defer c.close()
	err := readLoop(c.ws, func(data []byte) bool {
		// A nil answer was given already (with its snapshots), or is
		// queued to run in order.
		return c.write(c.answer(data)) == nil
	}, func(msg []byte) { _ = c.w.send(websocket.CloseMessage, msg) })
	if err != nil && !websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
		c.srv.opts.Logger.Debug("stream read", "stream", c.stream, "ip", c.ip, "err", err)
	}
}

func (c *conn) ping(every time.Duration) {
	defer c.srv.wg.Done()
	Ping(c.w.send, every, c.done, c.close)
}

// request is the documented request shape {method, ch, params, id}.
type request struct {
	Method string          `json:"method"`
	Ch     string          `json:"ch"`
	Params json.RawMessage `json:"params"`
	ID     json.RawMessage `json:"id"`
}

// parseRequest reads a request member by member, so that a frame with a
// member of the wrong type still has its id echoed in the error.
func parseRequest(data []byte) (request, error) {
	var req request
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return req, err
	}
	req.ID, req.Params = members["id"], members["params"]
	for name, dst := range map[string]*string{"method": &req.Method, "ch": &req.Ch} {
		if raw, ok := members[name]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, dst); err != nil {
				return req, fmt.Errorf("%s must be a string, not %s", name, raw)
			}
		}
	}
	return req, nil
}

// answer handles one message. Every message counts against the per-IP
// limit, whether or not it parses. A nil answer means the message was
// answered already.
func (c *conn) answer(data []byte) []byte {
	req, perr := parseRequest(data)
	if g := c.srv.opts.Guard; g != nil {
		if e := g.AllowMessage(c.stream, c.ip); e != nil {
			return errorMessage(e, req.ID)
		}
	}
	if perr != nil {
		if c.dropsMalformed() {
			return nil
		}
		if c.pub != nil {
			return c.pub.malformed(api.Validation("a stream request is a JSON object {method, ch, params, id}: %v", perr), req)
		}
		return errorMessage(api.Validation("a stream request is a JSON object {method, params, id}: %v", perr), req.ID)
	}
	if g := c.srv.opts.Guard; g != nil {
		if e := g.AllowMethod(c.stream, req.Method, c.account); e != nil {
			return errorMessage(e, req.ID)
		}
	}
	if c.stream == limits.StreamTrading || c.stream == limits.StreamWallet {
		return c.answerAccount(req)
	}
	if c.pub != nil {
		return c.pub.answer(req)
	}
	if c.stream == limits.StreamPublic && req.Method == "subscriptions" {
		// No channel can be subscribed to yet, so none is active.
		return encode(map[string]any{"result": map[string]any{"ch": req.Ch, "subscriptions": []string{}}}, req.ID)
	}
	return errorMessage(api.Validation("method %q is not supported by the emulator's %s stream yet", req.Method, c.stream), req.ID)
}

// errorMessage is the streaming error shape: the error object with the
// request id (Errors: "Streaming errors use the error object with the
// request id").
func errorMessage(e *api.Error, id json.RawMessage) []byte {
	inner := map[string]any{"code": e.Code, "message": e.Message}
	if e.Description != "" {
		inner["description"] = e.Description
	}
	return encode(map[string]any{"error": inner}, id)
}

func encode(msg map[string]any, id json.RawMessage) []byte {
	if len(bytes.TrimSpace(id)) > 0 && json.Valid(id) {
		msg["id"] = id
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return []byte(fmt.Sprintf(`{"error":{"code":500,"message":"Internal Server Error","description":%q}}`, err.Error()))
	}
	return b
}
