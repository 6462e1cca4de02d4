package stream

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestWireFrames sends frames of every length encoding, a batch in one
// write, a ping and a close through wire, and reads them with gorilla's
// client: they are frames it accepts, in order, and nothing leaves after
// the close frame.
func TestWireFrames(t *testing.T) {
	sizes := []int{0, 1, 125, 126, 127, 65535, 65536, 200000}
	sent := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		up := websocket.Upgrader{}
		ws, err := up.Upgrade(rw, r, nil)
		if err != nil {
			sent <- err
			return
		}
		defer ws.Close()
		w := &wire{nc: ws.NetConn()}
		var batch [][]byte
		for _, n := range sizes {
			batch = append(batch, bytes.Repeat([]byte{'a' + byte(n%26)}, n))
		}
		batch = append(batch, nil) // skipped
		err = errors.Join(w.send(websocket.TextMessage, batch...), w.send(websocket.PingMessage, []byte("p")),
			w.send(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "bye")))
		if late := w.send(websocket.TextMessage, []byte("late")); !errors.Is(late, errCloseSent) {
			err = errors.Join(err, errors.New("a frame was accepted after the close frame"))
		}
		sent <- err
		time.Sleep(100 * time.Millisecond) // let the client read before the connection closes
	}))
	defer srv.Close()
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pinged := false
	c.SetPingHandler(func(string) error { pinged = true; return nil })
	for _, n := range sizes {
		kind, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("frame of %d bytes: %v", n, err)
		}
		if kind != websocket.TextMessage || len(b) != n || (n > 0 && b[n-1] != 'a'+byte(n%26)) {
			t.Fatalf("frame of %d bytes read as type %d, %d bytes", n, kind, len(b))
		}
	}
	_, _, err = c.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseGoingAway) || !pinged {
		t.Fatalf("after the batch: %v (pinged %v), want the ping and close 1001", err, pinged)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}
