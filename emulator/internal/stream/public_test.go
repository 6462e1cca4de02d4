package stream

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/gorilla/websocket"
	"github.com/shopspring/decimal"
)

func testMarket() *Market {
	return &Market{
		Tape: tape.New([]tape.Pair{{Code: "ETHBTC", Base: "ETH", Quote: "BTC"}}),
		Depth: func(string, int) ([]engine.Level, []engine.Level, uint64, bool) {
			return nil, nil, 0, true
		},
		Feed:  feed.New(),
		Clock: clock.Real{},
	}
}

// A subscriber that stops reading is closed with 1008 once its
// notifications back up, and the tape goes on without it.
func TestSlowSubscriberClosed(t *testing.T) {
	m := testMarket()
	_, url := serve(t, Options{Market: m})
	c := mustDial(t, url+"/api/3/ws/public", "127.0.0.1")
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"method":"subscribe","ch":"trades","params":{"symbols":["ETHBTC"]},"id":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	for i := range 200_000 {
		m.Tape.Observe(engine.Event{Kind: engine.TradeEvent, Print: engine.PublicTrade{Symbol: "ETHBTC", ID: int64(i + 1),
			Price: decimal.New(5, -2), Quantity: decimal.New(1, 0), TakerSide: engine.Buy, Timestamp: at}})
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
			t.Fatalf("the connection ended with %v, want close 1008", err)
		}
		return
	}
}

// Unsubscribing orderbook/full stops its book events without closing the
// connection.
func TestBookUnsubscribeKeepsConnection(t *testing.T) {
	m := testMarket()
	_, url := serve(t, Options{Market: m})
	c := mustDial(t, url+"/api/3/ws/public", "127.0.0.1")
	for _, msg := range []string{
		`{"method":"subscribe","ch":"orderbook/full","params":{"symbols":["ETHBTC"]},"id":"a"}`,
		`{"method":"unsubscribe","ch":"orderbook/full","params":{"symbols":["ETHBTC"]},"id":"b"}`,
		`{"method":"subscriptions","ch":"orderbook/full","id":"c"}`,
	} {
		if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("the connection ended: %v", err)
		}
		var r reply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if string(r.ID) != `"c"` {
			continue
		}
		if r.Result == nil || len(r.Result.Subscriptions) != 0 {
			t.Fatalf("subscriptions after unsubscribe: %s", data)
		}
		break
	}
	// The unsubscribe was handled before the answer to "c" was written.
	if n := m.Feed.Subscribers(); n != 0 {
		t.Fatalf("%d feed subscribers after unsubscribe", n)
	}
}
