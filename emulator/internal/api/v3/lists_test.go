package v3

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Valid list orders on ETHBTC for account 01 (BTC 2.5, ETH 40).
var (
	takeProfit = lim("ETHBTC", "sell", "1", "0.06")
	stopLoss   = lim("ETHBTC", "sell", "1", "0.039", "type", "stopLimit", "stop_price", "0.04")
	buyPrimary = lim("ETHBTC", "buy", "1", "0.05")
)

func with(p params, kv ...any) params {
	out := params{}
	for k, x := range p {
		out[k] = x
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// TestListRefusals: every refused list answers its code and leaves the
// account exactly as it was (V3-LIST-ATOMIC).
func TestListRefusals(t *testing.T) {
	aonBuy := lim("ETHBTC", "buy", "1", "0.05", "time_in_force", "FOK")
	aonBuy2 := lim("BTCUSDT", "buy", "0.01", "60000", "time_in_force", "FOK")
	cases := []struct {
		name   string
		path   string
		body   params
		code   int
		status int
	}{
		{"count 1", "/spot/order/list", list("oneCancelOther", takeProfit), 10001, 400},
		{"count 4", "/spot/order/list", list("oneTriggerOther", buyPrimary, takeProfit, takeProfit, takeProfit), 10001, 400},
		{"OTOCO of 2", "/spot/order/list", list("oneTriggerOneCancelOther", buyPrimary, takeProfit), 10001, 400},
		{"no orders", "/spot/order/list", params{"contingency_type": "oneCancelOther", "orders": []any{}}, 10001, 400},
		{"unknown contingency", "/spot/order/list", list("oneCancelsOther", takeProfit, stopLoss), 10001, 400},
		{"missing contingency", "/spot/order/list", params{"orders": []any{takeProfit, stopLoss}}, 10001, 400},
		{"allOrNone on margin", "/margin/order/list", list("allOrNone", aonBuy, aonBuy2), 10001, 400},
		{"AON repeated symbol", "/spot/order/list", list("allOrNone", aonBuy, with(aonBuy, "price", "0.049")), 10001, 400},
		{"AON stopLimit", "/spot/order/list", list("allOrNone", aonBuy, with(aonBuy2, "type", "stopLimit", "stop_price", "60000")), 10001, 400},
		{"AON GTC", "/spot/order/list", list("allOrNone", aonBuy, with(aonBuy2, "time_in_force", "GTC")), 10001, 400},
		{"AON without time_in_force", "/spot/order/list", list("allOrNone", aonBuy, with(aonBuy2, "time_in_force", nil)), 10001, 400},
		{"OCO market", "/spot/order/list", list("oneCancelOther", takeProfit, lim("ETHBTC", "sell", "1", "", "type", "market", "price", nil)), 10001, 400},
		{"OCO limit IOC", "/spot/order/list", list("oneCancelOther", with(takeProfit, "time_in_force", "IOC"), stopLoss), 10001, 400},
		{"OCO limit FOK", "/spot/order/list", list("oneCancelOther", with(takeProfit, "time_in_force", "FOK"), stopLoss), 10001, 400},
		{"OTOCO mixed symbols", "/spot/order/list", list("oneTriggerOneCancelOther", buyPrimary, takeProfit, lim("BTCUSDT", "sell", "0.01", "70000")), 10001, 400},
		{"OTOCO market secondary", "/spot/order/list", list("oneTriggerOneCancelOther", buyPrimary, takeProfit, lim("ETHBTC", "sell", "1", "", "type", "market", "price", nil)), 10001, 400},
		{"repeated client_order_id", "/spot/order/list", list("oneCancelOther", with(takeProfit, "client_order_id", "same-id-01"), with(stopLoss, "client_order_id", "same-id-01")), 10001, 400},
		{"order_list_id differs", "/spot/order/list", with(list("oneCancelOther", with(takeProfit, "client_order_id", "first-id-01"), stopLoss), "order_list_id", "other-id-01"), 10001, 400},
		{"limit without price", "/spot/order/list", list("oneCancelOther", with(takeProfit, "price", nil), stopLoss), 10001, 400},
		{"stopLimit without stop_price", "/spot/order/list", list("oneCancelOther", takeProfit, with(stopLoss, "stop_price", nil)), 10001, 400},
		{"GTD without expire_time", "/spot/order/list", list("oneCancelOther", with(takeProfit, "time_in_force", "GTD"), stopLoss), 10001, 400},
		{"unknown symbol in the second order", "/spot/order/list", list("oneCancelOther", takeProfit, with(stopLoss, "symbol", "DOGEBTC")), 2001, 400},
		{"funds short in the last order", "/spot/order/list", list("oneTriggerOther", buyPrimary, takeProfit, with(takeProfit, "quantity", "39.5")), 20001, 400},
		{"margin order without account", "/margin/order/list", list("oneCancelOther", takeProfit, stopLoss), 20001, 400},
	}
	v := newTradingEnv(t)
	// A resting order of the counterparty, so that a list could trade.
	v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "2", "0.05")))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := v.snapshot(full1)
			a := v.send("POST", tc.path, full1, tc.body)
			if a.status != tc.status || a.errCode() != tc.code {
				t.Fatalf("got %d %s, want %d code %d", a.status, a.raw, tc.status, tc.code)
			}
			if after := v.snapshot(full1); after != before {
				t.Fatalf("a refused list changed the account:\nbefore %s\nafter  %s", before, after)
			}
			v.check()
		})
	}
}

// TestListAccepted: the valid shapes of each contingency type.
func TestListAccepted(t *testing.T) {
	cases := []struct {
		name string
		body params
	}{
		{"OCO of 2", list("oneCancelOther", takeProfit, stopLoss)},
		{"OCO of 3", list("oneCancelOther", takeProfit, stopLoss, with(stopLoss, "type", "stopMarket", "price", nil))},
		{"OCO stopLimit IOC", list("oneCancelOther", takeProfit, with(stopLoss, "time_in_force", "IOC"))},
		{"OCO takeProfit kinds, Day and GTD", list("oneCancelOther",
			lim("ETHBTC", "sell", "1", "0.07", "type", "takeProfitLimit", "stop_price", "0.065", "time_in_force", "Day"),
			lim("ETHBTC", "sell", "1", "", "price", nil, "type", "takeProfitMarket", "stop_price", "0.066", "time_in_force", "GTD", "expire_time", "2030-01-01T00:00:00Z"))},
		{"OCO on two symbols", list("oneCancelOther", takeProfit, lim("BTCUSDT", "sell", "0.01", "70000"))},
		{"OTO of 2 with a market secondary", list("oneTriggerOther", buyPrimary, lim("ETHBTC", "sell", "1", "", "price", nil, "type", "market"))},
		{"OTO on two symbols", list("oneTriggerOther", buyPrimary, lim("BTCUSDT", "sell", "0.01", "70000"), takeProfit)},
		{"OTOCO market primary", list("oneTriggerOneCancelOther", lim("ETHBTC", "buy", "1", "", "price", nil, "type", "market"), takeProfit, stopLoss)},
		{"OTOCO limit IOC primary", list("oneTriggerOneCancelOther", with(buyPrimary, "time_in_force", "IOC"), takeProfit, stopLoss)},
		{"type defaults to limit", list("oneCancelOther", with(takeProfit, "type", nil), stopLoss)},
		{"numbers as JSON numbers", list("oneCancelOther", with(takeProfit, "quantity", 1, "price", 0.06), stopLoss)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newTradingEnv(t)
			a := v.ok(v.send("POST", "/spot/order/list", full1, tc.body))
			os := objs(a)
			if len(os) != len(tc.body["orders"].([]any)) {
				t.Fatalf("%d orders: %s", len(os), a.raw)
			}
			for i, o := range os {
				if str(o, "order_list_id") != str(os[0], "client_order_id") || str(o, "contingency_type") != tc.body["contingency_type"] {
					t.Errorf("order %d: %s", i, a.raw)
				}
				if _, has := o["trades"]; has {
					t.Errorf("order %d carries trades", i)
				}
				if str(o, "type") == "" {
					t.Errorf("order %d has no type", i)
				}
			}
			if tc.name == "type defaults to limit" && str(os[0], "type") != "limit" {
				t.Errorf("default type %s", os[0]["type"])
			}
			v.check()
		})
	}
}

// TestListID: order_list_id is the first order's client_order_id, given
// either way or generated.
func TestListID(t *testing.T) {
	v := newTradingEnv(t)
	os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))
	if id := str(os[0], "order_list_id"); len(id) != 32 || id != str(os[0], "client_order_id") || str(os[1], "order_list_id") != id {
		t.Fatalf("generated: %v", os)
	}
	os = objs(v.ok(v.send("POST", "/spot/order/list", full1, with(list("oneCancelOther", takeProfit, stopLoss), "order_list_id", "my-list-0001"))))
	if str(os[0], "client_order_id") != "my-list-0001" || str(os[1], "order_list_id") != "my-list-0001" {
		t.Fatalf("given order_list_id: %v", os)
	}
	os = objs(v.ok(v.send("POST", "/spot/order/list", full1, with(list("oneCancelOther", with(takeProfit, "client_order_id", "my-list-0002"), stopLoss), "order_list_id", "my-list-0002"))))
	if str(os[0], "order_list_id") != "my-list-0002" {
		t.Fatalf("both given: %v", os)
	}
}

// history answers the account's order history record of cloid.
func (v *tradingEnv) history(key, path, cloid string) map[string]any {
	v.t.Helper()
	hs := objs(v.ok(v.send("GET", path, key, params{"client_order_id": cloid})))
	if len(hs) == 0 {
		v.t.Fatalf("no history for %s", cloid)
	}
	return hs[0]
}

func (v *tradingEnv) statuses(key, path string, os []map[string]any) string {
	v.t.Helper()
	var out []string
	for _, o := range os {
		h := v.history(key, path, str(o, "client_order_id"))
		s := str(h, "status")
		if h["inactive"] == true {
			s += "(inactive)"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestListTransitions(t *testing.T) {
	const hist = "/spot/history/order"
	t.Run("AON fills every order in one step", func(t *testing.T) {
		v := newTradingEnv(t)
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.01", "60000")))
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("allOrNone",
			lim("ETHBTC", "buy", "1", "0.05", "time_in_force", "FOK"), lim("BTCUSDT", "buy", "0.01", "60000", "time_in_force", "FOK")))))
		if got := v.statuses(full1, hist, os); got != "filled filled" {
			t.Fatalf("statuses %s", got)
		}
		if str(os[0], "status") != "filled" || str(os[1], "updated_at") != str(os[0], "updated_at") {
			t.Fatalf("answer %v", os)
		}
		v.check()
	})
	t.Run("AON expires every order when one cannot fill", func(t *testing.T) {
		v := newTradingEnv(t)
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.005", "60000")))
		before := v.balance(full1, "BTC")
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("allOrNone",
			lim("ETHBTC", "buy", "1", "0.05", "time_in_force", "FOK"), lim("BTCUSDT", "buy", "0.01", "60000", "time_in_force", "FOK")))))
		if got := v.statuses(full1, hist, os); got != "expired expired" {
			t.Fatalf("statuses %s", got)
		}
		if after := v.balance(full1, "BTC"); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("balance %v -> %v", before, after)
		}
		if n := len(v.ok(v.send("GET", "/spot/order", full2, nil)).arr()); n != 2 {
			t.Fatalf("counterparty has %d orders left, want 2", n)
		}
		v.check()
	})
	t.Run("OCO cancels the others on the first execution", func(t *testing.T) {
		v := newTradingEnv(t)
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))
		if got := v.statuses(full1, hist, os); got != "new suspended" {
			t.Fatalf("at creation %s", got)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "0.4", "0.06")))
		if got := v.statuses(full1, hist, os); got != "partiallyFilled canceled" {
			t.Fatalf("after a partial fill %s", got)
		}
		v.check()
	})
	t.Run("OCO canceled by the triggered stop", func(t *testing.T) {
		v := newTradingEnv(t)
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneCancelOther", takeProfit, stopLoss))))
		// The price falls to 0.04: a trade there fires the stop, which sells
		// into the bid at 0.039.
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "2", "0.039")))
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "0.1", "0.04")))
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "0.1", "0.04")))
		if got := v.statuses(full1, hist, os); got != "canceled filled" {
			t.Fatalf("statuses %s", got)
		}
		v.check()
	})
	t.Run("OTO activates the secondaries independently when the primary fills", func(t *testing.T) {
		v := newTradingEnv(t)
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOther",
			buyPrimary, lim("ETHBTC", "sell", "1", "0.07"), lim("ETHBTC", "sell", "0.5", "0.08")))))
		if got := v.statuses(full1, hist, os); got != "new new(inactive) new(inactive)" {
			t.Fatalf("at creation %s", got)
		}
		// An inactive secondary is not in the book.
		if o := v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "1", "0.07", "time_in_force", "IOC"))).obj(); str(o, "status") != "expired" {
			t.Fatalf("an inactive secondary traded: %v", o)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "0.6", "0.05")))
		if got := v.statuses(full1, hist, os); got != "partiallyFilled new(inactive) new(inactive)" {
			t.Fatalf("after a partial fill of the primary %s", got)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "0.4", "0.05")))
		if got := v.statuses(full1, hist, os); got != "filled new new" {
			t.Fatalf("after the primary filled %s", got)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "1", "0.07")))
		if got := v.statuses(full1, hist, os); got != "filled filled new" {
			t.Fatalf("after one secondary filled %s", got)
		}
		v.check()
	})
	t.Run("OTO primary canceled cancels the waiting secondaries", func(t *testing.T) {
		v := newTradingEnv(t)
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOther", buyPrimary, takeProfit))))
		v.ok(v.send("DELETE", "/spot/order/"+str(os[0], "client_order_id"), full1, nil))
		if got := v.statuses(full1, hist, os); got != "canceled canceled" {
			t.Fatalf("statuses %s", got)
		}
		v.check()
	})
	t.Run("OTOCO secondaries start inactive and activate as an OCO pair", func(t *testing.T) {
		v := newTradingEnv(t)
		a := v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOneCancelOther",
			buyPrimary, lim("ETHBTC", "sell", "1", "0.07"), lim("ETHBTC", "sell", "1", "0.044", "type", "stopLimit", "stop_price", "0.045"))))
		os := objs(a)
		if os[0]["inactive"] != nil || os[1]["inactive"] != true || os[2]["inactive"] != true {
			t.Fatalf("inactive flags: %s", a.raw)
		}
		got := objs(v.ok(v.send("GET", "/spot/order", full1, nil)))
		if len(got) != 3 || got[1]["inactive"] != true || str(got[2], "contingency_type") != "oneTriggerOneCancelOther" {
			t.Fatalf("GET /spot/order: %v", got)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		if got := v.statuses(full1, hist, os); got != "filled new suspended" {
			t.Fatalf("after the primary filled %s", got)
		}
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "buy", "0.3", "0.07")))
		if got := v.statuses(full1, hist, os); got != "filled partiallyFilled canceled" {
			t.Fatalf("after a secondary executed %s", got)
		}
		v.check()
	})
	t.Run("OTOCO primary filling at once activates the pair in the answer", func(t *testing.T) {
		v := newTradingEnv(t)
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "1", "0.05")))
		os := objs(v.ok(v.send("POST", "/spot/order/list", full1, list("oneTriggerOneCancelOther",
			lim("ETHBTC", "buy", "1", "", "price", nil, "type", "market"), takeProfit, stopLoss))))
		if str(os[0], "status") != "filled" || os[1]["inactive"] != nil || str(os[1], "status") != "new" || str(os[2], "status") != "suspended" {
			t.Fatalf("answer %v", os)
		}
		v.check()
	})
}

// TestListOrdersElsewhere: list orders carry their list fields on every
// spot order endpoint and in history.
func TestListOrdersElsewhere(t *testing.T) {
	v := newTradingEnv(t)
	os := objs(v.ok(v.send("POST", "/spot/order/list", full1, with(list("oneTriggerOther", buyPrimary, takeProfit), "order_list_id", "list-fields-1"))))
	second := str(os[1], "client_order_id")
	for _, a := range []answer{
		v.ok(v.send("GET", "/spot/order/"+second, full1, nil)),
		v.ok(v.send("GET", "/spot/history/order", full1, params{"client_order_id": second})),
		v.ok(v.send("PATCH", "/spot/order/"+second, full1, params{"quantity": "0.9", "price": "0.061", "new_client_order_id": "list-fields-2"})),
		v.ok(v.send("DELETE", "/spot/order/list-fields-2", full1, nil)),
	} {
		o := a.obj()
		if o == nil {
			o = objs(a)[0]
		}
		if str(o, "order_list_id") != "list-fields-1" || str(o, "contingency_type") != "oneTriggerOther" {
			t.Errorf("%s", a.raw)
		}
	}
	// A single order has none of them.
	o := v.ok(v.send("POST", "/spot/order", full1, lim("ETHBTC", "buy", "1", "0.01"))).obj()
	for _, k := range []string{"order_list_id", "contingency_type", "inactive", "reduce_only", "margin_mode"} {
		if _, has := o[k]; has {
			t.Errorf("single order carries %s", k)
		}
	}
	v.check()
}

// TestListBodies: bodies that are not a JSON list are 10001, never 500.
func TestListBodies(t *testing.T) {
	v := newTradingEnv(t)
	good := `{"contingency_type":"oneCancelOther","orders":[{"symbol":"ETHBTC","side":"sell","quantity":"1","price":"0.06"},{"symbol":"ETHBTC","side":"sell","quantity":"1","price":"0.039","type":"stopLimit","stop_price":"0.04"}]}`
	cases := []struct {
		name, ctype, body string
	}{
		{"not JSON", "application/json", `{"contingency_type":`},
		{"form body", "application/x-www-form-urlencoded", "contingency_type=oneCancelOther&orders=x"},
		{"text/plain JSON", "text/plain", good},
		{"JSON array at the top", "application/json", `[` + good + `]`},
		{"missing orders", "application/json", `{"contingency_type":"oneCancelOther"}`},
		{"orders a string", "application/json", `{"contingency_type":"oneCancelOther","orders":"[]"}`},
		{"orders an object", "application/json", `{"contingency_type":"oneCancelOther","orders":{"0":{}}}`},
		{"orders of numbers", "application/json", `{"contingency_type":"oneCancelOther","orders":[1,2]}`},
		{"orders of nulls", "application/json", `{"contingency_type":"oneCancelOther","orders":[null,null]}`},
		{"symbol a number", "application/json", strings.Replace(good, `"symbol":"ETHBTC"`, `"symbol":5`, 1)},
		{"quantity an object", "application/json", strings.Replace(good, `"quantity":"1"`, `"quantity":{}`, 1)},
		{"post_only a number", "application/json", strings.Replace(good, `"side":"sell"`, `"side":"sell","post_only":1`, 1)},
		{"expire_time a bool", "application/json", strings.Replace(good, `"side":"sell"`, `"side":"sell","expire_time":true`, 1)},
		{"quantity exponent", "application/json", strings.Replace(good, `"quantity":"1"`, `"quantity":1e2`, 1)},
		{"empty body", "application/json", ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := v.raw("POST", "/spot/order/list", full1, tc.ctype, []byte(tc.body), "")
			if a.status != http.StatusBadRequest || a.errCode() != 10001 {
				t.Fatalf("got %d %s", a.status, a.raw)
			}
		})
	}
	if a := v.raw("POST", "/spot/order/list", full1, "application/json", []byte(good), ""); a.status != 200 {
		t.Fatalf("the good body: %d %s", a.status, a.raw)
	}
	v.check()
}
