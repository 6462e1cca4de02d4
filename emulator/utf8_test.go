package emulator_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/gorilla/websocket"
)

// A text frame that is not UTF-8 fails the connection with 1007 (RFC 6455
// section 8.1) on every stream of both versions; the same frame as valid
// UTF-8 is answered.
func TestStreamsCloseOnInvalidUTF8With1007(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	ws := "ws" + strings.TrimPrefix(emu.URL(), "http")
	for _, path := range []string{"/api/3/ws/public", "/api/3/ws/trading", "/api/3/ws/wallet", "/api/2/ws/public", "/api/2/ws/trading", "/api/2/ws/account", "/api/2/ws"} {
		t.Run(path, func(t *testing.T) {
			c, _, err := websocket.DefaultDialer.Dial(ws+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if err := c.WriteMessage(websocket.TextMessage, []byte(`{"method":"subscribe","id":"ok"}`)); err != nil {
				t.Fatal(err)
			}
			if _, msg, err := c.ReadMessage(); err != nil || !strings.Contains(string(msg), `"ok"`) {
				t.Fatalf("valid frame: %s, %v", msg, err)
			}
			if err := c.WriteMessage(websocket.TextMessage, []byte("{\"method\":\"subscribe\",\"id\":\"\xff\xfe\"}")); err != nil {
				t.Fatal(err)
			}
			for {
				_, msg, err := c.ReadMessage()
				if err == nil {
					continue // a notification queued before the close
				}
				var ce *websocket.CloseError
				if !errors.As(err, &ce) || ce.Code != websocket.CloseInvalidFramePayloadData {
					t.Errorf("after invalid UTF-8: %v (last frame %s), want close 1007", err, msg)
				}
				return
			}
		})
	}
}
