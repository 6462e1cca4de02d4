package engine

import (
	"testing"
)

// Reservations and the settlement of trades in the ledger.

func TestFunds(t *testing.T) {
	cases := []struct {
		name    string
		funds   string // of the spend currency
		book    []PlaceRequest
		req     PlaceRequest
		wantErr bool
		wantRes string // reserved after
	}{
		// 1 × 0.01 × (1 + 0.0025) = 0.010025 BTC
		{"limit buy exact", "0.010025", nil, lim("A", "ETHBTC", Buy, "1", "0.01"), false, "0.010025"},
		{"limit buy short", "0.010024", nil, lim("A", "ETHBTC", Buy, "1", "0.01"), true, "0"},
		// Markup raises the reservation: 0.01 × (1 + 0.0025 + 0.001).
		{"limit buy markup short", "0.010025", nil, lim("A", "ETHBTC", Buy, "1", "0.01", withTake("0.001")), true, "0"},
		{"limit buy markup", "0.010035", nil, lim("A", "ETHBTC", Buy, "1", "0.01", withTake("0.001")), false, "0.010035"},
		// Sells reserve the quantity (fees come out of quote proceeds).
		{"limit sell exact", "1", nil, lim("A", "ETHBTC", Sell, "1", "0.01"), false, "1"},
		{"limit sell short", "0.9999", nil, lim("A", "ETHBTC", Sell, "1", "0.01"), true, "0"},
		// Base-fee symbol: a sell reserves quantity × (1 + take), a buy price × quantity.
		{"base-fee sell", "1002", nil, lim("A", "XRPETH", Sell, "1000", "0.0001"), false, "1002"},
		{"base-fee sell short", "1001", nil, lim("A", "XRPETH", Sell, "1000", "0.0001"), true, "0"},
		{"base-fee buy", "0.1", nil, lim("A", "XRPETH", Buy, "1000", "0.0001"), false, "0.1"},
		// Market buy: book cost 0.5×0.01 + 0.5×0.02 = 0.015, × 1.0025 =
		// 0.0150375, which available must exceed.
		{"market buy equal", "0.0150375", []PlaceRequest{lim("M", "ETHBTC", Sell, "0.5", "0.01"), lim("M", "ETHBTC", Sell, "1", "0.02")},
			mkt("A", "ETHBTC", Buy, "1"), true, "0"},
		{"market buy above", "0.0150376", []PlaceRequest{lim("M", "ETHBTC", Sell, "0.5", "0.01"), lim("M", "ETHBTC", Sell, "1", "0.02")},
			mkt("A", "ETHBTC", Buy, "1"), false, "0"},
		{"market buy empty book", "0", nil, mkt("A", "ETHBTC", Buy, "1"), false, "0"},
		{"stopMarket buy at stop price", "0.020049", nil, lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.02")), true, "0"},
		{"stopMarket buy", "0.02005", nil, lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.02")), false, "0.02005"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newEnv(t, Options{})
			v.fund("M", "ETH", "100")
			for _, r := range c.book {
				v.place(r)
			}
			bk := v.e.books[c.req.Symbol]
			cur := bk.sym.Base
			if *c.req.Side == Buy {
				cur = bk.sym.Quote
			}
			if c.funds != "0" {
				v.fund("A", cur, c.funds)
			}
			_, err := v.e.Place(c.req)
			v.check()
			if c.wantErr {
				if k, _ := kindOf(err); err == nil || k != ErrInsufficientFunds {
					t.Fatalf("got %v, want insufficient funds", err)
				}
				if avail, _ := v.bal("A", cur); !dec(avail).Equal(dec(c.funds)) {
					t.Fatalf("refusal moved funds: %s", avail)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if _, res := v.bal("A", cur); !dec(res).Equal(dec(c.wantRes)) {
				t.Fatalf("reserved %s, want %s", res, c.wantRes)
			}
		})
	}
}

// TestSettlement checks the exact balances after one trade in each fee
// arrangement.
func TestSettlement(t *testing.T) {
	type bal struct{ acct, cur, avail, res string }
	cases := []struct {
		name  string
		fund  []bal
		maker PlaceRequest
		taker PlaceRequest
		want  []bal
	}{
		{"quote fee", []bal{{"A", "ETH", "1", ""}, {"B", "BTC", "1", ""}},
			lim("A", "ETHBTC", Sell, "1", "0.05"), lim("B", "ETHBTC", Buy, "1", "0.06"),
			// B pays 0.05 + 0.05×0.0025; A gets 0.05 − 0.05×0.001.
			[]bal{{"A", "ETH", "0", "0"}, {"A", "BTC", "0.04995", "0"}, {"B", "BTC", "0.949875", "0"}, {"B", "ETH", "1", "0"},
				{"__fees__", "BTC", "0.000175", "0"}}},
		{"maker rebate in quote", []bal{{"A", "USDT", "10000", ""}, {"B", "BTC", "1", ""}},
			lim("A", "BTCUSDT", Buy, "0.1", "50000"), mkt("B", "BTCUSDT", Sell, "0.1"),
			// A pays 5000 and is paid 0.5; B gets 5000 − 4.5.
			[]bal{{"A", "USDT", "5000.5", "0"}, {"A", "BTC", "0.1", "0"}, {"B", "USDT", "4995.5", "0"}, {"B", "BTC", "0.9", "0"},
				{"__fees__", "USDT", "4", "0"}}},
		{"base fee with rebate", []bal{{"A", "XRP", "2000", ""}, {"B", "ETH", "1", ""}},
			lim("A", "XRPETH", Sell, "1000", "0.0001"), lim("B", "XRPETH", Buy, "1000", "0.0001"),
			// B gets 1000 − 2 XRP; A gives 1000 XRP and is paid 0.5 XRP.
			[]bal{{"A", "XRP", "1000.5", "0"}, {"A", "ETH", "0.1", "0"}, {"B", "XRP", "998", "0"}, {"B", "ETH", "0.9", "0"},
				{"__fees__", "XRP", "1.5", "0"}}},
		{"markups", []bal{{"A", "ETH", "1", ""}, {"B", "BTC", "1", ""}},
			lim("A", "ETHBTC", Sell, "1", "0.05", withMake("0.001")), lim("B", "ETHBTC", Buy, "1", "0.05", withTake("0.0005")),
			[]bal{{"A", "BTC", "0.0499", "0"}, {"B", "BTC", "0.94985", "0"}, {"__fees__", "BTC", "0.00025", "0"}}},
		{"taker price improvement", []bal{{"A", "ETH", "1", ""}, {"B", "BTC", "1", ""}},
			lim("A", "ETHBTC", Sell, "0.5", "0.04"), lim("B", "ETHBTC", Buy, "1", "0.05"),
			// B reserved 0.050125, paid 0.02005 for the fill, still holds 0.5×0.05×1.0025.
			[]bal{{"B", "BTC", "0.9548875", "0.0250625"}, {"B", "ETH", "0.5", "0"}, {"A", "ETH", "0.5", "0"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newEnv(t, Options{})
			for _, f := range c.fund {
				v.fund(f.acct, f.cur, f.avail)
			}
			mk := v.place(c.maker)
			tk := v.place(c.taker)
			if len(tk.Trades()) != 1 || !tk.Trades()[0].Price.Equal(*mk.Price) || !tk.Trades()[0].Taker {
				t.Fatalf("taker trades %+v", tk.Trades())
			}
			for _, w := range c.want {
				a, r := v.bal(w.acct, w.cur)
				if !dec(a).Equal(dec(w.avail)) || !dec(r).Equal(dec(w.res)) {
					t.Errorf("%s %s: %s / %s, want %s / %s", w.acct, w.cur, a, r, w.avail, w.res)
				}
			}
		})
	}
}
