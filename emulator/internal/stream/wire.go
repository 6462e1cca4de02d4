package stream

import (
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// wire writes a connection's frames itself, onto the connection gorilla
// upgraded: a batch of notifications queued for one subscriber leaves in
// one frame each but in one write (a system call per message was most of
// the fan-out's CPU), and the write deadline is moved only when less than
// half of WriteTimeout is left, not before every frame. Every frame the
// emulator sends on a stream connection goes through it (data, pings,
// pongs, close), so that nothing follows a close frame; gorilla reads and
// answers only a malformed frame itself, with a close frame, just before
// the read loop ends the connection.
type wire struct {
	mu        sync.Mutex
	nc        net.Conn
	deadline  time.Time
	closeSent bool
	buf       []byte
}

// errCloseSent refuses a frame after the close frame.
var errCloseSent = errors.New("stream: close frame sent")

// maxKeptWireBuffer is the largest write buffer a connection keeps between
// writes (a large snapshot's is let go).
const maxKeptWireBuffer = 16 << 10

// appendFrame appends an unmasked, final frame (RFC 6455 section 5.2: a
// server does not mask).
func appendFrame(dst []byte, op int, payload []byte) []byte {
	dst = append(dst, 0x80|byte(op))
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, byte(n))
	case n <= 0xFFFF:
		dst = append(dst, 126, byte(n>>8), byte(n))
	default:
		dst = append(dst, 127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	return append(dst, payload...)
}

// send writes one frame of type op for each payload (nil ones skipped),
// in one write; a close frame is written with a one-second deadline and
// refuses every later frame.
func (w *wire) send(op int, payloads ...[]byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closeSent {
		return errCloseSent
	}
	buf := w.buf[:0]
	for _, p := range payloads {
		if p != nil {
			buf = appendFrame(buf, op, p)
		}
	}
	if len(buf) == 0 {
		return nil
	}
	now := time.Now()
	if op == websocket.CloseMessage {
		w.closeSent = true
		w.deadline = now.Add(time.Second)
		_ = w.nc.SetWriteDeadline(w.deadline)
	} else if w.deadline.Sub(now) < WriteTimeout/2 {
		w.deadline = now.Add(WriteTimeout)
		_ = w.nc.SetWriteDeadline(w.deadline)
	}
	_, err := w.nc.Write(buf)
	if cap(buf) <= maxKeptWireBuffer {
		w.buf = buf[:0]
	} else {
		w.buf = nil
	}
	return err
}

// sendControl sends a control frame through w; a failure is the read
// loop's or the pinger's to notice, as with gorilla's own handlers.
func sendControl(w *wire, op int, payload []byte) error {
	if payload == nil {
		payload = []byte{}
	}
	err := w.send(op, payload)
	var ne net.Error
	if errors.Is(err, errCloseSent) || errors.As(err, &ne) {
		return nil // the connection is ending
	}
	return err
}

// adopt makes ws answer pings and echo a peer's close frame through w, so
// that no frame of gorilla's interleaves with w's writes.
func adopt(ws *websocket.Conn, w *wire) {
	w.nc = ws.NetConn()
	ws.SetPingHandler(func(data string) error { return sendControl(w, websocket.PongMessage, []byte(data)) })
	ws.SetCloseHandler(func(code int, _ string) error {
		return sendControl(w, websocket.CloseMessage, websocket.FormatCloseMessage(code, ""))
	})
}

// Writer writes the frames of a connection served outside this package
// (the v2 JSON-RPC streams) as the v3 connections' are written: queued
// messages leave in one write. Every frame of its connection goes through
// it once NewWriter has taken the connection over.
type Writer struct{ w wire }

// NewWriter takes over ws's writing: pings are answered and a peer's close
// frame echoed through the Writer.
func NewWriter(ws *websocket.Conn) *Writer {
	wr := &Writer{}
	adopt(ws, &wr.w)
	return wr
}

// Send writes a frame of type op for each payload (nil ones skipped), in
// one write; after a close frame it refuses every frame.
func (wr *Writer) Send(op int, payloads ...[]byte) error { return wr.w.send(op, payloads...) }

// GoingAway closes with 1001 (going away): the emulator is shutting down.
func (wr *Writer) GoingAway() {
	_ = wr.w.send(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, shuttingDown))
}

// shuttingDown is the reason of the 1001 close frame a closing server sends
// on every connection, v3 and v2.
const shuttingDown = "emulator shutting down"
