package v3

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/rules"
)

// code is an answer's outcome: "200" or the error code.
func code(a answer) string {
	if a.status == 200 {
		return "200"
	}
	return strconv.Itoa(a.errCode())
}

// listMarginFaultCases shows, for every order-list and margin fault, one
// observation of its rule that differs with the fault on.
var listMarginFaultCases = []struct {
	fault   string
	run     func(v *tradingEnv) string
	off, on string
}{
	{"V3-LIST-ID", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, with(list("oneCancelOther", with(takeProfit, "client_order_id", "first-id-01"), stopLoss), "order_list_id", "other-id-01")))
	}, "10001", "200"},
	{"V3-LIST-CONTINGENCY", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("oneCancelsOther", takeProfit, stopLoss)))
	}, "10001", "200"},
	{"V3-LIST-COUNT", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit)))
	}, "10001", "200"},
	{"V3-LIST-CLOID-DISTINCT", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", with(takeProfit, "client_order_id", "same-id-01"), with(stopLoss, "client_order_id", "same-id-01"))))
	}, "10001", "200"},
	{"V3-LIST-AON-CONSTRAINTS", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("allOrNone", lim("ETHBTC", "buy", "1", "0.05", "time_in_force", "GTC"), lim("BTCUSDT", "buy", "0.01", "60000", "time_in_force", "FOK"))))
	}, "10001", "200"},
	{"V3-LIST-OCO-CONSTRAINTS", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", with(takeProfit, "time_in_force", "IOC"), stopLoss)))
	}, "10001", "200"},
	{"V3-LIST-OTOCO-CONSTRAINTS", func(v *tradingEnv) string {
		return code(v.send("POST", "/spot/order/list", full1, list("oneTriggerOneCancelOther", buyPrimary, takeProfit, lim("BTCUSDT", "sell", "0.01", "70000"))))
	}, "10001", "200"},
	{"V3-LIST-ORDER-RULES", func(v *tradingEnv) string {
		a := v.send("POST", "/spot/order/list", full1, list("oneCancelOther", with(takeProfit, "type", nil), stopLoss))
		if a.status != 200 {
			return code(a)
		}
		return str(objs(a)[0], "type")
	}, "limit", "10001"},
	{"V3-LIST-RESPONSE", func(v *tradingEnv) string {
		return str(objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))[1], "contingency_type")
	}, "oneCancelOther", ""},
	{"V3-LIST-MARGIN-FIELDS", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		a := v.ok(v.send("POST", "/margin/order/list", full1, list("oneCancelOther",
			lim("BTCUSDT", "buy", "0.01", "50000", "display_quantity", "0"), lim("BTCUSDT", "buy", "0.01", "49000", "display_quantity", "0"))))
		return fmt.Sprint(objs(a)[0]["display_quantity"])
	}, "0", "<nil>"},
	{"V3-LIST-ATOMIC", func(v *tradingEnv) string {
		a := v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, with(stopLoss, "symbol", "DOGEBTC")))
		return fmt.Sprint(code(a), " ", len(v.ok(v.send("GET", "/spot/order", full1, nil)).arr()))
	}, "2001 0", "2001 1"},
	{"V3-LIST-AON", func(v *tradingEnv) string {
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.005", "60000")))
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("allOrNone",
			lim("ETHBTC", "buy", "1", "0.05", "time_in_force", "FOK"), lim("BTCUSDT", "buy", "0.01", "60000", "time_in_force", "FOK")))))
		return v.statuses(full1, "/spot/history/order", os)
	}, "expired expired", "filled expired"},
	{"V3-LIST-OCO", func(v *tradingEnv) string {
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "0.4", "0.06")))
		return v.statuses(full1, "/spot/history/order", os)
	}, "partiallyFilled canceled", "partiallyFilled suspended"},
	{"V3-LIST-OTO", func(v *tradingEnv) string {
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOther", buyPrimary, takeProfit))))
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		return v.statuses(full1, "/spot/history/order", os)
	}, "filled new", "filled new(inactive)"},
	{"V3-LIST-OTOCO", func(v *tradingEnv) string {
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOneCancelOther", buyPrimary, takeProfit, stopLoss))))
		return fmt.Sprint(os[1]["inactive"], os[2]["inactive"])
	}, "true true", "<nil> <nil>"},
	{"V3-MARGIN-ACCOUNT-FIELDS", func(v *tradingEnv) string {
		_, has := currency0(v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"})).obj())["reserved_positions"]
		return fmt.Sprint(has)
	}, "true", "false"},
	{"V3-MARGIN-SPOT-SEPARATE", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")))
		v.ok(v.send("POST", "/spot/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")))
		listed := len(v.ok(v.send("GET", "/margin/order", full1, nil)).arr())
		canceled := len(v.ok(v.send("DELETE", "/margin/order", full1, params{"symbol": "BTCUSDT"})).arr())
		return fmt.Sprint(listed, canceled, len(v.ok(v.send("GET", "/spot/order", full1, nil)).arr()))
	}, "1 1 1", "2 2 0"},
	{"V3-MARGIN-ACCOUNT-TIMES", func(v *tradingEnv) string {
		a := v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"})).obj()
		return fmt.Sprint(str(a, "created_at") <= str(a, "updated_at"))
	}, "true", "false"},
	{"V3-MARGIN-HISTORY-SEPARATE", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")))
		v.ok(v.send("POST", "/spot/order", full1, lim("BTCUSDT", "buy", "0.01", "50000", "client_order_id", "spot-order-1")))
		return fmt.Sprint(len(v.ok(v.send("GET", "/margin/history/order", full1, params{"client_order_id": "spot-order-1"})).arr()))
	}, "0", "1"},
	{"V3-MARGIN-ACCOUNTS", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		return fmt.Sprint(len(v.ok(v.send("GET", "/margin/account", full1, nil)).arr()))
	}, "1", "0"},
	{"V3-MARGIN-PUT", func(v *tradingEnv) string {
		return str(currency0(v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"})).obj()), "margin_balance")
	}, "1000", "0"},
	{"V3-MARGIN-CLOSE", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "0"}))
		return str(v.balance(full1, "USDT"), "available")
	}, "100000", "99000"},
	{"V3-MARGIN-PUT-FUNDS", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		return code(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "200000"}))
	}, "20001", "10001"},
	{"V3-MARGIN-PUT-STRICT", func(v *tradingEnv) string {
		return code(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1e2", "strict_validate": true}))
	}, "10001", "200"},
	{"V3-MARGIN-SPOT-RESERVED", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		v.ok(v.send("PUT", "/margin/account/cross/USDT", full1, params{"margin_balance": "300"}))
		b := v.balance(full1, "USDT")
		return str(b, "reserved_margin") + " " + str(b, "cross_margin_reserved")
	}, "1000 300", "0 0"},
	{"V3-MARGIN-ORDER-NEEDS-ACCOUNT", func(v *tradingEnv) string {
		return code(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000")))
	}, "20001", "200"},
	{"V3-MARGIN-ORDER-MODE", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		a := v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000"))
		return code(a) + " " + str(a.obj(), "margin_mode")
	}, "200 isolated", "20001 "},
	{"V3-MARGIN-ORDERS", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		o := v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000"))).obj()
		return fmt.Sprint(o["reduce_only"], " ", o["margin_mode"])
	}, "false isolated", "<nil> <nil>"},
	{"V3-MARGIN-REPLACE-STRICT", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		v.ok(v.send("POST", "/margin/order", full1, lim("BTCUSDT", "buy", "0.01", "50000", "client_order_id", "margin-strict-01")))
		return code(v.send("PATCH", "/margin/order/margin-strict-01", full1, params{"quantity": "0.01", "price": "50000.005", "strict_validate": true}))
	}, "10001", "200"},
	{"V3-MARGIN-CLOSE-POSITION", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		return code(v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "sell", "type": "market", "quantity": "0.1", "close_position": true}))
	}, "10001", "200"},
	// The position is closed at market into a bid of 0.2 at 58000; that
	// trade fires the close_position stop at 59000, which finds no position
	// and is canceled (with the fault it sells 0.1 into the rest of the bid).
	{"V3-MARGIN-CLOSE-POSITION-CANCELED", func(v *tradingEnv) string {
		openLong(v)
		v.ok(v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "sell", "type": "stopMarket", "stop_price": "59000", "close_position": true, "client_order_id": "close-gone-01"}))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.2", "58000")))
		v.ok(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, nil))
		h := v.history(full1, "/margin/history/order", "close-gone-01")
		return fmt.Sprintf("%s %d", str(h, "status"), len(positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj())))
	}, "canceled 0", "filled 1"},
	{"V3-MARGIN-POSITION-FIELDS", func(v *tradingEnv) string {
		openLong(v)
		_, has := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj())[0]["price_liquidation"]
		return fmt.Sprint(has)
	}, "true", "false"},
	{"V3-MARGIN-POSITION-TIMES", func(v *tradingEnv) string {
		openLong(v)
		p := positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj())[0]
		return fmt.Sprint(str(p, "created_at") <= str(p, "updated_at"))
	}, "true", "false"},
	{"V3-MARGIN-POSITION-CLOSE", func(v *tradingEnv) string {
		openLong(v)
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.1", "61000")))
		v.ok(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, nil))
		return fmt.Sprint(len(positions(v.ok(v.send("GET", "/margin/account/isolated/BTCUSDT", full1, nil)).obj())))
	}, "0", "1"},
	{"V3-MARGIN-POSITION-CLOSE-STRICT", func(v *tradingEnv) string {
		openLong(v)
		return code(v.send("DELETE", "/margin/position/isolated/BTCUSDT", full1, params{"price": "70000.005", "strict_validate": true}))
	}, "10001", "200"},
	{"V3-MARGIN-CONFIG", func(v *tradingEnv) string {
		recs := v.ok(v.send("GET", "/margin/config", full1, nil)).obj()["config"].([]any)
		_, has := recs[0].(map[string]any)["active"]
		return fmt.Sprint(has)
	}, "true", "false"},
	{"V3-MARGIN-HISTORY-ORDER", func(v *tradingEnv) string {
		return code(v.send("GET", "/margin/history/order", full1, params{"limit": "1001"}))
	}, "10001", "200"},
	{"V3-MARGIN-NOT-FOUND", func(v *tradingEnv) string {
		return code(v.send("GET", "/margin/order/no-such-order-01", full1, nil))
	}, "20002", "10001"},
	{"V3-MARGIN-REPLACE-UNKNOWN", func(v *tradingEnv) string {
		return code(v.send("PATCH", "/margin/order/no-such-order-01", full1, params{"quantity": "1", "price": "1"}))
	}, "20002", "200"},
	{"V3-MARGIN-ACCOUNT-REQUIRED", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		return code(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{}))
	}, "10001", "200"},
	{"V3-MARGIN-HISTORY-TRADE-PAGING", func(v *tradingEnv) string {
		openLong(v)
		return fmt.Sprint(len(objs(v.ok(v.send("GET", "/margin/history/trade", full1, params{"offset": "1"})))))
	}, "0", "1"},
	{"V3-MARGIN-ORDER-PARAMS", func(v *tradingEnv) string {
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "1000"}))
		return code(v.send("POST", "/margin/order", full1, params{"symbol": "BTCUSDT", "side": "buy", "type": "stop", "quantity": "0.001", "price": "100"}))
	}, "10001", "200"},
	{"V3-MARGIN-HISTORY-VALUES", func(v *tradingEnv) string {
		return code(v.send("GET", "/margin/history/order", full1, params{"sort": "SIDEWAYS"}))
	}, "10001", "200"},
	{"V3-HISTORY-LIST-FIELDS", func(v *tradingEnv) string {
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))
		return str(objs(v.ok(v.send("GET", "/spot/history/order", full1, params{"client_order_id": str(os[0], "client_order_id")})))[0], "contingency_type")
	}, "oneCancelOther", ""},
	{"V3-MARGIN-HISTORY-TRADE", func(v *tradingEnv) string {
		openLong(v)
		return fmt.Sprintf("%T", objs(v.ok(v.send("GET", "/margin/history/trade", full1, nil)))[0]["id"])
	}, "string", "float64"},
	{"V3-MARGIN-RIGHTS", func(v *tradingEnv) string {
		return code(v.send("PUT", "/margin/account/isolated/BTCUSDT", readOnly, params{"margin_balance": "1"}))
	}, "1003", "200"},
}

func TestListMarginFaults(t *testing.T) {
	for _, tc := range listMarginFaultCases {
		t.Run(tc.fault, func(t *testing.T) {
			for _, on := range []bool{false, true} {
				var ids []string
				want := tc.off
				if on {
					ids, want = []string{tc.fault}, tc.on
				}
				v := newTradingEnv(t, ids...)
				if got := tc.run(v); got != want {
					t.Errorf("fault on %v: got %q, want %q", on, got, want)
				}
				if !on {
					v.check()
				}
			}
		})
	}
}

// TestListMarginFaultCoverage ties the faults to the rule catalogue: every
// testable order-list and margin rule has exactly one fault with a case
// above, and no other rule of those areas has one.
func TestListMarginFaultCoverage(t *testing.T) {
	declared := map[string]bool{}
	for _, f := range faults.Catalogue() {
		if declared[f.Rule] {
			t.Errorf("%s declared twice", f.Rule)
		}
		declared[f.Rule] = true
	}
	cased := map[string]bool{}
	for _, tc := range listMarginFaultCases {
		if cased[tc.fault] {
			t.Errorf("%s cased twice", tc.fault)
		}
		cased[tc.fault] = true
	}
	for _, r := range rules.Default().All() {
		if r.Area != "orderlists" && r.Area != "margin" {
			continue
		}
		switch {
		case r.Status == rules.Testable && (!declared[r.ID] || !cased[r.ID]):
			t.Errorf("testable rule %s: fault declared %v, tested %v", r.ID, declared[r.ID], cased[r.ID])
		case r.Status != rules.Testable && declared[r.ID]:
			t.Errorf("%s rule %s has a fault", r.Status, r.ID)
		}
		delete(cased, r.ID)
	}
	for id := range cased {
		t.Errorf("fault case %s names no order-list or margin rule", id)
	}
}
