package stream

import (
	"net/http"
	"time"

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
// (nil when handle stopped).
func ReadLoop(ws *websocket.Conn, handle func([]byte) bool) error {
	ws.SetReadLimit(MaxMessage)
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return err
		}
		if !handle(data) {
			return nil
		}
	}
}

// Ping sends a ping on ws every interval until done is closed; a ping that
// cannot be written calls fail and stops.
func Ping(ws *websocket.Conn, every time.Duration, done <-chan struct{}, fail func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(WriteTimeout)); err != nil {
				fail()
				return
			}
		case <-done:
			return
		}
	}
}

// GoingAway closes ws with 1001 (going away): the emulator is shutting down.
func GoingAway(ws *websocket.Conn) {
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "emulator shutting down"), time.Now().Add(time.Second))
}
