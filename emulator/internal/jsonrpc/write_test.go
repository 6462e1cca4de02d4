package jsonrpc

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A market data update is encoded once for all its listeners, into the
// bytes the per-connection encoding gave.
func TestBroadcastEncodesOnce(t *testing.T) {
	s := newTestServer(t)
	a := &conn{srv: s, out: make(chan []byte, 1), done: make(chan struct{})}
	b := &conn{srv: s, out: make(chan []byte, 1), done: make(chan struct{})}
	params := map[string]any{"data": []any{map[string]any{"id": 7, "price": "0.05"}}, "symbol": "ETHBTC"}
	n := broadcast{srv: s, method: "updateTrades", params: params}
	n.to(a)
	n.to(b)
	ga, gb := <-a.out, <-b.out
	want, err := json.Marshal(notification("updateTrades", params))
	if err != nil {
		t.Fatal(err)
	}
	if string(ga) != string(want) || string(gb) != string(want) {
		t.Fatalf("got %s and %s, want %s", ga, gb, want)
	}
	if &ga[0] != &gb[0] {
		t.Error("encoded once per connection, not once for all")
	}
}

// Answers queued faster than the writer sends them leave together: every
// one arrives as a message of its own, in the order queued.
func TestWriteKeepsOrder(t *testing.T) {
	s := newTestServer(t)
	hs := httptest.NewServer(s)
	defer hs.Close()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(hs.URL, "http")+Prefix+streamPublic, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	const n = 500
	go func() {
		for i := 1; i <= n; i++ {
			_ = ws.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `{"method":"getSymbol","params":{"symbol":"ETHBTC"},"id":%d}`, i))
		}
	}()
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i := 1; i <= n; i++ {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		var a struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(msg, &a); err != nil || a.ID != i || len(a.Result) == 0 {
			t.Fatalf("answer %d: %s (%v)", i, msg, err)
		}
	}
}
