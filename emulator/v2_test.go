package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
)

// v2bot speaks API v2 as ccxt's v2 hitbtc class does: HTTP Basic, JSON
// bodies, the paths of its api table.
type v2bot struct {
	t           *testing.T
	h           http.Handler
	key, secret string
}

func (b v2bot) do(method, path string, body map[string]any) (int, any) {
	b.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	r := httptest.NewRequest(method, path, rd)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if b.key != "" {
		r.SetBasicAuth(b.key, b.secret)
	}
	w := httptest.NewRecorder()
	b.h.ServeHTTP(w, r)
	var v any
	dec := json.NewDecoder(w.Body)
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		b.t.Fatalf("%s %s: HTTP %d, body is not JSON: %v", method, path, w.Code, err)
	}
	return w.Code, v
}

func (b v2bot) ok(method, path string, body map[string]any) any {
	b.t.Helper()
	code, v := b.do(method, path, body)
	if code != http.StatusOK {
		b.t.Fatalf("%s %s: HTTP %d %v", method, path, code, v)
	}
	return v
}

func obj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %#v", v)
	}
	return m
}

func arr(t *testing.T, v any) []any {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("not an array: %#v", v)
	}
	return a
}

func hasFields(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: field %s missing in %v", what, k, m)
		}
	}
}

func errCode(t *testing.T, v any) string {
	t.Helper()
	e, _ := obj(t, v)["error"].(map[string]any)
	return fmt.Sprint(e["code"])
}

// The fixture accounts' keys (fixtures/accounts.json).
const (
	full1, secret1 = "emu-full-01", "f4469d308c7f6f1acb7456a2f962ca4966ab241c"
	full2, secret2 = "emu-full-02", "5cb777b418ea583a64b98cfabb88b3e9d83b4a22"
	readOnly1      = "emu-read-only-01"
	readOnlySecret = "860deb5420333c4e58c4ef04fb188539678989ba"
)

// TestV2BotTrades is a v2 bot of ccxt's v2 shapes: it places, lists, edits
// and cancels orders, reads its trading balance, the order book, trades and
// candles over v2 REST, and sees the same orders and trades as v3.
func TestV2BotTrades(t *testing.T) {
	h := newTest(t, Options{NoLimits: true}).Handler()
	bot := v2bot{t, h, full1, secret1}
	other := v2bot{t, h, full2, secret2}
	pub := v2bot{t: t, h: h}

	syms := arr(t, pub.ok("GET", "/api/2/public/symbol?symbols=ETHBTC", nil))
	if len(syms) != 1 {
		t.Fatalf("symbols=ETHBTC: %v", syms)
	}
	// createOrder: a resting sell.
	o := obj(t, bot.ok("POST", "/api/2/order", map[string]any{"clientOrderId": "v2botsell0000000000000000000001", "symbol": "ETHBTC",
		"side": "sell", "quantity": "1.5", "type": "limit", "price": "0.05"}))
	hasFields(t, "order", o, "id", "clientOrderId", "symbol", "side", "status", "type", "timeInForce", "quantity", "price", "cumQuantity", "createdAt", "updatedAt", "postOnly")
	if o["status"] != "new" || o["cumQuantity"] != "0" {
		t.Fatalf("a resting order: %v", o)
	}
	// The same order over v3.
	v3 := obj(t, bot.ok("GET", "/api/3/spot/order/v2botsell0000000000000000000001", nil))
	if fmt.Sprint(v3["id"]) != fmt.Sprint(o["id"]) || v3["quantity"] != "1.5" {
		t.Fatalf("v3 shows %v for v2 order %v", v3, o)
	}
	// fetchOpenOrders / fetchOpenOrder.
	open := arr(t, bot.ok("GET", "/api/2/order?symbol=ETHBTC", nil))
	if len(open) != 1 {
		t.Fatalf("open orders: %v", open)
	}
	bot.ok("GET", "/api/2/order/v2botsell0000000000000000000001", nil)
	// fetchBalance: the trading balance reserves the sell, as v3 shows.
	var eth map[string]any
	for _, b := range arr(t, bot.ok("GET", "/api/2/trading/balance", nil)) {
		if m := obj(t, b); m["currency"] == "ETH" {
			eth = m
		}
	}
	v3eth := obj(t, bot.ok("GET", "/api/3/spot/balance/ETH", nil))
	if eth["reserved"] != "1.5" || eth["available"] != v3eth["available"] || eth["reserved"] != v3eth["reserved"] {
		t.Fatalf("v2 trading balance %v, v3 spot balance %v", eth, v3eth)
	}
	// fetchOrderBook.
	book := obj(t, pub.ok("GET", "/api/2/public/orderbook/ETHBTC", nil))
	asks := arr(t, book["ask"])
	if len(asks) != 1 || obj(t, asks[0])["price"] != "0.05" || obj(t, asks[0])["size"] != "1.5" {
		t.Fatalf("order book: %v", book)
	}
	if len(arr(t, book["bid"])) != 0 {
		t.Fatalf("no bids yet: %v", book)
	}
	all := obj(t, pub.ok("GET", "/api/2/public/orderbook?symbols=ETHBTC,BTCUSDT", nil))
	if len(all) != 2 {
		t.Fatalf("orderbook of two symbols: %v", all)
	}
	// editOrder (cancel-replace with requestClientId).
	ed := obj(t, bot.ok("PATCH", "/api/2/order/v2botsell0000000000000000000001", map[string]any{"requestClientId": "v2botsell0000000000000000000002", "quantity": "1", "price": "0.05"}))
	if ed["clientOrderId"] != "v2botsell0000000000000000000002" || ed["quantity"] != "1" {
		t.Fatalf("replaced order: %v", ed)
	}
	// Another account buys 0.4 over v2: a trade.
	tk := obj(t, other.ok("POST", "/api/2/order", map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "0.4", "type": "limit", "price": "0.05"}))
	if tk["status"] != "filled" || len(arr(t, tk["tradesReport"])) != 1 {
		t.Fatalf("taker: %v", tk)
	}
	tr := obj(t, arr(t, tk["tradesReport"])[0])
	// fetchTrades.
	pt := arr(t, pub.ok("GET", "/api/2/public/trades/ETHBTC", nil))
	if len(pt) != 1 {
		t.Fatalf("public trades: %v", pt)
	}
	p0 := obj(t, pt[0])
	hasFields(t, "public trade", p0, "id", "price", "quantity", "side", "timestamp")
	if p0["side"] != "buy" || p0["price"] != "0.05" || p0["quantity"] != "0.4" || fmt.Sprint(p0["id"]) != fmt.Sprint(tr["id"]) {
		t.Fatalf("public trade %v, taker's %v", p0, tr)
	}
	// fetchOHLCV.
	cs := arr(t, pub.ok("GET", "/api/2/public/candles/ETHBTC?period=M1", nil))
	if len(cs) != 1 {
		t.Fatalf("candles: %v", cs)
	}
	c0 := obj(t, cs[0])
	hasFields(t, "candle", c0, "timestamp", "open", "close", "min", "max", "volume", "volumeQuote")
	if c0["volume"] != "0.4" || c0["volumeQuote"] != "0.02" {
		t.Fatalf("candle: %v", c0)
	}
	// fetchTicker.
	tick := obj(t, pub.ok("GET", "/api/2/public/ticker/ETHBTC", nil))
	if tick["last"] != "0.05" || tick["ask"] != "0.05" || tick["bid"] != nil {
		t.Fatalf("ticker: %v", tick)
	}
	// fetchMyTrades: the maker's trade, same fee as the v3 history shows.
	my := arr(t, bot.ok("GET", "/api/2/history/trades?symbol=ETHBTC", nil))
	if len(my) != 1 {
		t.Fatalf("my trades: %v", my)
	}
	m0 := obj(t, my[0])
	v3o := obj(t, bot.ok("GET", "/api/3/spot/order/v2botsell0000000000000000000002", nil))
	if v3o["quantity_cumulative"] != "0.4" || m0["fee"] != "0.00002" || m0["taker"] != false {
		t.Fatalf("v2 trade %v, v3 order %v", m0, v3o)
	}
	// fetchOrder via the history, then cancelOrder.
	hist := arr(t, bot.ok("GET", "/api/2/history/order?clientOrderId=v2botsell0000000000000000000002", nil))
	if len(hist) != 1 || obj(t, hist[0])["status"] != "partiallyFilled" {
		t.Fatalf("history of the order: %v", hist)
	}
	cn := obj(t, bot.ok("DELETE", "/api/2/order/v2botsell0000000000000000000002", nil))
	if cn["status"] != "canceled" {
		t.Fatalf("canceled: %v", cn)
	}
	if v := obj(t, bot.ok("GET", "/api/3/spot/balance/ETH", nil)); v["reserved"] != "0" {
		t.Fatalf("the cancel released the reservation: %v", v)
	}
	// Cancel all.
	bot.ok("POST", "/api/2/order", map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "1", "type": "limit", "price": "0.01"})
	if gone := arr(t, bot.ok("DELETE", "/api/2/order?symbol=ETHBTC", nil)); len(gone) != 1 {
		t.Fatalf("cancel all: %v", gone)
	}
	// The v2 fee of a symbol is v3's.
	fee := obj(t, bot.ok("GET", "/api/2/trading/fee/ETHBTC", nil))
	if fee["takeLiquidityRate"] != "0.0025" || fee["provideLiquidityRate"] != "0.001" {
		t.Fatalf("fee: %v", fee)
	}
}

// TestV2OrderValidation: the documented validations hold on the v2 order
// paths too.
func TestV2OrderValidation(t *testing.T) {
	h := newTest(t, Options{NoLimits: true}).Handler()
	bot := v2bot{t, h, full1, secret1}
	ro := v2bot{t, h, readOnly1, readOnlySecret}
	for _, c := range []struct {
		name string
		b    v2bot
		body map[string]any
		code int
		err  string
	}{
		{"unknown symbol", bot, map[string]any{"symbol": "NOPE", "side": "buy", "quantity": "1", "price": "1"}, 400, "2001"},
		{"off the increment", bot, map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "0.00001", "price": "0.01", "strictValidate": true}, 400, "10001"},
		{"insufficient funds", bot, map[string]any{"symbol": "ETHBTC", "side": "sell", "quantity": "1000", "price": "0.05"}, 400, "20001"},
		{"no right", ro, map[string]any{"symbol": "ETHBTC", "side": "buy", "quantity": "1", "price": "0.01"}, 403, "1003"},
	} {
		code, v := c.b.do("POST", "/api/2/order", c.body)
		if code != c.code || errCode(t, v) != c.err {
			t.Errorf("%s: HTTP %d %v, want %d %s", c.name, code, v, c.code, c.err)
		}
	}
	if code, v := (v2bot{t: t, h: h}).do("GET", "/api/2/trading/balance", nil); code != 401 || errCode(t, v) != "1001" {
		t.Errorf("trading balance without credentials: %d %v", code, v)
	}
}

// TestV2WalletSharedWithV3 moves funds over v2 and reads them over v3, and
// runs the two-phase withdrawal on the emulator clock, past the hour.
func TestV2WalletSharedWithV3(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	h := newTest(t, Options{NoLimits: true, Clock: clk}).Handler()
	bot := v2bot{t, h, full1, secret1}
	balance := func(path, cur string) string {
		for _, b := range arr(t, bot.ok("GET", path, nil)) {
			if m := obj(t, b); m["currency"] == cur {
				return fmt.Sprint(m["available"])
			}
		}
		return "0"
	}
	bot.ok("POST", "/api/2/account/transfer", map[string]any{"currency": "USDT", "amount": "100", "type": "bankToExchange"})
	if balance("/api/2/account/balance", "USDT") != "99900" || balance("/api/3/spot/balance", "USDT") != "100100" {
		t.Fatalf("bankToExchange: main %s, v3 spot %s", balance("/api/2/account/balance", "USDT"), balance("/api/3/spot/balance", "USDT"))
	}
	addr := obj(t, v2bot{t, h, full2, secret2}.ok("GET", "/api/2/account/crypto/address/BTC", nil))["address"]
	// Committed by default: created, then pending, then success on the clock.
	w := obj(t, bot.ok("POST", "/api/2/account/crypto/withdraw", map[string]any{"currency": "BTC", "amount": "0.1", "address": addr}))
	id := fmt.Sprint(w["id"])
	status := func(id string) string {
		return fmt.Sprint(obj(t, bot.ok("GET", "/api/2/account/transactions/"+id, nil))["status"])
	}
	if s := status(id); s != "created" {
		t.Fatalf("a new withdrawal is created, got %s", s)
	}
	clk.Advance(15 * time.Second)
	if s := status(id); s != "pending" {
		t.Fatalf("after 15s: %s", s)
	}
	clk.Advance(time.Minute)
	if s := status(id); s != "success" {
		t.Fatalf("after 75s: %s", s)
	}
	if got := balance("/api/2/account/balance", "BTC"); got != "2.3997" {
		t.Fatalf("BTC main after 0.1 + fee 0.0003: %s", got)
	}
	// An address that fails its network's pattern fails with its errorCode,
	// and the funds come back.
	bad := fmt.Sprint(obj(t, bot.ok("POST", "/api/2/account/crypto/withdraw", map[string]any{"currency": "BTC", "amount": "0.1", "address": "not-a-bitcoin-address"}))["id"])
	clk.Advance(2 * time.Minute)
	tx := obj(t, bot.ok("GET", "/api/2/account/transactions/"+bad, nil))
	if tx["status"] != "failed" || tx["errorCode"] != "INVALID_ADDRESS" || balance("/api/2/account/balance", "BTC") != "2.3997" {
		t.Fatalf("invalid address: %v, BTC %s", tx, balance("/api/2/account/balance", "BTC"))
	}
	// Not committed within the hour: rolled back; then commit is refused
	// and rollback stays true.
	late := fmt.Sprint(obj(t, bot.ok("POST", "/api/2/account/crypto/withdraw", map[string]any{"currency": "BTC", "amount": "0.1", "address": addr, "autoCommit": false}))["id"])
	if got := balance("/api/2/account/balance", "BTC"); got != "2.2994" {
		t.Fatalf("held for the uncommitted withdrawal: %s", got)
	}
	clk.Advance(time.Hour)
	if got := balance("/api/2/account/balance", "BTC"); got != "2.3997" {
		t.Fatalf("released after the hour: %s", got)
	}
	if code, v := bot.do("PUT", "/api/2/account/crypto/withdraw/"+late, nil); code != 400 || errCode(t, v) != "600" {
		t.Fatalf("commit after the hour: %d %v", code, v)
	}
	if r := obj(t, bot.ok("DELETE", "/api/2/account/crypto/withdraw/"+late, nil)); r["result"] != true {
		t.Fatalf("rollback after the hour: %v", r)
	}
	used := arr(t, bot.ok("GET", "/api/2/account/crypto/used-addresses/BTC", nil))
	if len(used) != 2 {
		t.Fatalf("two distinct addresses withdrawn to: %v", used)
	}
}

// TestV2Limits: 10 other requests per second per user and 100 market data
// requests per second per IP, no burst; the window is the base clock's.
func TestV2Limits(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	h := newTest(t, Options{Clock: clk}).Handler()
	count := func(path, key, secret string, n int) int {
		ok := 0
		for i := 0; i < n; i++ {
			r := httptest.NewRequest("GET", path, nil)
			if key != "" {
				r.SetBasicAuth(key, secret)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusTooManyRequests {
				ok++
			}
		}
		return ok
	}
	if got := count("/api/2/history/trades", full1, secret1, 15); got != 10 {
		t.Errorf("per user: %d of 15 accepted, want 10", got)
	}
	if got := count("/api/2/account/balance", full2, secret2, 12); got != 10 {
		t.Errorf("another user has a budget of its own: %d of 12", got)
	}
	if got := count("/api/2/public/symbol", "", "", 105); got != 100 {
		t.Errorf("per IP market data: %d of 105 accepted, want 100", got)
	}
	clk.Advance(time.Second)
	if got := count("/api/2/history/trades", full1, secret1, 1); got != 1 {
		t.Errorf("after the window: %d", got)
	}
}

// TestV2MalformedInputNever500: odd parameters on every v2 path get a
// documented refusal or an answer, never HTTP 500.
func TestV2MalformedInputNever500(t *testing.T) {
	h := newTest(t, Options{NoLimits: true}).Handler()
	odd := []string{"", "limit=abc", "limit=-1", "offset=99999999999", "from=yesterday&till=%zz", "by=index&from=x", "by=id&from=1e9",
		"sort=sideways", "margin=maybe", "amount=1e5&currency=BTC", "amount=-1&currency=BTC", "currency=" + strings.Repeat("X", 300),
		"symbols=,,,", "period=Y1", "showSenders=perhaps", "networkCode=NOPE&currency=USDT&amount=1"}
	paths := []string{"/public/currency", "/public/currency/BTC", "/public/symbol", "/public/symbol/ETHBTC", "/public/ticker",
		"/public/ticker/ETHBTC", "/public/orderbook", "/public/orderbook/ETHBTC", "/public/trades/ETHBTC", "/public/candles/ETHBTC",
		"/history/trades", "/history/order/123/trades", "/history/order/abc/trades", "/history/order", "/account/balance",
		"/account/crypto/address/BTC", "/account/crypto/addresses/USDT", "/account/crypto/used-addresses/BTC",
		"/account/crypto/estimate-withdraw", "/account/crypto/estimate-withdraw-levels", "/account/crypto/is-mine/x",
		"/account/transactions", "/account/transactions/nope", "/trading/balance", "/trading/fee/NOPE", "/order", "/order/nope"}
	for _, method := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		for _, p := range paths {
			for _, q := range odd {
				r := httptest.NewRequest(method, "/api/2"+p+"?"+q, strings.NewReader(q))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				r.SetBasicAuth(full1, secret1)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code >= 500 {
					t.Errorf("%s %s?%s: HTTP %d %s", method, p, q, w.Code, w.Body)
				}
			}
		}
	}
	for _, p := range []string{"/account/crypto/withdraw", "/account/transfer", "/account/transfer/internal", "/account/crypto/transfer-convert"} {
		for _, q := range odd {
			r := httptest.NewRequest("POST", "/api/2"+p, strings.NewReader(q+"&address=x&type=bankToExchange&by=email&identifier=a&fromCurrency=USDT&toCurrency=USDC"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.SetBasicAuth(full1, secret1)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code >= 500 {
				t.Errorf("POST %s %s: HTTP %d %s", p, q, w.Code, w.Body)
			}
		}
	}
}
