package v3

import (
	"net/http"
	"testing"

	"github.com/conform-harness/conform/emulator/internal/engine"
)

// wantErr asserts an error answer with its status and code.
func (v *tradingEnv) wantErr(a answer, status, code int) {
	v.t.Helper()
	if a.status != status || a.errCode() != code {
		v.t.Fatalf("want %d %d, got %d %s", status, code, a.status, a.raw)
	}
}

// futuresOrder is a futures limit order.
func futuresOrder(side, qty, price, mode, cloid string) params {
	return lim("BTCUSDT_PERP", side, qty, price, "margin_mode", mode, "client_order_id", cloid)
}

// TestFuturesFlow: the futures family in the real service's shapes, end to
// end over REST: funding the futures balance from spot, accounts with a
// leverage, orders crossing into positions, history, closing, funds kept.
func TestFuturesFlow(t *testing.T) {
	v := newTradingEnv(t)
	// Funding: spot -> derivatives.
	tr := v.ok(v.send("POST", "/wallet/transfer", full1, params{"currency": "USDT", "amount": "5000", "source": "spot", "destination": "derivatives"}))
	if ids := tr.arr(); len(ids) != 1 {
		t.Fatalf("transfer: %s", tr.raw)
	}
	v.ok(v.send("POST", "/wallet/transfer", full2, params{"currency": "USDT", "amount": "5000", "source": "spot", "destination": "derivatives"}))
	bal := objs(v.ok(v.send("GET", "/futures/balance", readOnly, nil)))
	if len(bal) != 1 || str(bal[0], "currency") != "USDT" || str(bal[0], "available") != "5000" || str(bal[0], "reserved") != "0" || str(bal[0], "reserved_margin") != "0" {
		t.Fatalf("futures balance: %v", bal)
	}
	one := v.ok(v.send("GET", "/futures/balance/USDT", readOnly, nil)).obj()
	if _, has := one["currency"]; has || str(one, "available") != "5000" {
		t.Fatalf("one futures balance: %v", one)
	}
	v.wantErr(v.send("GET", "/futures/balance/NOPE", readOnly, nil), http.StatusBadRequest, 2002)

	// Accounts: unknown contract 2001, a spot symbol 2001, leverage above the contract's 10001, too much 20001.
	v.wantErr(v.send("PUT", "/futures/account/isolated/NOPE_PERP", full1, params{"margin_balance": "100"}), http.StatusBadRequest, 2001)
	v.wantErr(v.send("PUT", "/futures/account/isolated/BTCUSDT", full1, params{"margin_balance": "100"}), http.StatusBadRequest, 2001)
	v.wantErr(v.send("PUT", "/futures/account/isolated/BTCUSDT_PERP", full1, params{"margin_balance": "100", "leverage": "101"}), http.StatusBadRequest, 10001)
	v.wantErr(v.send("PUT", "/futures/account/isolated/BTCUSDT_PERP", full1, params{"margin_balance": "6000", "leverage": "10"}), http.StatusBadRequest, 20001)
	// Not open yet: answered empty at the contract's leverage.
	empty := v.ok(v.send("GET", "/futures/account/isolated/BTCUSDT_PERP", readOnly, nil)).obj()
	if str(empty, "leverage") != "100" || str(currency0(empty), "margin_balance") != "0" {
		t.Fatalf("account not open: %v", empty)
	}
	acct := v.ok(v.send("PUT", "/futures/account/isolated/BTCUSDT_PERP", full1, params{"margin_balance": "1000", "leverage": "10"})).obj()
	if str(acct, "symbol") != "BTCUSDT_PERP" || str(acct, "type") != "isolated" || str(acct, "leverage") != "10" || acct["positions"] != nil ||
		str(currency0(acct), "code") != "USDT" || str(currency0(acct), "margin_balance") != "1000" {
		t.Fatalf("account: %v", acct)
	}
	v.ok(v.send("PUT", "/futures/account/cross/USDT", full2, params{"margin_balance": "2000"}))
	if b := v.ok(v.send("GET", "/futures/balance/USDT", full1, nil)).obj(); str(b, "available") != "4000" || str(b, "reserved_margin") != "1000" {
		t.Fatalf("futures balance after PUT: %v", b)
	}
	if b := v.balance(full1, "USDT"); str(b, "reserved_margin") != "0" {
		t.Fatalf("spot balance counts the futures account: %v", b)
	}

	// Orders: a futures order is not a spot or margin one.
	v.wantErr(v.send("POST", "/spot/order", full1, lim("BTCUSDT_PERP", "buy", "0.01", "60000")), http.StatusBadRequest, 2001)
	v.wantErr(v.send("POST", "/futures/order", full1, lim("BTCUSDT", "buy", "0.01", "60000")), http.StatusBadRequest, 2001)
	v.wantErr(v.send("POST", "/futures/order", full1, futuresOrder("buy", "1", "60000", "isolated", "fut-big-0001")), http.StatusBadRequest, 20001)
	v.wantErr(v.send("POST", "/futures/order", full1, futuresOrder("buy", "0.01", "60000", "diagonal", "fut-bad-0001")), http.StatusBadRequest, 10001)
	o := v.ok(v.send("POST", "/futures/order", full1, futuresOrder("buy", "0.1", "60000", "isolated", "fut-buy-0001"))).obj()
	if str(o, "status") != "new" || str(o, "symbol") != "BTCUSDT_PERP" || str(o, "margin_mode") != "isolated" || o["reduce_only"] != false {
		t.Fatalf("order: %v", o)
	}
	if got := objs(v.ok(v.send("GET", "/futures/order", readOnly, nil))); len(got) != 1 {
		t.Fatalf("active futures orders: %v", got)
	}
	if got := objs(v.ok(v.send("GET", "/margin/order", readOnly, nil))); len(got) != 0 {
		t.Fatalf("a futures order among margin orders: %v", got)
	}
	v.ok(v.send("GET", "/futures/order/fut-buy-0001", readOnly, nil))
	v.wantErr(v.send("GET", "/futures/order/fut-none-0001", readOnly, nil), http.StatusBadRequest, 20002)
	rep := v.ok(v.send("PATCH", "/futures/order/fut-buy-0001", full1, params{"new_client_order_id": "fut-buy-0002", "quantity": "0.1", "price": "60000"})).obj()
	if str(rep, "original_client_order_id") != "fut-buy-0001" {
		t.Fatalf("replaced: %v", rep)
	}
	fill := v.ok(v.send("POST", "/futures/order", full2, futuresOrder("sell", "0.1", "60000", "cross", "fut-sell-0001"))).obj()
	if str(fill, "status") != "filled" {
		t.Fatalf("taker: %v", fill)
	}
	v.check()
	accts := objs(v.ok(v.send("GET", "/futures/account", readOnly, nil)))
	if len(accts) != 1 || len(positions(accts[0])) != 1 {
		t.Fatalf("futures accounts: %v", accts)
	}
	p := positions(accts[0])[0]
	if str(p, "symbol") != "BTCUSDT_PERP" || str(p, "quantity") != "0.1" || str(p, "leverage") != "10" || str(p, "margin_mode") != "isolated" ||
		str(p, "price_entry") != "60000" {
		t.Fatalf("position: %v", p)
	}
	if c := currency0(accts[0]); str(c, "reserved_positions") != "600" {
		t.Fatalf("reserved_positions: %v", c)
	}
	cross := v.ok(v.send("GET", "/futures/account/cross/USDT", full2, nil)).obj()
	if str(positions(cross)[0], "quantity") != "-0.1" {
		t.Fatalf("cross account: %v", cross)
	}
	if got := objs(v.ok(v.send("GET", "/margin/account", readOnly, nil))); len(got) != 0 {
		t.Fatalf("futures accounts among margin accounts: %v", got)
	}
	// History.
	hist := objs(v.ok(v.send("GET", "/futures/history/order", readOnly, nil)))
	if len(hist) != 2 {
		t.Fatalf("futures history: %v", hist)
	}
	trades := objs(v.ok(v.send("GET", "/futures/history/trade", readOnly, nil)))
	if len(trades) != 1 || str(trades[0], "symbol") != "BTCUSDT_PERP" || str(trades[0], "client_order_id") != "fut-buy-0002" {
		t.Fatalf("futures trades: %v", trades)
	}
	if got := objs(v.ok(v.send("GET", "/margin/history/trade", readOnly, nil))); len(got) != 0 {
		t.Fatalf("futures trades among margin trades: %v", got)
	}
	// Public info: last price and open interest.
	info := v.ok(v.send("GET", "/public/futures/info/BTCUSDT_PERP", "", nil)).obj()
	if str(info, "contract_type") != "perpetual" || str(info, "mark_price") != "60000" || str(info, "open_interest") != "0.1" {
		t.Fatalf("futures info: %v", info)
	}
	all := v.ok(v.send("GET", "/public/futures/info", "", nil)).obj()
	if _, ok := all["ETHUSDT_PERP"]; !ok {
		t.Fatalf("futures info list: %v", all)
	}
	v.wantErr(v.send("GET", "/public/futures/info/BTCUSDT", "", nil), http.StatusBadRequest, 2001)
	if h := v.ok(v.send("GET", "/public/futures/history/funding", "", params{"symbols": "BTCUSDT_PERP"})).obj(); len(h) != 1 {
		t.Fatalf("funding history: %v", h)
	}

	// Close at a limit, the counterparty takes it; then the accounts close.
	closed := v.ok(v.send("DELETE", "/futures/position/isolated/BTCUSDT_PERP", full1, params{"price": "61000"})).obj()
	if str(closed, "symbol") != "BTCUSDT_PERP" || str(closed, "quantity") != "0.1" {
		t.Fatalf("close: %v", closed)
	}
	v.ok(v.send("POST", "/futures/order", full2, futuresOrder("buy", "0.1", "61000", "cross", "fut-back-0001")))
	v.wantErr(v.send("DELETE", "/futures/position/isolated/BTCUSDT_PERP", full1, nil), http.StatusBadRequest, 10001)
	v.ok(v.send("PUT", "/futures/account/isolated/BTCUSDT_PERP", full1, params{"margin_balance": "0"}))
	v.ok(v.send("PUT", "/futures/account/cross/USDT", full2, params{"margin_balance": "0"}))
	if got := objs(v.ok(v.send("GET", "/futures/account", full1, nil))); len(got) != 0 {
		t.Fatalf("accounts after closing: %v", got)
	}
	v.check()
	// Back to spot.
	b := v.ok(v.send("GET", "/futures/balance/USDT", full1, nil)).obj()
	v.ok(v.send("POST", "/wallet/transfer", full1, params{"currency": "USDT", "amount": str(b, "available"), "source": "derivatives", "destination": "spot"}))
	v.wantErr(v.send("POST", "/wallet/transfer", full1, params{"currency": "USDT", "amount": "1", "source": "derivatives", "destination": "wallet"}), http.StatusBadRequest, 20001)
	v.check()
}

// TestFuturesReadsAndLists: config, fees, order lists, cancel all, rights.
func TestFuturesReadsAndLists(t *testing.T) {
	v := newTradingEnv(t)
	cfg, _ := v.ok(v.send("GET", "/futures/config", readOnly, nil)).obj()["config"].([]any)
	if len(cfg) == 0 {
		t.Fatal("no futures config")
	}
	for _, c := range cfg {
		m := c.(map[string]any)
		if s := str(m, "symbol"); s == "BTCUSDT" || s == "" {
			t.Fatalf("config record %v", m)
		}
	}
	fees := objs(v.ok(v.send("GET", "/futures/fee", readOnly, nil)))
	if len(fees) == 0 || str(fees[0], "take_rate") == "" {
		t.Fatalf("fees: %v", fees)
	}
	if f := v.ok(v.send("GET", "/futures/fee/BTCUSDT_PERP", readOnly, nil)).obj(); str(f, "take_rate") != "0.0007" || str(f, "make_rate") != "-0.0001" {
		t.Fatalf("fee: %v", f)
	}
	v.wantErr(v.send("GET", "/futures/fee/BTCUSDT", readOnly, nil), http.StatusBadRequest, 2001)
	v.wantErr(v.send("GET", "/futures/account", "emu-no-rights-01", nil), http.StatusForbidden, 1003)
	v.wantErr(v.send("POST", "/futures/order", readOnly, futuresOrder("buy", "0.01", "1000", "isolated", "fut-ro-00001")), http.StatusForbidden, 1003)

	v.fund(engine.FuturesBalanceKey(v.keys[full1].Account), "USDT", "10000")
	v.ok(v.send("PUT", "/futures/account/isolated/BTCUSDT_PERP", full1, params{"margin_balance": "1000"}))
	l := v.ok(v.send("POST", "/futures/order/list", full1, list("oneCancelOther",
		futuresOrder("buy", "0.01", "1000", "isolated", "fut-oco-0001"), futuresOrder("buy", "0.01", "1001", "isolated", "fut-oco-0002"))))
	if os := objs(l); len(os) != 2 || str(os[0], "contingency_type") != "oneCancelOther" || str(os[0], "margin_mode") != "isolated" {
		t.Fatalf("list: %s", l.raw)
	}
	v.ok(v.send("POST", "/futures/order", full1, futuresOrder("buy", "0.01", "1002", "isolated", "fut-one-0001")))
	if got := objs(v.ok(v.send("DELETE", "/futures/order", full1, nil))); len(got) != 3 {
		t.Fatalf("cancel all: %v", got)
	}
	v.wantErr(v.send("DELETE", "/futures/order/fut-one-0001", full1, nil), http.StatusBadRequest, 20002)
	v.check()
}
