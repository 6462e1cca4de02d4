package emulator_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/gorilla/websocket"
)

func startV2(t *testing.T, opts emulator.Options) *emulator.Emulator {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	return emu
}

func keyOf(t *testing.T, acct int, role string) fixtures.Key {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range accts[acct].Keys {
		if k.Role == role {
			return k
		}
	}
	t.Fatalf("no %s key", role)
	return fixtures.Key{}
}

func rpcErrCode(m map[string]any) any {
	e, _ := m["error"].(map[string]any)
	return e["code"]
}

// TestV2StreamErrors: every refusal is an error with the documented code
// and the request's id, on the stream that serves the method.
func TestV2StreamErrors(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	full, readOnly := keyOf(t, 0, "full"), keyOf(t, 0, "read-only")
	cases := []struct {
		name   string
		path   string
		login  *fixtures.Key
		method string
		params map[string]any
		code   float64
	}{
		{"unknown currency", "/api/2/ws/public", nil, "getCurrency", map[string]any{"currency": "NOPE"}, 2002},
		{"symbol missing", "/api/2/ws/public", nil, "getSymbol", map[string]any{}, 10001},
		{"unknown period", "/api/2/ws/public", nil, "subscribeCandles", map[string]any{"symbol": "ETHBTC", "period": "M2"}, 10001},
		{"limit over 1000", "/api/2/ws/public", nil, "getTrades", map[string]any{"symbol": "ETHBTC", "limit": 1001}, 10001},
		{"futures are not v2 symbols", "/api/2/ws/public", nil, "getSymbol", map[string]any{"symbol": "BTCUSDT_PERP"}, 2001},
		{"no login on the market data stream", "/api/2/ws/public", nil, "login", map[string]any{"algo": "BASIC"}, -32601},
		{"no market data on the trading stream", "/api/2/ws/trading", nil, "getSymbol", map[string]any{"symbol": "ETHBTC"}, -32601},
		{"unknown algo", "/api/2/ws/trading", nil, "login", map[string]any{"algo": "RSA", "pKey": full.APIKey}, 10001},
		{"newOrder before login", "/api/2/ws/trading", nil, "newOrder", map[string]any{"symbol": "ETHBTC"}, 1001},
		{"newOrder without clientOrderId", "/api/2/ws/trading", &full, "newOrder", map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "0.01", "price": "0.001"}, 10001},
		{"cancelReplaceOrder without requestClientId", "/api/2/ws/trading", &full, "cancelReplaceOrder", map[string]any{"clientOrderId": "nosuchorder000001", "quantity": "0.01", "price": "0.001"}, 10001},
		{"newOrder without the trading right", "/api/2/ws/trading", &readOnly, "newOrder", map[string]any{"clientOrderId": "errcase0000000001", "symbol": "ETHBTC", "side": "buy", "quantity": "0.01", "price": "0.001"}, 1003},
		{"newOrder unknown symbol", "/api/2/ws/trading", &full, "newOrder", map[string]any{"clientOrderId": "errcase0000000002", "symbol": "NOPE", "side": "buy", "quantity": "0.01", "price": "0.001"}, 2001},
		{"newOrder off the increment, strict", "/api/2/ws/trading", &full, "newOrder", map[string]any{"clientOrderId": "errcase0000000003", "symbol": "ETHBTC", "side": "buy", "quantity": "0.00011", "price": "0.001", "strictValidate": true}, 10001},
		{"newOrder without funds", "/api/2/ws/trading", &full, "newOrder", map[string]any{"clientOrderId": "errcase0000000004", "symbol": "ETHBTC", "side": "buy", "quantity": "100000", "price": "0.5"}, 20001},
		{"cancelOrder unknown", "/api/2/ws/trading", &full, "cancelOrder", map[string]any{"clientOrderId": "nosuchorder000001"}, 20002},
		{"cancelReplaceOrder unknown", "/api/2/ws/trading", &full, "cancelReplaceOrder", map[string]any{"clientOrderId": "nosuchorder000001", "requestClientId": "nosuchorder000002", "quantity": "0.01", "price": "0.001"}, 20002},
		{"getTradingBalance before login", "/api/2/ws/account", nil, "getTradingBalance", map[string]any{}, -32601},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dialV2(t, emu, tc.path)
			if tc.login != nil {
				mustResult(t, "login", c.call("login", map[string]any{"algo": "BASIC", "pKey": tc.login.APIKey, "sKey": tc.login.Secret}))
			}
			got := c.call(tc.method, tc.params)
			if rpcErrCode(got) != tc.code || got["id"] == nil || got["jsonrpc"] != "2.0" {
				t.Fatalf("%s: want error %v with the id, got %v", tc.method, tc.code, got)
			}
		})
	}
}

// TestV2StreamProtocol: notifications get no answer; unreadable frames are
// answered with id null; ids come back as sent.
func TestV2StreamProtocol(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	c := dialV2(t, emu, "/api/2/ws")
	if err := c.ws.WriteMessage(1, []byte(`{"method":"getSymbol","params":{"symbol":"ETHBTC"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.ws.WriteMessage(1, []byte(`not json`)); err != nil {
		t.Fatal(err)
	}
	bad := c.await("the answer to an unreadable frame", func(map[string]any) bool { return true })
	if rpcErrCode(bad) != float64(10001) || bad["id"] != nil {
		t.Fatalf("unreadable frame: %v (an answer to the notification came first?)", bad)
	}
	// Malformed frames are refused with 10001 and the connection stays.
	for i, f := range []string{`[]`, `{"method":"getSymbol","params":[1],"id":1}`, `{"method":"getSymbol","params":"x","id":2}`,
		`{"method":"getTrades","params":{"symbol":"ETHBTC","limit":"ten"},"id":3}`, `{"method":"subscribeCandles","params":{"symbol":"ETHBTC","limit":-1},"id":4}`,
		`{"method":"login","params":{"algo":"HS256","pKey":{"a":1}},"id":5}`, `{"method":"newOrder","params":{"quantity":"1e999999"},"id":6}`,
		`{"method":"getSymbol","id":{"x":1}}`, `{"method":7,"id":8}`} {
		if err := c.ws.WriteMessage(1, []byte(f)); err != nil {
			t.Fatal(err)
		}
		m := c.await(f, func(map[string]any) bool { return true })
		if m["error"] == nil || rpcErrCode(m) == float64(500) {
			t.Errorf("frame %d %s: %v", i, f, m)
		}
	}
	if err := c.ws.WriteJSON(map[string]any{"method": "getSymbol", "params": map[string]any{"symbol": "ETHBTC"}, "id": "abc"}); err != nil {
		t.Fatal(err)
	}
	if m := c.await("the answer to id abc", func(map[string]any) bool { return true }); m["id"] != "abc" || m["result"] == nil {
		t.Fatalf("string id: %v", m)
	}
}

// TestV2StreamSharedWithV3: one engine and ledger behind both versions.
func TestV2StreamSharedWithV3(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	full := keyOf(t, 0, "full")
	rest, err := client.New(emu.URL(), client.WithAuth(client.Basic{Key: full.APIKey, Secret: full.Secret}), client.WithGuard(client.PermitTrading()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	trd := dialV2(t, emu, "/api/2/ws/trading")
	mustResult(t, "login", trd.call("login", map[string]any{"algo": "BASIC", "pKey": full.APIKey, "sKey": full.Secret}))
	mustResult(t, "subscribeReports", trd.call("subscribeReports", map[string]any{}))
	trd.notification("activeOrders", nil)

	// Placed over v2, seen over v3 with the same id.
	v2 := mustResult(t, "newOrder", trd.call("newOrder", map[string]any{"clientOrderId": "sharedv2order00001", "symbol": "ETHBTC",
		"side": "buy", "quantity": "0.0100", "price": "0.001000", "postOnly": true})).(map[string]any)
	ex, _ := rest.Do(ctx, client.Request{Method: "GET", Path: "/spot/order/sharedv2order00001"})
	var v3 struct {
		ID       json.Number `json:"id"`
		PostOnly bool        `json:"post_only"`
	}
	if ex == nil || ex.Status != 200 || ex.Decode(&v3) != nil || v3.ID.String() != v2["id"] || !v3.PostOnly {
		t.Fatalf("the v2 order over v3: %v (v2: %v)", ex, v2)
	}

	// Placed and replaced over v3, reported over v2.
	if ex, _ := rest.Do(ctx, client.Request{Method: "POST", Path: "/spot/order", Form: url.Values{"client_order_id": {"sharedv3order00001"},
		"symbol": {"ETHBTC"}, "side": {"buy"}, "quantity": {"0.01"}, "price": {"0.0011"}}}); ex == nil || ex.Status != 200 {
		t.Fatalf("v3 order: %v", ex)
	}
	trd.notification("report", func(p any) bool { return p.(map[string]any)["clientOrderId"] == "sharedv3order00001" })
	if ex, _ := rest.Do(ctx, client.Request{Method: "PATCH", Path: "/spot/order/sharedv3order00001", Form: url.Values{
		"new_client_order_id": {"sharedv3order00002"}, "quantity": {"0.02"}, "price": {"0.0011"}}}); ex == nil || ex.Status != 200 {
		t.Fatalf("v3 replace: %v", ex)
	}
	rep := trd.notification("report", func(p any) bool { return p.(map[string]any)["clientOrderId"] == "sharedv3order00002" }).(map[string]any)
	if rep["reportType"] != "replaced" || rep["originalRequestClientOrderId"] != "sharedv3order00001" {
		t.Fatalf("replace report: %v", rep)
	}
	if os := mustResult(t, "getOrders", trd.call("getOrders", map[string]any{})).([]any); len(os) != 2 {
		t.Fatalf("getOrders lists the v2 and the replaced v3 order: %v", os)
	}

	// The trading balance is v3's spot balance.
	ex, _ = rest.Do(ctx, client.Request{Method: "GET", Path: "/spot/balance/BTC"})
	var v3b struct{ Available, Reserved string }
	if ex == nil || ex.Decode(&v3b) != nil {
		t.Fatalf("v3 balance: %v", ex)
	}
	for _, b := range mustResult(t, "getTradingBalance", trd.call("getTradingBalance", map[string]any{})).([]any) {
		if b := b.(map[string]any); b["currency"] == "BTC" && (b["available"] != v3b.Available || b["reserved"] != v3b.Reserved) {
			t.Fatalf("getTradingBalance BTC %v, v3 %+v", b, v3b)
		}
	}
}

// TestV2StreamReset: the control plane's reset empties the books the
// streams show, as updates with size 0.
func TestV2StreamReset(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	full := keyOf(t, 0, "full")
	pub := dialV2(t, emu, "/api/2/ws/public")
	mustResult(t, "subscribeOrderbook", pub.call("subscribeOrderbook", map[string]any{"symbol": "ETHBTC"}))
	pub.notification("snapshotOrderbook", nil)
	trd := dialV2(t, emu, "/api/2/ws/trading")
	mustResult(t, "login", trd.call("login", map[string]any{"algo": "BASIC", "pKey": full.APIKey, "sKey": full.Secret}))
	mustResult(t, "newOrder", trd.call("newOrder", map[string]any{"clientOrderId": "resetorder0000001", "symbol": "ETHBTC", "side": "buy", "quantity": "0.0100", "price": "0.001000"}))
	pub.notification("updateOrderbook", nil)
	if err := emu.Reset(); err != nil {
		t.Fatal(err)
	}
	upd := pub.notification("updateOrderbook", nil).(map[string]any)
	if l := upd["bid"].([]any)[0].(map[string]any); l["size"] != "0" || l["price"] != "0.001" {
		t.Fatalf("after a reset: %v", upd)
	}
}

// TestV2StreamBookBeforeConnect: the streams follow books only while a
// connection is open, so a book built before is read from the engine; the
// sequence still joins the snapshot to the updates.
func TestV2StreamBookBeforeConnect(t *testing.T) {
	emu := startV2(t, emulator.Options{})
	full := keyOf(t, 0, "full")
	rest, err := client.New(emu.URL(), client.WithAuth(client.Basic{Key: full.APIKey, Secret: full.Secret}), client.WithGuard(client.PermitTrading()))
	if err != nil {
		t.Fatal(err)
	}
	place := func(id, price string) {
		t.Helper()
		if ex, _ := rest.Do(context.Background(), client.Request{Method: "POST", Path: "/spot/order", Form: url.Values{"client_order_id": {id},
			"symbol": {"ETHBTC"}, "side": {"buy"}, "quantity": {"0.01"}, "price": {price}}}); ex == nil || ex.Status != 200 {
			t.Fatalf("v3 order: %v", ex)
		}
	}
	for round := 0; round < 2; round++ { // the second round after every connection closed
		id := "beforeconnect0000" + string(rune('a'+round))
		place(id, "0.00"+string(rune('2'+round)))
		pub := dialV2(t, emu, "/api/2/ws/public")
		mustResult(t, "subscribeOrderbook", pub.call("subscribeOrderbook", map[string]any{"symbol": "ETHBTC"}))
		snap := pub.notification("snapshotOrderbook", nil).(map[string]any)
		if bids := snap["bid"].([]any); len(bids) != 2*round+1 {
			t.Fatalf("round %d: the snapshot shows the book placed before: %v", round, snap)
		}
		place(id+"x", "0.0011")
		if upd := pub.notification("updateOrderbook", nil).(map[string]any); upd["sequence"] != snap["sequence"] {
			t.Fatalf("round %d: update %v after snapshot %v", round, upd, snap)
		}
		pub.ws.Close()
		// Wait until the emulator has seen the close: the next dial's state
		// is what this test is about.
		for deadline := time.Now().Add(3 * time.Second); emu.V2Conns() > 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the emulator still counts a closed v2 connection")
			}
		}
	}
}

// TestV2StreamPing: v2 connections are pinged like the v3 streams (the v2
// document shows no limits or pings for them).
func TestV2StreamPing(t *testing.T) {
	emu := startV2(t, emulator.Options{PingInterval: 10 * time.Millisecond})
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(emu.URL(), "http")+"/api/2/ws/public", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	pinged := make(chan struct{}, 1)
	ws.SetPingHandler(func(string) error {
		select {
		case pinged <- struct{}{}:
		default:
		}
		return nil
	})
	go func() { // control frames are handled while reading
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	select {
	case <-pinged:
	case <-time.After(3 * time.Second):
		t.Fatal("no ping within 3s at a 10ms interval")
	}
}
