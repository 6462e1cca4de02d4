package stream

import (
	"errors"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

// Bounds of a connection, shared with the v2 JSON-RPC streams: what one
// message may weigh and how long a write may block before the connection is
// given up.
const (
	MaxMessage   = 64 << 10
	WriteTimeout = 10 * time.Second
)

// Upgrader accepts handshakes from any origin (the streams are an API, not
// a web page); refuse answers a failed handshake.
func Upgrader(refuse func(w http.ResponseWriter, r *http.Request, status int, reason error)) websocket.Upgrader {
	return websocket.Upgrader{
		HandshakeTimeout: 10 * time.Second,
		CheckOrigin:      func(*http.Request) bool { return true },
		Error:            refuse,
	}
}

// ReadLoop hands each data message of ws (at most MaxMessage) to handle
// until a read fails or handle answers false; it returns the read error
// (nil when handle stopped). A text message that is not UTF-8 fails the
// connection with 1007 (RFC 6455 section 8.1) through wr, unhandled, and
// returns ErrInvalidUTF8.
func ReadLoop(ws *websocket.Conn, wr *Writer, handle func([]byte) bool) error {
	return readLoop(ws, handle, func(msg []byte) { _ = wr.Send(websocket.CloseMessage, msg) })
}

// readLoop is ReadLoop with the close frame sent by sendClose.
func readLoop(ws *websocket.Conn, handle func([]byte) bool, sendClose func([]byte)) error {
	ws.SetReadLimit(MaxMessage)
	for {
		kind, data, err := ws.ReadMessage()
		if err != nil {
			return err
		}
		if kind == websocket.TextMessage && !utf8.Valid(data) {
			sendClose(websocket.FormatCloseMessage(websocket.CloseInvalidFramePayloadData, "text frame is not valid UTF-8"))
			return ErrInvalidUTF8
		}
		if !handle(data) {
			return nil
		}
	}
}

// ErrInvalidUTF8 ends a connection that sent a text message that is not UTF-8.
var ErrInvalidUTF8 = errors.New("stream: text message is not valid UTF-8")

// Ping sends a ping through send every interval until done is closed; a
// ping that cannot be written calls fail and stops.
func Ping(send func(op int, payloads ...[]byte) error, every time.Duration, done <-chan struct{}, fail func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := send(websocket.PingMessage, []byte{}); err != nil {
				fail()
				return
			}
		case <-done:
			return
		}
	}
}

// Conns is a server's set of open connections, shared with the v2 JSON-RPC
// server. Once shut it accepts none, so that a closing server can wait for
// every connection it ever accepted. The zero value is ready to use.
type Conns[C comparable] struct {
	mu     sync.Mutex
	set    map[C]struct{}
	closed bool
}

// Add adds c and runs started (counting c's goroutines) under the set's
// lock, so that Shut cannot slip in between; it refuses c once shut.
func (cs *Conns[C]) Add(c C, started func()) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		return false
	}
	if cs.set == nil {
		cs.set = map[C]struct{}{}
	}
	cs.set[c] = struct{}{}
	started()
	return true
}

// Remove forgets c.
func (cs *Conns[C]) Remove(c C) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.set, c)
}

// Len is the number of open connections.
func (cs *Conns[C]) Len() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.set)
}

// Shut refuses every later Add and returns the connections open now.
func (cs *Conns[C]) Shut() []C {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.closed = true
	open := make([]C, 0, len(cs.set))
	for c := range cs.set {
		open = append(open, c)
	}
	return open
}

// IsShut reports whether Shut was called.
func (cs *Conns[C]) IsShut() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.closed
}
