package emulator_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/gorilla/websocket"
)

// rpc is a minimal v2 stream client, as a bot would write one.
type rpc struct {
	t    *testing.T
	ws   *websocket.Conn
	msgs chan map[string]any
	id   int
	// backlog keeps what an await passed over (a report may come before
	// the answer to the newOrder that caused it).
	backlog []map[string]any
}

func dialV2(t *testing.T, emu *emulator.Emulator, path string) *rpc {
	t.Helper()
	u := "ws" + strings.TrimPrefix(emu.URL(), "http") + path
	ws, _, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	r := &rpc{t: t, ws: ws, msgs: make(chan map[string]any, 1024)}
	go func() {
		defer close(r.msgs)
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				r.msgs <- m
			}
		}
	}()
	t.Cleanup(func() { ws.Close() })
	return r
}

// call sends a request and returns its answer (skipping notifications).
func (r *rpc) call(method string, params any) map[string]any {
	r.t.Helper()
	r.id++
	id := float64(r.id)
	if err := r.ws.WriteJSON(map[string]any{"method": method, "params": params, "id": r.id}); err != nil {
		r.t.Fatalf("%s: %v", method, err)
	}
	return r.await(method, func(m map[string]any) bool { return m["id"] == id })
}

// notification waits for the next notification of method matching ok.
func (r *rpc) notification(method string, ok func(params any) bool) any {
	r.t.Helper()
	m := r.await(method, func(m map[string]any) bool { return m["method"] == method && (ok == nil || ok(m["params"])) })
	return m["params"]
}

func (r *rpc) await(what string, ok func(map[string]any) bool) map[string]any {
	r.t.Helper()
	for i, m := range r.backlog {
		if ok(m) {
			r.backlog = append(r.backlog[:i:i], r.backlog[i+1:]...)
			return m
		}
	}
	deadline := time.After(3 * time.Second)
	for {
		select {
		case m, open := <-r.msgs:
			if !open {
				r.t.Fatalf("%s: connection closed", what)
			}
			if ok(m) {
				return m
			}
			r.backlog = append(r.backlog, m)
		case <-deadline:
			r.t.Fatalf("%s: nothing came", what)
		}
	}
}

func mustResult(t *testing.T, what string, m map[string]any) any {
	t.Helper()
	if m["error"] != nil || m["jsonrpc"] != "2.0" {
		t.Fatalf("%s: %v", what, m)
	}
	return m["result"]
}

func hs256(secret, nonce string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(nonce))
	return hex.EncodeToString(mac.Sum(nil))
}

// TestV2Bot is a bot written against the v2 socket API: it logs in with each
// algo, reads the book, trades and candles, places, replaces and cancels
// orders over the trading stream and follows their reports.
func TestV2Bot(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	accts, _ := fixtures.Accounts()
	maker, taker := accts[0].Keys[0], accts[1].Keys[0]

	pub := dialV2(t, emu, "/api/2/ws/public")
	if sym := mustResult(t, "getSymbol", pub.call("getSymbol", map[string]any{"symbol": "ETHBTC"})).(map[string]any); sym["tickSize"] != "0.000001" {
		t.Fatalf("getSymbol: %v", sym)
	}
	if res := pub.call("getSymbol", map[string]any{"symbol": "NOPE"}); res["error"].(map[string]any)["code"] != float64(2001) {
		t.Fatalf("unknown symbol: %v", res)
	}
	if mustResult(t, "subscribeOrderbook", pub.call("subscribeOrderbook", map[string]any{"symbol": "ETHBTC"})) != true {
		t.Fatal("subscribeOrderbook is not true")
	}
	snap := pub.notification("snapshotOrderbook", nil).(map[string]any)
	mustResult(t, "subscribeTrades", pub.call("subscribeTrades", map[string]any{"symbol": "ETHBTC", "limit": 10}))
	pub.notification("snapshotTrades", nil)
	mustResult(t, "subscribeCandles", pub.call("subscribeCandles", map[string]any{"symbol": "ETHBTC", "period": "M1"}))
	pub.notification("snapshotCandles", nil)
	mustResult(t, "subscribeTicker", pub.call("subscribeTicker", map[string]any{"symbol": "ETHBTC"}))
	if tk := pub.notification("ticker", nil).(map[string]any); tk["last"] != nil || tk["bid"] != nil {
		t.Fatalf("ticker of an empty market: %v", tk)
	}

	trd := dialV2(t, emu, "/api/2/ws/trading")
	if res := trd.call("login", map[string]any{"algo": "BASIC", "pKey": maker.APIKey, "sKey": "wrong"}); res["error"] == nil {
		t.Fatalf("login with a wrong sKey: %v", res)
	}
	mustResult(t, "login BASIC", trd.call("login", map[string]any{"algo": "BASIC", "pKey": maker.APIKey, "sKey": maker.Secret}))
	mustResult(t, "subscribeReports", trd.call("subscribeReports", map[string]any{}))
	if ao := trd.notification("activeOrders", nil).([]any); len(ao) != 0 {
		t.Fatalf("activeOrders of a fresh account: %v", ao)
	}
	placed := mustResult(t, "newOrder", trd.call("newOrder", map[string]any{"clientOrderId": "botsell0000000001", "symbol": "ETHBTC",
		"side": "sell", "type": "limit", "quantity": "0.0100", "price": "0.050000"})).(map[string]any)
	if placed["status"] != "new" || placed["reportType"] != "new" {
		t.Fatalf("newOrder: %v", placed)
	}
	// As the real service does, the report comes before the answer.
	if len(trd.backlog) == 0 || trd.backlog[len(trd.backlog)-1]["method"] != "report" {
		t.Fatalf("the report of a new order comes before the answer: %v", trd.backlog)
	}
	trd.notification("report", func(p any) bool { return p.(map[string]any)["status"] == "new" })
	upd := pub.notification("updateOrderbook", nil).(map[string]any)
	if upd["sequence"] != snap["sequence"] {
		t.Fatalf("the first update's sequence %v differs from the snapshot's %v", upd["sequence"], snap["sequence"])
	}
	rep := mustResult(t, "cancelReplaceOrder", trd.call("cancelReplaceOrder", map[string]any{"clientOrderId": "botsell0000000001",
		"requestClientId": "botsell0000000002", "quantity": "0.0200", "price": "0.050000"})).(map[string]any)
	if rep["clientOrderId"] != "botsell0000000002" || rep["reportType"] != "replaced" {
		t.Fatalf("cancelReplaceOrder: %v", rep)
	}
	if os := mustResult(t, "getOrders", trd.call("getOrders", map[string]any{})).([]any); len(os) != 1 {
		t.Fatalf("getOrders: %v", os)
	}

	// The taker logs in with HS256 on the deprecated single location and
	// takes half of the order.
	all := dialV2(t, emu, "/api/2/ws")
	if res := all.call("login", map[string]any{"algo": "HS256", "pKey": taker.APIKey, "nonce": "n1", "signature": hs256(taker.Secret, "n2")}); res["error"] == nil {
		t.Fatalf("login with a wrong signature: %v", res)
	}
	mustResult(t, "login HS256", all.call("login", map[string]any{"algo": "HS256", "pKey": taker.APIKey, "nonce": "n1", "signature": hs256(taker.Secret, "n1")}))
	if res := all.call("newOrder", map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "0.0100", "price": "0.050000"}); rpcErrCode(res) != float64(10001) {
		t.Fatalf("newOrder without clientOrderId: %v", res)
	}
	mustResult(t, "newOrder (taker)", all.call("newOrder", map[string]any{"clientOrderId": "botbuy00000000001", "symbol": "ETHBTC", "side": "buy", "type": "limit",
		"quantity": "0.0100", "price": "0.050000", "timeInForce": "IOC"}))
	tr := trd.notification("report", func(p any) bool { return p.(map[string]any)["reportType"] == "trade" }).(map[string]any)
	if tr["tradeQuantity"] != "0.01" || tr["status"] != "partiallyFilled" || tr["tradeFee"] == nil {
		t.Fatalf("trade report: %v", tr)
	}
	trades := pub.notification("updateTrades", nil).(map[string]any)["data"].([]any)
	if trades[0].(map[string]any)["quantity"] != "0.01" || trades[0].(map[string]any)["side"] != "buy" {
		t.Fatalf("updateTrades: %v", trades)
	}
	candle := pub.notification("updateCandles", nil).(map[string]any)["data"].([]any)[0].(map[string]any)
	if candle["close"] != "0.05" || candle["volume"] != "0.01" {
		t.Fatalf("updateCandles: %v", candle)
	}
	pub.notification("ticker", func(p any) bool {
		tk := p.(map[string]any)
		return tk["last"] == "0.05" && tk["volume"] == "0.01" && tk["ask"] == "0.05"
	})
	got := mustResult(t, "getTrades", pub.call("getTrades", map[string]any{"symbol": "ETHBTC"})).(map[string]any)
	if len(got["data"].([]any)) != 1 {
		t.Fatalf("getTrades: %v", got)
	}
	bal := mustResult(t, "getTradingBalance", trd.call("getTradingBalance", map[string]any{})).([]any)
	if len(bal) == 0 {
		t.Fatal("getTradingBalance: no balance")
	}
	canceled := mustResult(t, "cancelOrder", trd.call("cancelOrder", map[string]any{"clientOrderId": "botsell0000000002"})).(map[string]any)
	if canceled["status"] != "canceled" {
		t.Fatalf("cancelOrder: %v", canceled)
	}
	trd.notification("report", func(p any) bool { return p.(map[string]any)["status"] == "canceled" })

	// BEARER with the token the emulator accepts (beyond the contract).
	acc := dialV2(t, emu, "/api/2/ws/account")
	if res := acc.call("login", map[string]any{"algo": "BEARER", "pKey": maker.APIKey, "jwt": "not.a.token"}); res["error"] == nil {
		t.Fatalf("login with a bad jwt: %v", res)
	}
	mustResult(t, "login BEARER", acc.call("login", map[string]any{"algo": "BEARER", "pKey": maker.APIKey,
		"jwt": emulator.BearerToken(maker.APIKey, maker.Secret, time.Now().Add(time.Hour))}))
}
