package emulator

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// startWithReadTimeout serves an emulator whose requests must be read
// within d.
func startWithReadTimeout(t *testing.T, d time.Duration) string {
	t.Helper()
	e := newTest(t, Options{ReadTimeout: d})
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return strings.TrimPrefix(e.URL(), "http://")
}

// A request whose body trickles in (or never comes) is given up after the
// read timeout: the connection does not stay held.
func TestSlowRequestBodyIsGivenUp(t *testing.T) {
	const timeout = 300 * time.Millisecond
	addr := startWithReadTimeout(t, timeout)
	for _, path := range []string{"/api/3/spot/order", "/api/3/public/symbol", "/api/2/account/transfer"} {
		t.Run(path, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			if _, err := io.WriteString(c, "POST "+path+" HTTP/1.1\r\nHost: x\r\nAuthorization: Basic eDp5\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"sym"); err != nil {
				t.Fatal(err)
			}
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err = io.Copy(io.Discard, c) // an answer, if any, then the close
			if took := time.Since(start); err != nil || took > timeout+2*time.Second {
				t.Errorf("connection held %s (read: %v), want closed within about %s", took, err, timeout)
			}
		})
	}
}

// The read timeout bounds one request, not a connection: a WebSocket
// connection and an idle keep-alive connection both outlive it.
func TestReadTimeoutSparesLongLivedConnections(t *testing.T) {
	const timeout = 200 * time.Millisecond
	addr := startWithReadTimeout(t, timeout)
	t.Run("websocket", func(t *testing.T) {
		ws, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/api/3/ws/public", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		time.Sleep(3 * timeout)
		if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"method":"subscriptions","ch":"trades","id":"1"}`)); err != nil {
			t.Fatal(err)
		}
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, msg, err := ws.ReadMessage(); err != nil || !strings.Contains(string(msg), `"1"`) {
			t.Errorf("after %s idle: %s, %v", 3*timeout, msg, err)
		}
	})
	t.Run("keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for i := range 2 {
			if i == 1 {
				time.Sleep(3 * timeout)
			}
			if _, err := io.WriteString(c, "GET /api/3/public/currency/BTC HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("request %d: HTTP %d", i, resp.StatusCode)
			}
		}
	})
}
