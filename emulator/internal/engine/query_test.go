package engine

import (
	"slices"
	"testing"
	"time"
)

// Active orders, order and trade history, the active-order limits and reset.

func TestActive(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	v.fund("A", "USDT", "1000")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("order-001")))
	v.place(lim("A", "BTCUSDT", Buy, "0.001", "100", withID("order-002")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.02"), withID("order-003")))
	v.place(mkt("A", "ETHBTC", Buy, "1", withID("order-004")))
	for _, c := range []struct {
		sym  string
		want []string
	}{{"", []string{"order-001", "order-002", "order-003"}}, {"ETHBTC", []string{"order-001", "order-003"}}, {"XRPETH", []string{}}} {
		os, err := v.e.Active("A", c.sym)
		if err != nil || !slices.Equal(ids(os), c.want) {
			t.Errorf("active %q: %v %v", c.sym, ids(os), err)
		}
	}
	if _, err := v.e.Active("A", "NOPE"); err == nil {
		t.Fatal("unknown symbol accepted")
	}
	if os, _ := v.e.Active("nobody", ""); len(os) != 0 {
		t.Fatal("orders for nobody")
	}
}

func TestHistory(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("A", "USDT", "10000")
	v.fund("M", "ETH", "10")
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
	// h1..h5, one minute apart.
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("h1-order")))
	v.clk.Advance(time.Minute)
	v.place(lim("A", "BTCUSDT", Buy, "0.001", "100", withID("h2-order")))
	v.clk.Advance(time.Minute)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.02", withID("h3-order"))) // filled
	v.clk.Advance(time.Minute)
	v.place(mkt("A", "ETHBTC", Buy, "1", withID("h4-order"))) // expired
	v.clk.Advance(time.Minute)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("h5-order")))
	if _, err := v.e.Cancel("A", "h1-order"); err != nil {
		t.Fatal(err)
	}
	from, till := t0.Add(time.Minute), t0.Add(3*time.Minute)
	cases := []struct {
		name string
		q    HistoryQuery
		want []string
	}{
		{"default newest first", HistoryQuery{DefaultSort: true, DefaultLimit: true}, []string{"h5-order", "h4-order", "h3-order", "h2-order", "h1-order"}},
		{"zero value", HistoryQuery{}, []string{"h5-order", "h4-order", "h3-order", "h2-order", "h1-order"}},
		{"ASC", HistoryQuery{SortAsc: true}, []string{"h1-order", "h2-order", "h3-order", "h4-order", "h5-order"}},
		{"limit offset", HistoryQuery{Limit: 2, Offset: 1}, []string{"h4-order", "h3-order"}},
		{"offset past end", HistoryQuery{Offset: 10}, []string{}},
		{"symbol", HistoryQuery{Symbols: []string{"BTCUSDT"}}, []string{"h2-order"}},
		{"symbols", HistoryQuery{Symbols: []string{"BTCUSDT", "ETHBTC"}, Limit: 3}, []string{"h5-order", "h4-order", "h3-order"}},
		{"statuses", HistoryQuery{Statuses: []Status{Canceled, Expired}}, []string{"h4-order", "h1-order"}},
		{"rejected", HistoryQuery{Statuses: []Status{"rejected"}}, []string{}},
		{"from till", HistoryQuery{From: &from, Till: &till}, []string{"h4-order", "h3-order", "h2-order"}},
		{"by timestamp", HistoryQuery{ByTimestamp: true, SortAsc: true, Limit: 2, Offset: 1}, []string{"h2-order", "h3-order"}},
		{"by timestamp desc", HistoryQuery{ByTimestamp: true, From: &from}, []string{"h5-order", "h4-order", "h3-order", "h2-order"}},
		{"client_order_id ignores the rest", HistoryQuery{ClientOrderID: "h3-order", Symbols: []string{"BTCUSDT"}, Limit: 1, Offset: 5}, []string{"h3-order"}},
		{"client_order_id unknown", HistoryQuery{ClientOrderID: "nope-nope"}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.q.Account = "A"
			h, err := v.e.History(c.q)
			if err != nil || !slices.Equal(ids(h), c.want) {
				t.Fatalf("got %v %v, want %v", ids(h), err, c.want)
			}
		})
	}
	h, _ := v.e.History(HistoryQuery{Account: "A", ClientOrderID: "h3-order"})
	if h[0].Status != Filled || !h[0].PriceAverage.Equal(dec("0.02")) {
		t.Fatalf("record %+v", h[0])
	}
	if h, _ := v.e.History(HistoryQuery{Account: "nobody"}); h == nil || len(h) != 0 {
		t.Fatal("history for nobody")
	}
}

func TestHistoryLimitDefault(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	for i := 0; i < 150; i++ {
		v.place(mkt("A", "ETHBTC", Buy, "1"))
	}
	if h, _ := v.e.History(HistoryQuery{Account: "A", DefaultLimit: true, Limit: 1000}); len(h) != 100 {
		t.Fatalf("default limit gave %d", len(h))
	}
	if h, _ := v.e.History(HistoryQuery{Account: "A", Limit: 120}); len(h) != 120 {
		t.Fatalf("limit 120 gave %d", len(h))
	}
}

func TestOrderLimits(t *testing.T) {
	v := newEnv(t, Options{MaxActivePerSymbol: 3, MaxActivePerUser: 5})
	v.fund("A", "BTC", "10")
	v.fund("A", "USDT", "1000")
	for i := 0; i < 3; i++ {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	}
	v.refuse(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.02")), ErrOrderLimit)
	// Immediate orders count too: the limit refuses new requests.
	v.refuse(mkt("A", "ETHBTC", Buy, "1"), ErrOrderLimit)
	v.place(lim("A", "BTCUSDT", Buy, "0.001", "100"))
	v.place(lim("A", "BTCUSDT", Buy, "0.001", "100", withStop(StopLimit, "200")))
	v.refuse(lim("A", "BTCUSDT", Buy, "0.001", "100"), ErrOrderLimit)
	// Another user is not affected; freeing one slot allows one more.
	v.fund("B", "BTC", "1")
	v.place(lim("B", "ETHBTC", Buy, "1", "0.01"))
	os, _ := v.e.Active("A", "ETHBTC")
	if _, err := v.e.Cancel("A", os[0].ClientOrderID()); err != nil {
		t.Fatal(err)
	}
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
}

func TestReset(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	first := v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	if err := v.e.ResetWith(func() error {
		v.l.Reset()
		return v.l.Credit("A", "BTC", dec("1"))
	}); err != nil {
		t.Fatal(err)
	}
	if os, _ := v.e.Active("A", ""); len(os) != 0 {
		t.Fatal("orders survived reset")
	}
	again := v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	if again.ID != first.ID || again.ClientOrderID() != first.ClientOrderID() {
		t.Fatalf("IDs not restarted: %d %s vs %d %s", again.ID, again.ClientOrderID(), first.ID, first.ClientOrderID())
	}
}

func TestTradesRecords(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "2")
	v.fund("B", "BTC", "1")
	v.place(lim("A", "ETHBTC", Sell, "1", "0.02", withID("sell-0001")))
	v.place(lim("B", "ETHBTC", Buy, "1", "0.02"))
	v.place(lim("A", "ETHBTC", Sell, "1", "0.03"))
	v.place(lim("B", "ETHBTC", Buy, "0.5", "0.03"))
	tr := v.e.Trades("A", "", 10)
	if len(tr) != 2 || tr[0].ID < tr[1].ID || tr[1].ClientOrderID != "sell-0001" || tr[1].Taker || !tr[1].Fee.Equal(dec("0.00002")) {
		t.Fatalf("trades %+v", tr)
	}
	if tr := v.e.Trades("A", "BTCUSDT", 10); len(tr) != 0 {
		t.Fatal("symbol filter")
	}
	if tr := v.e.Trades("A", "", 1); len(tr) != 1 {
		t.Fatal("limit")
	}
}
