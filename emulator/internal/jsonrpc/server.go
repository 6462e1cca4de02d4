// Package jsonrpc serves the JSON-RPC 2.0 streams of API v2:
// {ws_url}/api/2/ws/public (market data), /api/2/ws/trading (login, order
// reports and, beyond the contract, trading), /api/2/ws/account (login; its
// messages are not shown) and the deprecated /api/2/ws serving them all.
// Everything is fed by the same engine and ledger as version 3, through the
// engine's events (emulator/internal/feed).
//
// Protocol (v2 Streaming): a request is {method, params, id}; one without id
// is a notification and gets no response; answers are {jsonrpc, result, id}
// or {jsonrpc, error {code, message, description}, id}; a subscription
// answers true, then a full snapshot, then updates.
//
// The v2 Limits section shows no limits for these streams, so none is
// enforced; connections are pinged like the v3 streams.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/stream"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/gorilla/websocket"
)

// Prefix is where the v2 streams hang.
const Prefix = "/api/2/ws"

// Bounds of a connection (message size and write timeout are the v3
// streams').
const (
	outQueue = 4096 // messages waiting for a slow reader before it is dropped
	// DefaultPingInterval is the v3 streams' documented period, used here too.
	DefaultPingInterval = stream.DefaultPingInterval
)

// Options configure a Server. Market, Engine, Ledger, Keys, Hub and Tape
// are required.
type Options struct {
	Market *market.Catalogue
	Engine *engine.Engine
	Ledger *ledger.Ledger
	Keys   *auth.Store
	Hub    *feed.Hub
	// Tape is the record of public trades and candles (kept current by a
	// tap on Hub).
	Tape   *tape.Tape
	Faults *faults.Set
	Clock  clock.Clock
	// PingInterval is the time between pings (default DefaultPingInterval).
	PingInterval time.Duration
	Logger       *slog.Logger
}

// Server is the set of v2 streams, an http.Handler for paths under Prefix.
type Server struct {
	opts     Options
	upgrader websocket.Upgrader
	writer   *api.Writer
	state    *state
	methods  map[string]method

	conns stream.Conns[*conn]
	wg    sync.WaitGroup
}

// stream names, by path relative to Prefix.
const (
	streamPublic  = "/public"
	streamTrading = "/trading"
	streamAccount = "/account"
	streamAll     = "" // the deprecated single location
)

// New builds a server and starts following the engine's events.
func New(o Options) *Server {
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	s := &Server{opts: o, writer: &api.Writer{Faults: o.Faults}}
	s.upgrader = stream.Upgrader(func(w http.ResponseWriter, r *http.Request, status int, reason error) {
		s.writer.Error(w, r, api.Validation("not a WebSocket handshake: %v", reason))
	})
	s.methods = s.methodTable()
	s.state = newState(s)
	s.wg.Add(1)
	go s.state.follow()
	return s
}

// ServeHTTP accepts a WebSocket handshake on one of the stream paths.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	switch {
	case !ok, name != streamPublic && name != streamTrading && name != streamAccount && name != streamAll,
		name == streamAccount && s.opts.Faults.On("V2-WS-PATHS"):
		s.writer.Error(w, r, api.NotFound(r.Method, r.URL.Path))
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &conn{srv: s, ws: ws, wr: stream.NewWriter(ws), stream: name, out: make(chan []byte, outQueue), done: make(chan struct{})}
	if !s.conns.Add(c, func() { s.wg.Add(3) }) {
		_ = ws.Close()
		return
	}
	s.state.connected()
	go c.read()
	go c.write()
	go c.ping(s.opts.PingInterval)
}

// Close ends every connection and stops following the engine.
func (s *Server) Close() error {
	for _, c := range s.conns.Shut() {
		c.wr.GoingAway()
		c.close()
	}
	s.state.stop()
	s.wg.Wait()
	return nil
}

// request is the JSON-RPC request shape.
type request struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	ID     json.RawMessage `json:"id"`
	// broken marks a message that could not be read: it is answered
	// (with id null) although it has no id.
	broken bool
}

// notification reports whether the request has no id (absent or null).
func (r *request) notification() bool {
	id := bytes.TrimSpace(r.ID)
	return len(id) == 0 || string(id) == "null"
}

// conn is one WebSocket connection. Every data message goes through out, so
// that answers and notifications keep the order in which they were queued.
type conn struct {
	srv    *Server
	ws     *websocket.Conn
	wr     *stream.Writer // every frame of ws goes through it
	stream string
	out    chan []byte
	done   chan struct{}
	once   sync.Once

	mu   sync.Mutex
	user *api.Principal // set by login
}

func (c *conn) close() {
	c.once.Do(func() {
		close(c.done)
		if c.ws != nil { // nil only in tests that drive handle directly
			_ = c.ws.Close()
		}
	})
}

func (c *conn) principal() *api.Principal {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.user
}

// send queues a message; a reader too slow to keep up is disconnected
// rather than slowing the engine's followers down.
func (c *conn) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.srv.opts.Logger.Error("jsonrpc encode", "err", err)
		return
	}
	c.queue(b)
}

// queue queues an encoded message (shared with other connections: never
// changed); a reader too slow to keep up is disconnected.
func (c *conn) queue(b []byte) {
	select {
	case <-c.done:
	case c.out <- b:
	default:
		c.close()
	}
}

func (c *conn) read() {
	defer c.srv.wg.Done()
	defer func() {
		c.close()
		c.srv.state.drop(c)
		c.srv.state.disconnected()
		c.srv.conns.Remove(c)
	}()
	_ = stream.ReadLoop(c.ws, c.wr, func(data []byte) bool {
		c.handle(data)
		return true
	})
}

func (c *conn) write() {
	defer c.srv.wg.Done()
	// What is queued behind a message leaves with it, in one write: a
	// trade's updates reach a subscriber together (a write per message was
	// the fan-out's floor).
	batch := make([][]byte, 0, maxBatch)
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			batch = append(batch[:0], b)
		more:
			for len(batch) < maxBatch {
				select {
				case b := <-c.out:
					batch = append(batch, b)
				default:
					break more
				}
			}
			err := c.wr.Send(websocket.TextMessage, batch...)
			clear(batch) // the messages may be shared with other connections: only dropped here
			if err != nil {
				c.close()
				return
			}
		}
	}
}

// maxBatch bounds the messages of one write.
const maxBatch = 64

func (c *conn) ping(every time.Duration) {
	defer c.srv.wg.Done()
	stream.Ping(c.wr.Send, every, c.done, c.close)
}

// handle answers one message. A bug of the emulator is answered as an
// internal error rather than taking the process down.
func (c *conn) handle(data []byte) {
	var req request
	defer func() {
		if r := recover(); r != nil {
			c.srv.opts.Logger.Error("jsonrpc panic", "method", req.Method, "panic", r)
			c.fail(&request{ID: req.ID, broken: true}, api.Internal("the emulator failed on %s: %v", req.Method, r))
		}
	}()
	if err := json.Unmarshal(data, &req); err != nil || req.Method == "" {
		// Without a readable id there is nobody to answer but the
		// connection: answer with id null.
		c.fail(&request{broken: true}, api.Validation("a request is a JSON object {method, params, id} with a method"))
		return
	}
	m, ok := c.srv.methods[req.Method]
	if !ok || !m.servedOn(c.stream, c.srv.opts.Faults) {
		c.fail(&req, &api.Error{Code: codeMethodNotFound, Message: "Method not found", Description: "the " + streamName(c.stream) + " stream has no method " + req.Method})
		return
	}
	p, perr := api.JSONParams(req.Params)
	if perr != nil {
		c.fail(&req, perr)
		return
	}
	res, e := m.fn(c, &req, p)
	switch {
	case e != nil:
		c.fail(&req, e)
	case res != answered:
		c.result(&req, res)
	}
}

// codeMethodNotFound is JSON-RPC 2.0's own code for an unknown method (the v2
// document gives none).
const codeMethodNotFound = -32601

func streamName(stream string) string {
	if stream == streamAll {
		return "single"
	}
	return strings.TrimPrefix(stream, "/")
}

// answered is returned by methods that sent their result themselves (to
// queue a snapshot right after it).
var answered = &struct{ answered bool }{true}

// result answers a request (never a notification).
func (c *conn) result(req *request, v any) {
	f := c.srv.opts.Faults
	if req.notification() && !f.On("V2-WS-NOTIFICATION") {
		return
	}
	msg := map[string]any{"jsonrpc": "2.0", "result": v, "id": idOf(req)}
	if f.On("V2-WS-RESULT") {
		delete(msg, "jsonrpc")
	}
	c.send(msg)
}

// fail answers a request with the documented error shape.
func (c *conn) fail(req *request, e *api.Error) {
	f := c.srv.opts.Faults
	if req.notification() && !req.broken && !f.On("V2-WS-NOTIFICATION") {
		return
	}
	inner := map[string]any{"code": e.Code, "message": e.Message, "description": e.Description}
	msg := map[string]any{"jsonrpc": "2.0", "error": inner, "id": idOf(req)}
	if f.On("V2-WS-ERROR") {
		delete(msg, "id")
	}
	c.send(msg)
}

func idOf(req *request) json.RawMessage {
	if req.notification() {
		return json.RawMessage("null")
	}
	return req.ID
}

// notify sends a notification {jsonrpc, method, params}.
func (c *conn) notify(method string, params any) {
	c.send(notification(method, params))
}

func notification(method string, params any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
}

// broadcast encodes one notification once, on first use, for the many
// connections that get the same bytes (a market data update goes to every
// subscriber of its symbol: encoding it per connection was most of the
// fan-out's CPU).
type broadcast struct {
	srv    *Server
	method string
	params any
	b      []byte
	failed bool
}

// to queues the notification to c.
func (n *broadcast) to(c *conn) {
	if n.b == nil && !n.failed {
		b, err := json.Marshal(notification(n.method, n.params))
		if err != nil {
			n.srv.opts.Logger.Error("jsonrpc encode", "err", err)
			n.failed = true
			return
		}
		n.b = b
	}
	if !n.failed {
		c.queue(n.b)
	}
}

// Conns is the number of open connections (for tests).
func (s *Server) Conns() int {
	return s.conns.Len()
}
