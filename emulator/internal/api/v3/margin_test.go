package v3

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func currency0(acct map[string]any) map[string]any {
	cs, _ := acct["currencies"].([]any)
	if len(cs) == 0 {
		return nil
	}
	c, _ := cs[0].(map[string]any)
	return c
}

func positions(acct map[string]any) []map[string]any {
	ps, _ := acct["positions"].([]any)
	var out []map[string]any
	for _, p := range ps {
		m, _ := p.(map[string]any)
		out = append(out, m)
	}
	return out
}

func TestMarginConfig(t *testing.T) {
	v := newTradingEnv(t)
	a := v.ok(v.send("GET", "/margin/config", readOnly, nil))
	recs, _ := a.obj()["config"].([]any)
	if len(recs) == 0 {
		t.Fatalf("%s", a.raw)
	}
	withRisk, without := 0, 0
	for _, r := range recs {
		m := r.(map[string]any)
		for _, k := range []string{"symbol", "margin_call_leverage_mul", "liquidation_leverage_mul", "max_initial_leverage", "margin_mode", "force_close_fee", "enabled", "active"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%v lacks %s", m, k)
			}
		}
		n := 0
		for _, k := range []string{"limit_base", "limit_power", "unlimited_threshold"} {
			if _, ok := m[k]; ok {
				n++
			}
		}
		switch n {
		case 3:
			withRisk++
		case 0:
			without++
		default:
			t.Errorf("partial risk limit %v", m)
		}
	}
	if withRisk == 0 || without == 0 {
		t.Errorf("want records with and without a risk limit: %d, %d", withRisk, without)
	}
}

func TestMarginAccounts(t *testing.T) {
	v := newTradingEnv(t)
	put := func(path, bal string, kv ...any) answer {
		p := params{"margin_balance": bal}
		for i := 0; i+1 < len(kv); i += 2 {
			p[kv[i].(string)] = kv[i+1]
		}
		return v.send("PUT", path, full1, p)
	}
	acct := v.ok(put("/margin/account/isolated/BTCUSDT", "1000")).obj()
	if str(acct, "symbol") != "BTCUSDT" || str(acct, "type") != "isolated" || str(acct, "leverage") != "10" || acct["positions"] != nil {
		t.Fatalf("account %v", acct)
	}
	if c := currency0(acct); str(c, "code") != "USDT" || str(c, "margin_balance") != "1000" || str(c, "reserved_orders") != "0" || str(c, "reserved_positions") != "0" {
		t.Fatalf("currency %v", c)
	}
	b := v.balance(full1, "USDT")
	if str(b, "available") != "99000" || str(b, "reserved_margin") != "1000" || str(b, "cross_margin_reserved") != "0" {
		t.Fatalf("spot %v", b)
	}
	cross := v.ok(put("/margin/account/cross/USDT", "500")).obj()
	if str(cross, "symbol") != "USDT" || str(cross, "type") != "cross" {
		t.Fatalf("cross %v", cross)
	}
	b = v.balance(full1, "USDT")
	if str(b, "available") != "98500" || str(b, "cross_margin_reserved") != "500" {
		t.Fatalf("spot %v", b)
	}
	all := objs(v.ok(v.send("GET", "/margin/account", readOnly, nil)))
	if len(all) != 2 || str(all[0], "type") != "isolated" || str(all[1], "type") != "cross" {
		t.Fatalf("GET /margin/account: %v", all)
	}
	if got := v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj(); str(currency0(got), "margin_balance") != "1000" {
		t.Fatalf("GET isolated: %v", got)
	}
	if got := v.ok(v.send("GET", "/margin/account/cross/USDT", full1, nil)).obj(); str(currency0(got), "margin_balance") != "500" {
		t.Fatalf("GET cross: %v", got)
	}
	// Lower, then close.
	v.ok(put("/margin/account/isolated/BTCUSDT", "400"))
	if b = v.balance(full1, "USDT"); str(b, "available") != "99100" || str(b, "reserved_margin") != "400" {
		t.Fatalf("after lowering %v", b)
	}
	closed := v.ok(put("/margin/account/isolated/BTCUSDT", "0")).obj()
	if str(currency0(closed), "margin_balance") != "0" || closed["positions"] != nil {
		t.Fatalf("closed %v", closed)
	}
	if b = v.balance(full1, "USDT"); str(b, "available") != "99500" || str(b, "reserved_margin") != "0" {
		t.Fatalf("after closing %v", b)
	}
	if all = objs(v.ok(v.send("GET", "/margin/account", full1, nil))); len(all) != 1 {
		t.Fatalf("after closing: %v", all)
	}
	v.check()

	for _, tc := range []struct {
		name   string
		a      answer
		status int
		code   int
	}{
		{"unknown symbol", put("/margin/account/isolated/DOGEUSDT", "1"), 400, 2001},
		{"unknown currency", put("/margin/account/cross/DOGE", "1"), 400, 2002},
		{"symbol without margin", put("/margin/account/isolated/XRPUSDT", "1"), 400, 10001},
		{"currency without cross margin", put("/margin/account/cross/ETH", "1"), 400, 10001},
		{"bad mode", put("/margin/account/spot/BTCUSDT", "1"), 400, 10001},
		{"more than available", put("/margin/account/isolated/BTCUSDT", "100000.5"), 400, 20001},
		{"negative", put("/margin/account/isolated/BTCUSDT", "-1"), 400, 10001},
		{"not a number", put("/margin/account/isolated/BTCUSDT", "ten"), 400, 10001},
		{"missing", v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{}), 400, 10001},
		{"strict exponent", put("/margin/account/isolated/BTCUSDT", "1e2", "strict_validate", true), 400, 10001},
		{"strict precision", put("/margin/account/isolated/BTCUSDT", "1.0000001", "strict_validate", true), 400, 10001},
		{"GET not open", v.send("GET", "/margin/account/isolated/ETHUSDT", full1, nil), 400, 10001},
		{"GET unknown symbol", v.send("GET", "/margin/account/isolated/DOGEUSDT", full1, nil), 400, 2001},
		{"GET unknown currency", v.send("GET", "/margin/account/cross/DOGE", full1, nil), 400, 2002},
	} {
		if tc.a.status != tc.status || tc.a.errCode() != tc.code {
			t.Errorf("%s: got %d %s, want %d %d", tc.name, tc.a.status, tc.a.raw, tc.status, tc.code)
		}
	}
	// Without strict_validate, exponent forms and extra decimals round down.
	if c := currency0(v.ok(put("/margin/account/isolated/BTCUSDT", "1e2")).obj()); str(c, "margin_balance") != "100" {
		t.Errorf("1e2: %v", c)
	}
	if c := currency0(v.ok(put("/margin/account/isolated/BTCUSDT", "1.0000009")).obj()); str(c, "margin_balance") != "1" {
		t.Errorf("1.0000009: %v", c)
	}
	if c := currency0(v.ok(put("/margin/account/isolated/BTCUSDT", "2.000001", "strict_validate", true)).obj()); str(c, "margin_balance") != "2.000001" {
		t.Errorf("strict at precision: %v", c)
	}
	v.check()
}

// openLong gives account 01 an isolated BTCUSDT account of 1000 USDT and a
// 0.1 BTC long at 60000 (bought as taker from account 02).
func openLong(v *tradingEnv) map[string]any {
	v.t.Helper()
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.1", "60000")))
	return v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.1", "60000", "client_order_id", "long-open-1"))).obj()
}

func TestMarginPositionLifecycle(t *testing.T) {
	v := newTradingEnv(t)
	o := openLong(v)
	if str(o, "status") != "filled" || o["reduce_only"] != false || str(o, "margin_mode") != "isolated" || o["position_id"] == nil {
		t.Fatalf("order %v", o)
	}
	acct := v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()
	c := currency0(acct)
	// Fee 6000 × 0.0009 = 5.4; initial margin 6000 / 10.
	if str(c, "margin_balance") != "994.6" || str(c, "reserved_positions") != "600" || str(c, "reserved_orders") != "0" {
		t.Fatalf("currency %v", c)
	}
	ps := positions(acct)
	if len(ps) != 1 {
		t.Fatalf("positions %v", acct)
	}
	p := ps[0]
	// K = 10 × 1.5: P = 15 (6000 − 994.6) / (0.1 × 14); K = 20 for liquidation.
	want := map[string]string{"symbol": "BTCUSDT", "quantity": "0.1", "margin_mode": "isolated", "pnl": "0", "price_entry": "60000",
		"price_margin_call": "53629.29", "price_liquidation": "52688.42", "fee_cumulative": "5.4", "leverage": "10"}
	for k, w := range want {
		if str(p, k) != w {
			t.Errorf("position %s = %q, want %q", k, p[k], w)
		}
	}
	if p["id"] != o["position_id"] {
		t.Errorf("position id %v, order's %v", p["id"], o["position_id"])
	}
	// The last price moves: unrealized pnl follows.
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.001", "61000")))
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.001", "61000")))
	if p = positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj())[0]; str(p, "pnl") != "100" {
		t.Errorf("pnl %v", p["pnl"])
	}
	// Closing needs the position closed first.
	if a := v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "0"}); a.errCode() != 20001 {
		t.Fatalf("PUT 0 with a position: %s", a.raw)
	}
	// Lowering below what the position holds is refused.
	if a := v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "500"}); a.errCode() != 20001 {
		t.Fatalf("PUT below the position's margin: %s", a.raw)
	}
	// Market close against a bid at 61000: pnl +100, fee 5.49.
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.1", "61000")))
	closed := objs(v.ok(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, nil)))
	if len(closed) != 1 || str(closed[0], "quantity") != "0.1" {
		t.Fatalf("closed %v", closed)
	}
	acct = v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()
	if acct["positions"] != nil || str(currency0(acct), "margin_balance") != "1089.11" {
		t.Fatalf("after close %v", acct)
	}
	trades := objs(v.ok(v.send("GET", "/margin/history/trade", full1, params{"sort": "ASC"})))
	if len(trades) != 2 || str(trades[1], "pnl") != "100" || trades[0]["pnl"] != nil || str(trades[0], "id") == "" || str(trades[0], "order_id") == "" {
		t.Fatalf("trades %v", trades)
	}
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "0"}))
	if b := v.balance(full1, "USDT"); str(b, "available") != "100089.11" || str(b, "reserved_margin") != "0" {
		t.Fatalf("spot after closing the account %v", b)
	}
	v.check()
}

func TestMarginOrders(t *testing.T) {
	v := newTradingEnv(t)
	// Without an account.
	if a := v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")); a.errCode() != 20001 {
		t.Fatalf("without account: %s", a.raw)
	}
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
	// Cross needs its own account.
	if a := v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000", "margin_mode", "cross")); a.errCode() != 20001 {
		t.Fatalf("cross without account: %s", a.raw)
	}
	if a := v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000", "margin_mode", "both")); a.errCode() != 10001 {
		t.Fatalf("bad margin_mode: %s", a.raw)
	}
	if a := v.send("POST", "/margin/order", full1, lim("XRPUSDT", "buy", "10", "0.5")); a.errCode() != 10001 {
		t.Fatalf("symbol without margin: %s", a.raw)
	}
	// Beyond the leverage: 0.2 × 60000 / 10 = 1200 > 1000.
	if a := v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.2", "60000")); a.errCode() != 20001 {
		t.Fatalf("beyond leverage: %s", a.raw)
	}
	o := v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.1", "50000", "client_order_id", "margin-ord-01"))).obj()
	if str(o, "margin_mode") != "isolated" || o["reduce_only"] != false || str(o, "status") != "new" {
		t.Fatalf("order %v", o)
	}
	// 5000 / 10 + 5000 × 0.0009 held.
	if c := currency0(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); str(c, "reserved_orders") != "504.5" {
		t.Fatalf("reserved %v", c)
	}
	// Margin orders are apart from spot orders.
	if n := len(v.ok(v.send("GET", "/spot/order", full1, nil)).arr()); n != 0 {
		t.Fatalf("%d spot orders", n)
	}
	if a := v.send("GET", "/spot/order/margin-ord-01", full1, nil); a.errCode() != 20002 {
		t.Fatalf("spot GET of a margin order: %s", a.raw)
	}
	if os := objs(v.ok(v.send("GET", "/margin/order", full1, params{"symbol": "BTCUSDT"}))); len(os) != 1 || str(os[0], "margin_mode") != "isolated" {
		t.Fatalf("GET /margin/order %v", os)
	}
	r := v.ok(v.send("PATCH", "/margin/order/margin-ord-01", full1, params{"quantity": "0.12", "price": "50000", "new_client_order_id": "margin-ord-02"})).obj()
	if str(r, "original_client_order_id") != "margin-ord-01" || str(r, "margin_mode") != "isolated" {
		t.Fatalf("replaced %v", r)
	}
	if a := v.send("PATCH", "/margin/order/margin-ord-02", full1, params{"quantity": "1", "price": "50000"}); a.errCode() != 20001 {
		t.Fatalf("replace beyond leverage: %s", a.raw)
	}
	if c := v.ok(v.send("DELETE", "/margin/order/margin-ord-02", full1, nil)).obj(); str(c, "status") != "canceled" {
		t.Fatalf("cancel %v", c)
	}
	v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")))
	if os := objs(v.ok(v.send("DELETE", "/margin/order", full1, nil))); len(os) != 1 || str(os[0], "status") != "canceled" {
		t.Fatalf("cancel all %v", os)
	}
	if c := currency0(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); str(c, "reserved_orders") != "0" || str(c, "margin_balance") != "1000" {
		t.Fatalf("after cancels %v", c)
	}
	// Closing the account cancels its orders.
	v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000", "client_order_id", "margin-ord-03")))
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "0"}))
	if h := v.history(full1, "/margin/history/order", "margin-ord-03"); str(h, "status") != "canceled" {
		t.Fatalf("after closing %v", h)
	}
	if b := v.balance(full1, "USDT"); str(b, "available") != "100000" || str(b, "reserved") != "0" {
		t.Fatalf("spot %v", b)
	}
	v.check()
}

func TestMarginShortAndCross(t *testing.T) {
	v := newTradingEnv(t)
	v.ok(v.send("PUT", "/margin/account/cross/USDT", full1, params{"margin_balance": "2000"}))
	v.ok(v.send("POST", "/spot/order", full2, lim("ETHUSDT", "buy", "1", "3000")))
	o := v.ok(v.send("POST", "/margin/order", full1, lim("ETHUSDT", "sell", "1", "3000", "margin_mode", "cross"))).obj()
	if str(o, "status") != "filled" || str(o, "margin_mode") != "cross" {
		t.Fatalf("order %v", o)
	}
	acct := v.ok(v.send("GET", "/margin/account/cross/USDT", full1, nil)).obj()
	ps := positions(acct)
	if len(ps) != 1 || str(ps[0], "quantity") != "-1" || str(ps[0], "margin_mode") != "cross" || str(ps[0], "price_entry") != "3000" {
		t.Fatalf("position %v", acct)
	}
	if _, has := acct["leverage"]; has {
		t.Errorf("a cross account carries leverage: %v", acct)
	}
	// Short, backed by the whole cross balance 2000 − 2.7 (fee): K = 5 × 1.4
	// and 5 × 1.8, P = K (1997.3 + 3000) / (1 × (K + 1)).
	if str(ps[0], "price_margin_call") != "4372.64" || str(ps[0], "price_liquidation") != "4497.57" {
		t.Errorf("margin call and liquidation %v", ps[0])
	}
	// The ETH sold short went to the counterparty.
	if b := v.balance(full2, "ETH"); str(b, "available") != "41" {
		t.Errorf("counterparty ETH %v", b)
	}
	// Close everything at market against an ask.
	v.ok(v.send("POST", "/spot/order", full2, lim("ETHUSDT", "sell", "1", "2900")))
	closed := objs(v.ok(v.send("DELETE", "/margin/position", full1, nil)))
	if len(closed) != 1 || str(closed[0], "quantity") != "-1" {
		t.Fatalf("closed %v", closed)
	}
	if acct = v.ok(v.send("GET", "/margin/account/cross/USDT", full1, nil)).obj(); acct["positions"] != nil {
		t.Fatalf("after close %v", acct)
	}
	v.check()
}

func TestMarginReduceAndClosePosition(t *testing.T) {
	v := newTradingEnv(t)
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
	// Reduce-only with no position: expires.
	if o := v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "sell", "0.1", "70000", "reduce_only", true))).obj(); str(o, "status") != "expired" || o["reduce_only"] != true {
		t.Fatalf("reduce-only without position %v", o)
	}
	// close_position with quantity: 10001; without position: canceled.
	if a := v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "sell", "type": "market", "quantity": "0.1", "close_position": true}); a.errCode() != 10001 {
		t.Fatalf("close_position with quantity: %s", a.raw)
	}
	if o := v.ok(v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "sell", "type": "market", "close_position": true})).obj(); str(o, "status") != "canceled" {
		t.Fatalf("close_position without position %v", o)
	}
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.1", "60000")))
	v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.1", "60000")))
	// A reduce-only sell of 0.2 into a bid of 0.3 closes 0.1 only.
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.3", "59000")))
	o := v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "sell", "0.2", "59000", "reduce_only", true, "time_in_force", "IOC"))).obj()
	if str(o, "status") != "expired" || str(o, "quantity_cumulative") != "0.1" {
		t.Fatalf("reduce-only %v", o)
	}
	if ps := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); len(ps) != 0 {
		t.Fatalf("positions %v", ps)
	}
	// Reopen; a stopMarket close_position fires and closes it.
	v.ok(v.send("DELETE", "/spot/order", full2, nil))
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.05", "60000")))
	v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.05", "60000")))
	c := v.ok(v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "sell", "type": "stopMarket", "stop_price": "58000", "close_position": true, "client_order_id": "close-pos-01"})).obj()
	if str(c, "status") != "suspended" || str(c, "quantity") != "0.05" {
		t.Fatalf("close order %v", c)
	}
	// A bid for the close to sell into, and a trade at 58000 to fire it.
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.2", "57000")))
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.001", "58000")))
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.001", "58000")))
	if h := v.history(full1, "/margin/history/order", "close-pos-01"); str(h, "status") != "filled" || str(h, "price_average") != "57000" {
		t.Fatalf("close order after the trigger %v", h)
	}
	if ps := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); len(ps) != 0 {
		t.Fatalf("positions %v", ps)
	}
	v.check()
}

func TestMarginLimitClose(t *testing.T) {
	v := newTradingEnv(t)
	openLong(v)
	closed := objs(v.ok(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, params{"price": "65000"})))
	if len(closed) != 1 {
		t.Fatalf("closed %v", closed)
	}
	os := objs(v.ok(v.send("GET", "/margin/order", full1, nil)))
	if len(os) != 1 || str(os[0], "price") != "65000" || os[0]["reduce_only"] != true || str(os[0], "side") != "sell" {
		t.Fatalf("limit close order %v", os)
	}
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.1", "65000")))
	if ps := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); len(ps) != 0 {
		t.Fatalf("positions %v", ps)
	}
	if a := v.send("DELETE", "/margin/position/isolated/DOGEUSDT", full1, nil); a.errCode() != 2001 {
		t.Fatalf("unknown symbol %s", a.raw)
	}
	if a := v.send("DELETE", "/margin/position/isolated/ETHUSDT", full1, nil); a.errCode() != 10001 {
		t.Fatalf("no account %s", a.raw)
	}
	if ps := objs(v.ok(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, nil))); len(ps) != 0 {
		t.Fatalf("nothing to close %v", ps)
	}
	v.check()
}

func TestMarginHistory(t *testing.T) {
	v := newTradingEnv(t)
	openLong(v)
	v.ok(v.send("POST", "/spot/order", full1, lim("ETHBTC", "buy", "1", "0.01", "client_order_id", "spot-order-1")))
	hs := objs(v.ok(v.send("GET", "/margin/history/order", full1, nil)))
	if len(hs) != 1 || str(hs[0], "client_order_id") != "long-open-1" || hs[0]["position_id"] == nil || str(hs[0], "margin_mode") != "isolated" {
		t.Fatalf("margin history %v", hs)
	}
	if hs := objs(v.ok(v.send("GET", "/spot/history/order", full1, nil))); len(hs) != 1 || str(hs[0], "client_order_id") != "spot-order-1" {
		t.Fatalf("spot history %v", hs)
	}
	for _, q := range []params{{"limit": "1001"}, {"offset": "100001"}, {"limit": "0"}, {"sort": "up"}, {"by": "name"}} {
		if a := v.send("GET", "/margin/history/order", full1, q); a.errCode() != 10001 {
			t.Errorf("%v: %s", q, a.raw)
		}
		if a := v.send("GET", "/margin/history/trade", full1, q); a.errCode() != 10001 {
			t.Errorf("trade %v: %s", q, a.raw)
		}
	}
	v.ok(v.send("GET", "/margin/history/order", full1, params{"limit": "1000", "offset": "100000"}))
	trades := objs(v.ok(v.send("GET", "/margin/history/trade", full1, nil)))
	if len(trades) != 1 {
		t.Fatalf("trades %v", trades)
	}
	tr := trades[0]
	for _, k := range []string{"id", "order_id", "client_order_id", "symbol", "side", "quantity", "price", "fee", "timestamp"} {
		if _, ok := tr[k].(string); !ok {
			t.Errorf("trade %s = %#v", k, tr[k])
		}
	}
	if tr["taker"] != true || tr["position_id"] == nil {
		t.Errorf("trade %v", tr)
	}
	for _, tc := range []struct {
		q    params
		want int
	}{
		{params{"order_id": str(tr, "order_id")}, 1},
		{params{"order_id": "999999"}, 0},
		{params{"symbol": "ETHBTC,BTCUSDT"}, 1},
		{params{"symbol": "ETHBTC"}, 0},
		{params{"from": str(tr, "id")}, 1},
		{params{"till": "0"}, 0},
		{params{"by": "timestamp", "from": "2000-01-01T00:00:00Z", "till": "2100-01-01"}, 1},
		{params{"by": "timestamp", "till": "2000-01-01T00:00:00Z"}, 0},
		{params{"offset": "1"}, 0},
	} {
		if n := len(v.ok(v.send("GET", "/margin/history/trade", full1, tc.q)).arr()); n != tc.want {
			t.Errorf("%v: %d trades, want %d", tc.q, n, tc.want)
		}
	}
}

func TestMarginRights(t *testing.T) {
	v := newTradingEnv(t)
	for _, tc := range []struct {
		method, path, key string
	}{
		{"GET", "/margin/account", tradeKey},
		{"GET", "/margin/account/isolated/BTCUSDT", tradeKey},
		{"GET", "/margin/order", tradeKey},
		{"GET", "/margin/config", tradeKey},
		{"GET", "/margin/history/order", tradeKey},
		{"GET", "/margin/history/trade", tradeKey},
		{"PUT", "/margin/account/isolated/BTCUSDT", readOnly},
		{"POST", "/margin/order", readOnly},
		{"POST", "/margin/order/list", readOnly},
		{"POST", "/spot/order/list", readOnly},
		{"PATCH", "/margin/order/x", readOnly},
		{"DELETE", "/margin/order", readOnly},
		{"DELETE", "/margin/position", readOnly},
		{"DELETE", "/margin/position/isolated/BTCUSDT", readOnly},
	} {
		a := v.send(tc.method, tc.path, tc.key, params{"margin_balance": "1"})
		if a.status != http.StatusForbidden || a.errCode() != 1003 {
			t.Errorf("%s %s with %s: %d %s", tc.method, tc.path, tc.key, a.status, a.raw)
		}
	}
	// The right key is let through.
	if a := v.send("GET", "/margin/account", readOnly, nil); a.status != 200 {
		t.Errorf("read-only GET: %s", a.raw)
	}
	if a := v.send("PUT", "/margin/account/isolated/BTCUSDT", tradeKey, params{"margin_balance": "1"}); a.status != 200 {
		t.Errorf("trade-only PUT: %s", a.raw)
	}
}

func TestMarginList(t *testing.T) {
	v := newTradingEnv(t)
	v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "2000"}))
	// OTO: open a long, then close it with a close_position secondary
	// sized when the primary fills.
	os := objs(v.ok(v.send("POST", "/margin/order/list", full1, list("oneTriggerOther",
		lim("BTCUSDT", "buy", "0.1", "60000"),
		params{"symbol": "BTCUSDT", "side": "sell", "type": "limit", "price": "62000", "close_position": true}))))
	if len(os) != 2 || os[1]["inactive"] != true || str(os[1], "margin_mode") != "isolated" || str(os[0], "contingency_type") != "oneTriggerOther" {
		t.Fatalf("list %v", os)
	}
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.1", "60000")))
	h := v.history(full1, "/margin/history/order", str(os[1], "client_order_id"))
	if str(h, "status") != "new" || str(h, "quantity") != "0.1" || h["inactive"] != nil {
		t.Fatalf("activated close %v", h)
	}
	v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.1", "62000")))
	if ps := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj()); len(ps) != 0 {
		t.Fatalf("positions %v", ps)
	}
	// Funds for the whole list: refused at once, nothing held.
	before := v.snapshot(full1)
	a := v.send("POST", "/margin/order/list", full1, list("oneCancelOther", lim("BTCUSDT", "buy", "0.2", "50000"), lim("BTCUSDT", "buy", "0.25", "50000")))
	if a.errCode() != 20001 || v.snapshot(full1) != before {
		t.Fatalf("list beyond margin: %s", a.raw)
	}
	v.check()
}

// TestMarginSpotShareBook: a margin order and a spot order meet in the one
// book of their symbol, either way round.
func TestMarginSpotShareBook(t *testing.T) {
	v := newTradingEnv(t)
	v.ok(v.send("PUT", "/margin/account/isolated/ETHBTC", full1, params{"margin_balance": "0.5"}))
	v.ok(v.send("POST", "/margin/order", full1, lim("ETHBTC", "sell", "2", "0.05")))
	o := v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "2", "0.05"))).obj()
	if str(o, "status") != "filled" {
		t.Fatalf("spot taker %v", o)
	}
	ps := positions(v.ok(v.send("GET", "/margin/account/isolated/ETHBTC", full1, nil)).obj())
	if len(ps) != 1 || str(ps[0], "quantity") != "-2" {
		t.Fatalf("positions %v", ps)
	}
	var syms []string
	for _, p := range ps {
		syms = append(syms, str(p, "symbol"))
	}
	if !slices.Equal(syms, []string{"ETHBTC"}) || !strings.HasPrefix(str(ps[0], "price_entry"), "0.05") {
		t.Fatalf("positions %v", ps)
	}
	v.check()
}
