package engine

import (
	"testing"
)

// Price-time matching and time in force.

func TestMatching(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("M", "ETH", "100")
	v.fund("T", "BTC", "100")
	// Three asks: two at 0.02 (time priority), one better at 0.019.
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02", withID("ask-first")))
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02", withID("ask-second")))
	v.place(lim("M", "ETHBTC", Sell, "1", "0.019", withID("ask-best0")))
	o := v.place(lim("T", "ETHBTC", Buy, "1.5", "0.02"))
	if o.Status != Filled || len(o.Trades()) != 2 {
		t.Fatalf("taker %+v", o)
	}
	if !o.Trades()[0].Price.Equal(dec("0.019")) || !o.Trades()[1].Price.Equal(dec("0.02")) || !o.Trades()[1].Quantity.Equal(dec("0.5")) {
		t.Fatalf("trades %+v", o.Trades())
	}
	if !o.PriceAverage.Equal(dec("0.01933333333333")) {
		t.Fatalf("price_average %s", o.PriceAverage)
	}
	if v.status("M", "ask-best0") != Filled || v.status("M", "ask-first") != PartiallyFilled || v.status("M", "ask-second") != StatusNew {
		t.Fatal("priority: wrong orders filled")
	}
	// A limit that does not cross rests new; one that partly fills rests
	// partiallyFilled.
	if o := v.place(lim("T", "ETHBTC", Buy, "1", "0.018")); o.Status != StatusNew {
		t.Fatalf("resting: %s", o.Status)
	}
	if o := v.place(lim("T", "ETHBTC", Buy, "2", "0.02", withID("partial-1"))); o.Status != PartiallyFilled || !o.QuantityCumulative.Equal(dec("1.5")) {
		t.Fatalf("partial: %+v", o)
	}
	// The resting remainder is now the best bid; a sell trades at its price.
	v.fund("S", "ETH", "1")
	if o := v.place(mkt("S", "ETHBTC", Sell, "0.5", withTIF(IOC))); o.Status != Filled || !o.Trades()[0].Price.Equal(dec("0.02")) {
		t.Fatalf("market sell %+v", o)
	}
	if v.status("T", "partial-1") != Filled {
		t.Fatal("resting remainder not filled")
	}
	// Self-trade is allowed: funds just move within the account.
	v.fund("T", "ETH", "1")
	v.place(lim("T", "ETHBTC", Sell, "1", "0.018"))
	trades := v.e.Trades("T", "ETHBTC", 0)
	if len(trades) < 2 || trades[0].ID != trades[1].ID || trades[0].Taker == trades[1].Taker {
		t.Fatalf("self trade records %+v", trades[:2])
	}
}

func TestTimeInForce(t *testing.T) {
	type step struct {
		req        PlaceRequest
		wantStatus Status
		wantFilled string
	}
	book := func(v *env) {
		v.fund("M", "ETH", "100")
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		v.place(lim("M", "ETHBTC", Sell, "1", "0.03"))
	}
	cases := []struct {
		name string
		req  PlaceRequest
		want Status
		fill string
	}{
		{"IOC partial", lim("T", "ETHBTC", Buy, "1.5", "0.02", withTIF(IOC)), Expired, "1"},
		{"IOC full", lim("T", "ETHBTC", Buy, "1", "0.02", withTIF(IOC)), Filled, "1"},
		{"IOC none", lim("T", "ETHBTC", Buy, "1", "0.01", withTIF(IOC)), Expired, "0"},
		{"FOK short", lim("T", "ETHBTC", Buy, "1.5", "0.02", withTIF(FOK)), Expired, "0"},
		{"FOK across levels", lim("T", "ETHBTC", Buy, "1.5", "0.03", withTIF(FOK)), Filled, "1.5"},
		{"market FOK short", mkt("T", "ETHBTC", Buy, "3"), Expired, "0"},
		{"market IOC partial", mkt("T", "ETHBTC", Buy, "3", withTIF(IOC)), Expired, "2"},
		{"market FOK", mkt("T", "ETHBTC", Buy, "2"), Filled, "2"},
		{"post-only crossing", lim("T", "ETHBTC", Buy, "1", "0.02", withPostOnly()), Expired, "0"},
		{"post-only resting", lim("T", "ETHBTC", Buy, "1", "0.019", withPostOnly()), StatusNew, "0"},
		{"GTC partial rests", lim("T", "ETHBTC", Buy, "1.5", "0.02"), PartiallyFilled, "1"},
		{"Day rests", lim("T", "ETHBTC", Buy, "1", "0.01", withTIF(Day)), StatusNew, "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newEnv(t, Options{})
			book(v)
			v.fund("T", "BTC", "10")
			o := v.place(c.req)
			if o.Status != c.want || !o.QuantityCumulative.Equal(dec(c.fill)) {
				t.Fatalf("got %s filled %s, want %s filled %s", o.Status, o.QuantityCumulative, c.want, c.fill)
			}
			if c.want == Expired && c.fill == "0" && len(o.Trades()) != 0 {
				t.Fatalf("expired with trades %+v", o.Trades())
			}
		})
	}
}

func TestHiddenOrderMatches(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "1")
	v.fund("B", "BTC", "1")
	mk := v.place(lim("A", "ETHBTC", Sell, "1", "0.02", withDisplay("0")))
	if mk.DisplayQuantity == nil || *mk.DisplayQuantity != "0" {
		t.Fatalf("display_quantity %v", mk.DisplayQuantity)
	}
	if o := v.place(lim("B", "ETHBTC", Buy, "1", "0.02")); o.Status != Filled {
		t.Fatalf("hidden order not matched: %s", o.Status)
	}
}
