package v3

import (
	"encoding/json"
	"testing"
)

// FuzzLists sends arbitrary order-list bodies, spot and margin, with and
// without faults: whatever comes, the answer is valid JSON and never a
// 500, and the ledger stays sound (totals kept, nothing reserved below
// zero).
func FuzzLists(f *testing.F) {
	good := `{"contingency_type":"oneCancelOther","orders":[{"symbol":"ETHBTC","side":"sell","quantity":"1","price":"0.06"},{"symbol":"ETHBTC","side":"sell","quantity":"1","price":"0.039","type":"stopLimit","stop_price":"0.04"}]}`
	seeds := []string{
		good,
		`{"contingency_type":"allOrNone","orders":[{"symbol":"ETHBTC","side":"buy","quantity":"1","price":"0.05","time_in_force":"FOK"},{"symbol":"BTCUSDT","side":"buy","quantity":0.01,"type":"market","time_in_force":"FOK"}]}`,
		`{"order_list_id":"fuzz-list-01","contingency_type":"oneTriggerOneCancelOther","orders":[{"symbol":"BTCUSDT","side":"buy","quantity":"0.01","type":"market"},{"symbol":"BTCUSDT","side":"sell","quantity":"0.01","price":"70000"},{"symbol":"BTCUSDT","side":"sell","quantity":"0.01","type":"stopMarket","stop_price":"50000","close_position":true}]}`,
		`{"contingency_type":"oneTriggerOther","orders":[{"symbol":"ETHBTC","side":"buy","quantity":"1","price":"0.05","time_in_force":"GTD","expire_time":"2030-01-01T00:00:00Z"},{"symbol":"ETHBTC","side":"sell","quantity":"1","reduce_only":"true","margin_mode":"cross","price":"0.06"}]}`,
		`{"contingency_type":"oneCancelOther","orders":[null,{},[],1,"x",true]}`,
		`{"contingency_type":7,"orders":{"a":1}}`,
		`[]`, `null`, `{"orders":[{"quantity":{"x":1}}]}`, ``, `{"contingency_type":"oneCancelOther","orders":[{"symbol":"ETHBTC","side":"sell","quantity":"1e9999999999","price":"-0"}]}`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), i%2 == 0, i%3 == 0, uint8(i))
	}
	clean := newTradingEnv(f)
	broken := newTradingEnv(f, listMarginFaultIDs()...)
	for _, v := range []*tradingEnv{clean, broken} {
		v.ok(v.send("PUT", "/margin/account/isolated/ETHBTC", full1, params{"margin_balance": "1"}))
		v.ok(v.send("PUT", "/margin/account/isolated/BTCUSDT", full1, params{"margin_balance": "5000"}))
		v.ok(v.send("POST", "/spot/order", full2, lim("ETHBTC", "sell", "5", "0.05")))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "sell", "0.5", "60000")))
		v.ok(v.send("POST", "/spot/order", full2, lim("BTCUSDT", "buy", "0.5", "59000")))
	}
	ctypes := []string{"application/json", "", "application/x-www-form-urlencoded", "text/plain", "application/json; charset=utf-8"}
	f.Fuzz(func(t *testing.T, body []byte, margin, faulty bool, ct uint8) {
		v := clean
		if faulty {
			v = broken
		}
		v.t = t
		path := "/spot/order/list"
		if margin {
			path = "/margin/order/list"
		}
		a := v.raw("POST", path, full1, ctypes[int(ct)%len(ctypes)], body, "")
		if a.status >= 500 || !json.Valid(a.raw) {
			t.Fatalf("POST %s %q -> %d %s", path, body, a.status, a.raw)
		}
		if a.status == 200 {
			for _, o := range objs(a) {
				if _, has := o["trades"]; has {
					t.Fatalf("a list answer carries trades: %s", a.raw)
				}
			}
		}
		v.check()
	})
}

// listMarginFaultIDs lists every order-list and margin fault, to fuzz the
// emulator with all of them on at once.
func listMarginFaultIDs() []string {
	var ids []string
	for _, tc := range listMarginFaultCases {
		ids = append(ids, tc.fault)
	}
	return ids
}
