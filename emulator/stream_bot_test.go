package emulator_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/gorilla/websocket"
)

// bot speaks to a stream as a bot written for the real service does: the
// messages below are the shapes of ccxt's hitbtc (ts/src/pro/hitbtc.ts)
// and the service's own SDKs, not the harness's client.
type streamBot struct {
	t    *testing.T
	ws   *websocket.Conn
	held []map[string]any // frames read while waiting for another one
}

func dialBot(t *testing.T, emu *emulator.Emulator, stream string) *streamBot {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(strings.Replace(emu.URL(), "http", "ws", 1)+"/api/3/ws/"+stream, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", stream, err)
	}
	t.Cleanup(func() { ws.Close() })
	return &streamBot{t: t, ws: ws}
}

func (b *streamBot) send(msg map[string]any) {
	b.t.Helper()
	if err := b.ws.WriteJSON(msg); err != nil {
		b.t.Fatalf("send: %v", err)
	}
}

// next returns the first frame that satisfies want (within 5 s), whether it
// came before or after the ones awaited earlier: a report may reach the
// connection before the answer to the request that caused it.
func (b *streamBot) next(what string, want func(map[string]any) bool) map[string]any {
	b.t.Helper()
	for i, m := range b.held {
		if want(m) {
			b.held = append(b.held[:i], b.held[i+1:]...)
			return m
		}
	}
	_ = b.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var m map[string]any
		if err := b.ws.ReadJSON(&m); err != nil {
			b.t.Fatalf("waiting for %s: %v", what, err)
		}
		if want(m) {
			return m
		}
		b.held = append(b.held, m)
	}
}

func answerTo(id float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == id }
}

func notification(method, cloid, report string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		p, _ := m["params"].(map[string]any)
		return m["method"] == method && p["client_order_id"] == cloid && p["report_type"] == report
	}
}

func TestBotTradesOverTheTradingStream(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	accts, _ := fixtures.Accounts()
	key := accts[0].Keys[0]
	b := dialBot(t, emu, "trading")

	// ccxt's authenticate: HS256 over the timestamp, no id; the answer is
	// {"jsonrpc": "2.0", "result": true}.
	ts := time.Now().UnixMilli()
	mac := hmac.New(sha256.New, []byte(key.Secret))
	mac.Write([]byte(strconv.FormatInt(ts, 10)))
	b.send(map[string]any{"method": "login", "params": map[string]any{"type": "HS256", "api_key": key.APIKey, "timestamp": ts, "signature": hex.EncodeToString(mac.Sum(nil))}})
	login := b.next("the login answer", func(m map[string]any) bool { return true })
	if login["jsonrpc"] != "2.0" || login["result"] != true || login["id"] != nil {
		t.Fatalf("login answer %v, want {jsonrpc 2.0, result true} without id", login)
	}

	b.send(map[string]any{"method": "spot_subscribe", "params": map[string]any{}, "id": 1})
	if m := b.next("the spot_subscribe answer", answerTo(1)); m["result"] != true {
		t.Fatalf("spot_subscribe answered %v", m)
	}
	b.next("the spot_orders snapshot", func(m map[string]any) bool { return m["method"] == "spot_orders" })

	const cloid = "botorder0000000000000001"
	b.send(map[string]any{"method": "spot_new_order", "id": 2, "params": map[string]any{
		"client_order_id": cloid, "symbol": "ETHBTC", "side": "buy", "type": "limit", "quantity": "0.01", "price": "0.001"}})
	placed := b.next("the spot_new_order answer", answerTo(2))
	if r, _ := placed["result"].(map[string]any); r["client_order_id"] != cloid || r["status"] != "new" || r["report_type"] != "new" {
		t.Fatalf("spot_new_order answered %v", placed)
	}
	b.next("the spot_order report of the new order", notification("spot_order", cloid, "new"))

	b.send(map[string]any{"method": "spot_cancel_order", "id": 3, "params": map[string]any{"client_order_id": cloid}})
	canceled := b.next("the spot_cancel_order answer", answerTo(3))
	if r, _ := canceled["result"].(map[string]any); r["status"] != "canceled" || r["report_type"] != "canceled" {
		t.Fatalf("spot_cancel_order answered %v", canceled)
	}
	b.next("the spot_order report of the cancel", notification("spot_order", cloid, "canceled"))

	b.send(map[string]any{"method": "spot_get_orders", "id": 4, "params": map[string]any{}})
	if r, _ := b.next("the spot_get_orders answer", answerTo(4))["result"].([]any); len(r) != 0 {
		t.Fatalf("after the cancel, spot_get_orders lists %v", r)
	}

	// An error: the object with the id, as ccxt's handleError reads it.
	b.send(map[string]any{"method": "spot_cancel_order", "id": 5, "params": map[string]any{"client_order_id": cloid}})
	e, _ := b.next("the error", answerTo(5))["error"].(map[string]any)
	if e["code"] != float64(20002) || e["message"] == nil {
		t.Fatalf("canceling a final order answered error %v, want code 20002", e)
	}
}

// TestBotTradesFuturesOverTheTradingStream: the futures_ methods as
// HitBTC's SDKs and ccxt pro send them, after funding the futures balance
// over REST (POST /wallet/transfer to derivatives).
func TestBotTradesFuturesOverTheTradingStream(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	accts, _ := fixtures.Accounts()
	key := accts[0].Keys[0]
	if code := restAs(t, key, http.MethodPost, emu.URL()+"/api/3/wallet/transfer", "application/json",
		`{"currency":"USDT","amount":"1000","source":"spot","destination":"derivatives"}`); code != http.StatusOK {
		t.Fatalf("transfer to derivatives: HTTP %d", code)
	}
	b := dialBot(t, emu, "trading")
	b.send(map[string]any{"method": "login", "id": 1, "params": map[string]any{"type": "BASIC", "api_key": key.APIKey, "secret_key": key.Secret}})
	if m := b.next("the login answer", answerTo(1)); m["result"] != true {
		t.Fatalf("login answered %v", m)
	}
	b.send(map[string]any{"method": "futures_balances", "id": 2})
	if r, _ := b.next("futures_balances", answerTo(2))["result"].([]any); len(r) != 1 || r[0].(map[string]any)["available"] != "1000" {
		t.Fatalf("futures_balances answered %v", r)
	}
	b.send(map[string]any{"method": "futures_set_account", "id": 3, "params": map[string]any{"symbol": "BTCUSDT_PERP", "margin_balance": "500", "leverage": "10"}})
	if r, _ := b.next("futures_set_account", answerTo(3))["result"].(map[string]any); r["leverage"] != "10" || r["type"] != "isolated" {
		t.Fatalf("futures_set_account answered %v", r)
	}
	b.send(map[string]any{"method": "futures_subscribe", "id": 4})
	b.next("the futures_subscribe answer", answerTo(4))
	b.next("the futures_orders snapshot", func(m map[string]any) bool { return m["method"] == "futures_orders" })
	b.send(map[string]any{"method": "futures_balance_subscribe", "id": 5, "params": map[string]any{"mode": "updates"}})
	b.next("the futures_balance_subscribe answer", answerTo(5))
	b.next("the futures_balance snapshot", func(m map[string]any) bool { return m["method"] == "futures_balance" })
	const cloid = "botfutures00000000000001"
	b.send(map[string]any{"method": "futures_new_order", "id": 6, "params": map[string]any{
		"client_order_id": cloid, "symbol": "BTCUSDT_PERP", "side": "buy", "type": "limit", "quantity": "0.01", "price": "1000", "margin_mode": "isolated"}})
	if r, _ := b.next("futures_new_order", answerTo(6))["result"].(map[string]any); r["status"] != "new" || r["report_type"] != "new" || r["margin_mode"] != "isolated" {
		t.Fatalf("futures_new_order answered %v", r)
	}
	b.next("the futures_order report", notification("futures_order", cloid, "new"))
	b.send(map[string]any{"method": "futures_get_orders", "id": 7})
	if r, _ := b.next("futures_get_orders", answerTo(7))["result"].([]any); len(r) != 1 {
		t.Fatalf("futures_get_orders answered %v", r)
	}
	b.send(map[string]any{"method": "futures_get_accounts", "id": 8})
	if r, _ := b.next("futures_get_accounts", answerTo(8))["result"].([]any); len(r) != 1 {
		t.Fatalf("futures_get_accounts answered %v", r)
	}
	b.send(map[string]any{"method": "futures_fee", "id": 9, "params": map[string]any{"symbol": "BTCUSDT_PERP"}})
	if r, _ := b.next("futures_fee", answerTo(9))["result"].(map[string]any); r["take_rate"] == nil {
		t.Fatalf("futures_fee answered %v", r)
	}
	b.send(map[string]any{"method": "futures_cancel_order", "id": 10, "params": map[string]any{"client_order_id": cloid}})
	if r, _ := b.next("futures_cancel_order", answerTo(10))["result"].(map[string]any); r["status"] != "canceled" {
		t.Fatalf("futures_cancel_order answered %v", r)
	}
	b.next("the futures_order report of the cancel", notification("futures_order", cloid, "canceled"))
	// A spot order reaches no futures subscriber.
	b.send(map[string]any{"method": "spot_new_order", "id": 11, "params": map[string]any{
		"client_order_id": "botspot0000000000000001", "symbol": "ETHBTC", "side": "buy", "quantity": "0.01", "price": "0.001"}})
	b.next("spot_new_order", answerTo(11))
	b.send(map[string]any{"method": "futures_close_position", "id": 12, "params": map[string]any{"symbol": "BTCUSDT_PERP"}})
	if e, _ := b.next("futures_close_position", answerTo(12))["error"].(map[string]any); e["code"] != float64(10001) {
		t.Fatalf("closing no position answered %v", e)
	}
	for _, m := range b.held {
		if m["method"] == "futures_order" {
			if p, _ := m["params"].(map[string]any); p["symbol"] == "ETHBTC" {
				t.Fatalf("a spot order reported to the futures subscriber: %v", m)
			}
		}
	}
}

func TestBotReadsTheWalletStream(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	accts, _ := fixtures.Accounts()
	key := accts[0].Keys[0]
	b := dialBot(t, emu, "wallet")
	b.send(map[string]any{"method": "login", "id": 1, "params": map[string]any{"type": "BASIC", "api_key": key.APIKey, "secret_key": key.Secret}})
	if m := b.next("the login answer", answerTo(1)); m["result"] != true {
		t.Fatalf("login answered %v", m)
	}
	b.send(map[string]any{"method": "wallet_balances", "id": 2})
	bals, _ := b.next("wallet_balances", answerTo(2))["result"].([]any)
	if len(bals) == 0 {
		t.Fatal("wallet_balances lists nothing for a funded fixture account")
	}
	first, _ := bals[0].(map[string]any)
	for _, k := range []string{"currency", "available", "reserved"} {
		if _, ok := first[k].(string); !ok {
			t.Fatalf("a wallet balance lacks %s: %v", k, first)
		}
	}
	b.send(map[string]any{"method": "subscribe_wallet_balances", "id": 3})
	b.next("the subscribe answer", answerTo(3))
	b.next("the wallet_balances snapshot", func(m map[string]any) bool { return m["method"] == "wallet_balances" })
	b.send(map[string]any{"method": "transactions", "id": 4, "params": map[string]any{}})
	if r, ok := b.next("transactions", answerTo(4))["result"].([]any); !ok || len(r) != 0 {
		t.Fatalf("transactions answered %v, want an empty list", r)
	}
	b.send(map[string]any{"method": "no_such_method", "id": 5})
	if m := b.next("the unknown method's answer", answerTo(5)); m["error"] == nil {
		t.Fatalf("an unknown method answered %v", m)
	}
}

func TestTradingStreamAnswersMalformedFrames(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	b := dialBot(t, emu, "trading")
	for _, tc := range []struct {
		frame  string
		wantID any
	}{
		{"not json", nil},
		{`{"method": 5, "id": "x1"}`, "x1"},
		{`{"method": "spot_balances", "params": [1], "id": 7}`, float64(7)},
		{`{"method": "spot_balances", "id": 8}`, float64(8)}, // before a login
	} {
		if err := b.ws.WriteMessage(websocket.TextMessage, []byte(tc.frame)); err != nil {
			t.Fatal(err)
		}
		m := b.next("the answer to "+tc.frame, func(map[string]any) bool { return true })
		if m["error"] == nil || m["id"] != tc.wantID {
			t.Errorf("%s: answered %v, want an error with id %v", tc.frame, m, tc.wantID)
		}
	}
}

// restAs sends one REST request with key's Basic credentials and answers
// its HTTP status (the body is not read: these set up what a stream test
// then watches).
func restAs(t *testing.T, key fixtures.Key, method, url, contentType, body string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.SetBasicAuth(key.APIKey, key.Secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
