package engine

import (
	"testing"
)

// Stop and take-profit orders.

func TestStops(t *testing.T) {
	cases := []struct {
		name      string
		order     PlaceRequest
		tradeAt   string // price of a trade printed after the order
		triggered bool
		want      Status
	}{
		{"stopLimit buy below", lim("A", "ETHBTC", Buy, "1", "0.03", withStop(StopLimit, "0.025")), "0.024", false, Suspended},
		{"stopLimit buy at", lim("A", "ETHBTC", Buy, "1", "0.03", withStop(StopLimit, "0.025")), "0.025", true, Filled},
		{"stopLimit sell above", lim("A", "ETHBTC", Sell, "1", "0.01", withStop(StopLimit, "0.02")), "0.021", false, Suspended},
		{"stopLimit sell at", lim("A", "ETHBTC", Sell, "1", "0.01", withStop(StopLimit, "0.02")), "0.02", true, Filled},
		{"takeProfitLimit buy above", lim("A", "ETHBTC", Buy, "1", "0.03", withStop(TakeProfitLimit, "0.02")), "0.021", false, Suspended},
		{"takeProfitLimit buy at", lim("A", "ETHBTC", Buy, "1", "0.03", withStop(TakeProfitLimit, "0.02")), "0.02", true, Filled},
		{"takeProfitMarket sell below", lim("A", "ETHBTC", Sell, "1", "", withStop(TakeProfitMarket, "0.03")), "0.029", false, Suspended},
		{"takeProfitMarket sell at", lim("A", "ETHBTC", Sell, "1", "", withStop(TakeProfitMarket, "0.03")), "0.03", true, Filled},
		{"stopMarket buy at", lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.025")), "0.026", true, Filled},
		{"stopLimit buy triggered rests", lim("A", "ETHBTC", Buy, "1", "0.001", withStop(StopLimit, "0.025")), "0.025", true, StatusNew},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newEnv(t, Options{})
			v.fund("A", "BTC", "10")
			v.fund("A", "ETH", "10")
			v.fund("M", "BTC", "10")
			v.fund("M", "ETH", "10")
			c.order.ClientOrderID = sp("the-order")
			if o := v.place(c.order); o.Status != Suspended {
				t.Fatalf("created %s", o.Status)
			}
			// Liquidity both ways for the triggered order, away from the
			// trade price.
			v.place(lim("M", "ETHBTC", Sell, "5", "0.03"))
			v.place(lim("M", "ETHBTC", Buy, "5", "0.01"))
			// Print a trade at tradeAt between two other orders of M.
			v.place(lim("M", "ETHBTC", Sell, "0.1", c.tradeAt))
			v.place(lim("M", "ETHBTC", Buy, "0.1", c.tradeAt))
			if got := v.status("A", "the-order"); got != c.want {
				t.Fatalf("status %s, want %s", got, c.want)
			}
			v.check()
		})
	}
}

func TestStopCascade(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "10")
	v.fund("M", "BTC", "10")
	v.fund("M", "ETH", "10")
	// Bids at 0.019, 0.018, 0.017; sell stops at 0.02 and 0.019 that each
	// sell into the next bid, so the first trade sets off a chain.
	for _, p := range []string{"0.019", "0.018", "0.017"} {
		v.place(lim("M", "ETHBTC", Buy, "1", p))
	}
	v.place(lim("A", "ETHBTC", Sell, "1", "", withStop(StopMarket, "0.02"), withID("stop-0020")))
	v.place(lim("A", "ETHBTC", Sell, "1", "", withStop(StopMarket, "0.019"), withID("stop-0019")))
	v.place(lim("A", "ETHBTC", Sell, "1", "", withStop(StopMarket, "0.015"), withID("stop-0015")))
	v.place(lim("M", "ETHBTC", Sell, "0.1", "0.02"))
	v.place(lim("M", "ETHBTC", Buy, "0.1", "0.02")) // prints 0.02
	for id, want := range map[string]Status{"stop-0020": Filled, "stop-0019": Filled, "stop-0015": Suspended} {
		if got := v.status("A", id); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
}

// TestStopMarketTopUp: a stop-market buy reserves at its stop price (0.02,
// so 0.02005 with fees) and, once triggered against a book that costs 0.03,
// tops its reservation up, or expires when the funds fall short.
func TestStopMarketTopUp(t *testing.T) {
	cases := []struct {
		funds, wantAvail string
		want             Status
	}{
		{"0.05", "0.019925", Filled}, // 0.05 − 0.03 × 1.0025
		{"0.021", "0.021", Expired},
	}
	for _, tc := range cases {
		v := newEnv(t, Options{})
		v.fund("A", "BTC", tc.funds)
		v.fund("M", "BTC", "1")
		v.fund("M", "ETH", "10")
		v.place(lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.02"), withID("stop-mkt1")))
		v.place(lim("M", "ETHBTC", Sell, "1", "0.03"))
		v.place(lim("M", "ETHBTC", Sell, "0.1", "0.021"))
		v.place(lim("M", "ETHBTC", Buy, "0.1", "0.021"))
		if got := v.status("A", "stop-mkt1"); got != tc.want {
			t.Fatalf("funds %s: status %s, want %s", tc.funds, got, tc.want)
		}
		if a, r := v.bal("A", "BTC"); a != tc.wantAvail || r != "0" {
			t.Fatalf("funds %s: BTC %s / %s, want %s / 0", tc.funds, a, r, tc.wantAvail)
		}
		v.check()
	}
}
