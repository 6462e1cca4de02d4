package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestValidation(t *testing.T) {
	buy, bogus := Buy, Side("hold")
	badType, badTIF := Type("iceberg"), TimeInForce("GTX")
	cases := []struct {
		name string
		req  PlaceRequest
		want ErrorKind // -1: accepted
	}{
		{"accepted", lim("A", "ETHBTC", Buy, "1", "0.01"), -1},
		{"symbol missing", lim("A", "", Buy, "1", "0.01"), ErrValidation},
		{"symbol unknown", lim("A", "DOGEBTC", Buy, "1", "0.01"), ErrSymbolNotFound},
		{"symbol suspended", lim("A", "LTCBTC", Buy, "1", "0.01"), ErrNotAllowed},
		{"side missing", PlaceRequest{Account: "A", Symbol: "ETHBTC", Quantity: dp("1"), Price: dp("0.01")}, ErrValidation},
		{"side bogus", PlaceRequest{Account: "A", Symbol: "ETHBTC", Side: &bogus, Quantity: dp("1"), Price: dp("0.01")}, ErrValidation},
		{"quantity missing", lim("A", "ETHBTC", Buy, "", "0.01"), ErrValidation},
		{"quantity zero", lim("A", "ETHBTC", Buy, "0", "0.01"), ErrValidation},
		{"quantity negative", lim("A", "ETHBTC", Buy, "-1", "0.01"), ErrValidation},
		{"quantity rounds to zero", lim("A", "ETHBTC", Buy, "0.00004", "0.01"), ErrValidation},
		{"type bogus", PlaceRequest{Account: "A", Symbol: "ETHBTC", Side: &buy, Type: &badType, Quantity: dp("1"), Price: dp("0.01")}, ErrValidation},
		{"limit without price", lim("A", "ETHBTC", Buy, "1", ""), ErrValidation},
		{"price zero", lim("A", "ETHBTC", Buy, "1", "0"), ErrValidation},
		{"price rounds to zero", lim("A", "ETHBTC", Buy, "1", "0.0000004"), ErrValidation},
		{"stopLimit without price", lim("A", "ETHBTC", Buy, "1", "", withStop(StopLimit, "0.02")), ErrValidation},
		{"stopLimit without stop_price", lim("A", "ETHBTC", Buy, "1", "0.01", withType(StopLimit)), ErrValidation},
		{"stopMarket without stop_price", lim("A", "ETHBTC", Buy, "1", "", withType(StopMarket)), ErrValidation},
		{"takeProfitMarket without stop_price", lim("A", "ETHBTC", Buy, "1", "", withType(TakeProfitMarket)), ErrValidation},
		{"stop_price negative", lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "-1")), ErrValidation},
		{"market ignores price", lim("A", "ETHBTC", Buy, "1", "-5", withType(Market)), -1},
		{"market with GTC", mkt("A", "ETHBTC", Buy, "1", withTIF(GTC)), ErrValidation},
		{"market with Day", mkt("A", "ETHBTC", Buy, "1", withTIF(Day)), ErrValidation},
		{"stopMarket with GTC", lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.02"), withTIF(GTC)), -1},
		{"tif bogus", lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(badTIF)), ErrValidation},
		{"GTD without expire_time", lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD)), ErrValidation},
		{"GTD in the past", lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD), withExpire(t0.Add(-time.Second))), ErrValidation},
		{"GTD now", lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD), withExpire(t0)), ErrValidation},
		{"GTD in the future", lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD), withExpire(t0.Add(time.Second))), -1},
		{"display_quantity 0", lim("A", "ETHBTC", Buy, "1", "0.01", withDisplay("0")), -1},
		{"display_quantity 1", lim("A", "ETHBTC", Buy, "1", "0.01", withDisplay("1")), ErrValidation},
		{"display_quantity 0.0", lim("A", "ETHBTC", Buy, "1", "0.01", withDisplay("0.0")), ErrValidation},
		{"take_rate markup", lim("A", "ETHBTC", Buy, "1", "0.01", withTake("0.001")), -1},
		{"take_rate negative", lim("A", "ETHBTC", Buy, "1", "0.01", withTake("-0.001")), ErrValidation},
		{"make_rate negative", lim("A", "ETHBTC", Buy, "1", "0.01", withMake("-0.001")), ErrValidation},
		{"take_rate to 1", lim("A", "ETHBTC", Buy, "1", "0.01", withTake("0.9975")), ErrValidation},
		{"client_order_id 7", lim("A", "ETHBTC", Buy, "1", "0.01", withID("abcdefg")), ErrValidation},
		{"client_order_id 8", lim("A", "ETHBTC", Buy, "1", "0.01", withID("abcdefgh")), -1},
		{"client_order_id 32", lim("A", "ETHBTC", Buy, "1", "0.01", withID(strings.Repeat("a", 32))), -1},
		{"client_order_id 33", lim("A", "ETHBTC", Buy, "1", "0.01", withID(strings.Repeat("a", 33))), ErrValidation},
		{"client_order_id charset ok", lim("A", "ETHBTC", Buy, "1", "0.01", withID("aZ09_-xy")), -1},
		{"client_order_id dot", lim("A", "ETHBTC", Buy, "1", "0.01", withID("abc.defgh")), ErrValidation},
		{"client_order_id space", lim("A", "ETHBTC", Buy, "1", "0.01", withID("abc defgh")), ErrValidation},
		{"client_order_id unicode", lim("A", "ETHBTC", Buy, "1", "0.01", withID("abcdéfgh")), ErrValidation},
		{"strict price off tick", lim("A", "ETHBTC", Buy, "1", "0.0100005", withStrict()), ErrValidation},
		{"strict quantity off step", lim("A", "ETHBTC", Buy, "1.00005", "0.01", withStrict()), ErrValidation},
		{"strict stop_price off tick", lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.0200005"), withStrict()), ErrValidation},
		{"strict multiples", lim("A", "ETHBTC", Buy, "1.0001", "0.010001", withStrict()), -1},
		{"price too large", lim("A", "ETHBTC", Sell, "1", "1e40"), ErrValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := newEnv(t, Options{})
			v.fund("A", "BTC", "100")
			v.fund("A", "ETH", "100")
			if c.want < 0 {
				v.place(c.req)
				return
			}
			v.refuse(c.req, c.want)
			if got, _ := v.bal("A", "BTC"); got != "100" {
				t.Fatalf("refusal moved funds: BTC available %s", got)
			}
		})
	}
}

func TestRounding(t *testing.T) {
	cases := []struct {
		in     string
		strict bool
		want   string // "" = refused
	}{
		{"0.125", false, "0.12"},
		{"0.1251", false, "0.13"},
		{"0.124", false, "0.12"},
		{"0.135", false, "0.13"},
		{"0.1349999999999999999999999", false, "0.13"},
		{"0.12", false, "0.12"},
		{"12345.675", false, "12345.67"},
		{"0.125", true, ""},
		{"0.12", true, "0.12"},
		{"0.1200000", true, "0.12"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/strict=%v", c.in, c.strict), func(t *testing.T) {
			v := newEnv(t, Options{})
			v.fund("A", "BTC", "100")
			mods := []mod{}
			if c.strict {
				mods = append(mods, withStrict())
			}
			// Price on BTCUSDT (tick 0.01), and the same digits as a
			// quantity on a 0.01 step scaled: XRP quantity step is 1, so
			// use the price only there and check quantity on BTCUSDT with
			// the value / 1000 (step 0.00001).
			o, err := v.e.Place(lim("A", "BTCUSDT", Sell, "0.001", c.in, mods...))
			q := dec(c.in).Shift(-3).String()
			o2, err2 := v.e.Place(lim("A", "BTCUSDT", Sell, q, "100000", mods...))
			if c.want == "" {
				if err == nil || err2 == nil {
					t.Fatalf("accepted: %v %v", err, err2)
				}
				return
			}
			if err != nil || err2 != nil {
				t.Fatal(err, err2)
			}
			if got := o.Price.String(); got != c.want {
				t.Errorf("price %s rounded to %s, want %s", c.in, got, c.want)
			}
			if got, want := o2.Quantity.String(), dec(c.want).Shift(-3).String(); got != want {
				t.Errorf("quantity %s rounded to %s, want %s", q, got, want)
			}
		})
	}
}

func TestUnitCount(t *testing.T) {
	cases := []struct {
		step, x        string
		strict, halfUp bool
		want           int64
		wantRes        roundResult
	}{
		{"0.01", "0.125", false, false, 12, roundOK},
		{"0.01", "0.125", false, true, 13, roundOK},
		{"0.01", "0.1251", false, false, 13, roundOK},
		{"0.01", "0.125", true, false, 0, roundInexact},
		{"0.0000005", "0.00000075", false, false, 1, roundOK},
		{"0.0000005", "0.00000076", false, false, 2, roundOK},
		{"0.0000005", "0.000001", true, false, 2, roundOK},
		{"5", "12.5", false, false, 2, roundOK},
		{"1", "1000000000000000000000", false, false, 0, roundOverflow},
		{"0.00000001", "123456789012345678901234.5", false, false, 0, roundOverflow},
		// Big-number path: more than 18 digits that still fit in units.
		{"0.000000000000000001", "0.1234567890123456789", false, false, 123456789012345679, roundOK},
		{"100", "150", false, false, 1, roundOK},
		{"100", "151", false, false, 2, roundOK},
	}
	for _, c := range cases {
		u, err := newUnit(dec(c.step))
		if err != nil {
			t.Fatal(err)
		}
		n, res := u.count(dec(c.x), c.strict, c.halfUp)
		if n != c.want || res != c.wantRes {
			t.Errorf("%s / %s (strict %v, halfUp %v) = %d, %v; want %d, %v", c.x, c.step, c.strict, c.halfUp, n, res, c.want, c.wantRes)
		}
		if res == roundOK {
			if back := u.decimal(n); !back.Equal(dec(c.step).Mul(dec(fmt.Sprint(n)))) {
				t.Errorf("decimal(%d) = %s", n, back)
			}
		}
	}
}

func TestDefaultsAndGeneratedID(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	o := v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	if o.Type != Limit || o.TimeInForce != GTC || o.Status != StatusNew {
		t.Fatalf("defaults: %+v", o)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(o.ClientOrderID) {
		t.Fatalf("generated id %q", o.ClientOrderID)
	}
	if got, err := v.e.Get("A", o.ClientOrderID); err != nil || got.ID != o.ID {
		t.Fatalf("read back: %v %v", got, err)
	}
	m := v.place(mkt("A", "ETHBTC", Buy, "1"))
	if m.TimeInForce != FOK || m.Status != Expired || m.Price != nil {
		t.Fatalf("market defaults: %+v", m)
	}
	s := v.place(lim("A", "ETHBTC", Buy, "1", "", withStop(StopMarket, "0.02")))
	if s.TimeInForce != FOK || s.Status != Suspended || s.StopPrice.String() != "0.02" {
		t.Fatalf("stopMarket defaults: %+v", s)
	}
	sl := v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(TakeProfitLimit, "0.005")))
	if sl.TimeInForce != GTC || sl.Status != Suspended {
		t.Fatalf("takeProfitLimit defaults: %+v", sl)
	}
}

func TestDuplicateClientID(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("B", "ETH", "10")
	first := v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("order-0001")))
	v.refuse(lim("A", "ETHBTC", Buy, "2", "0.02", withID("order-0001")), ErrDuplicateClientID)
	if got, _ := v.e.Get("A", "order-0001"); !got.Quantity.Equal(first.Quantity) || !got.Price.Equal(*first.Price) {
		t.Fatalf("existing order changed: %+v", got)
	}
	// Another account may use the same ID.
	v.place(lim("B", "ETHBTC", Sell, "1", "0.5", withID("order-0001")))
	// A filled order stays in history forever and keeps its ID taken.
	v.place(lim("B", "ETHBTC", Sell, "1", "0.02", withID("fill-0001")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.02", withID("fill-0002")))
	v.clk.Advance(48 * time.Hour)
	v.refuse(lim("A", "ETHBTC", Buy, "1", "0.01", withID("fill-0002")), ErrDuplicateClientID)
	// A canceled order without executions frees its ID after 24 hours.
	if _, err := v.e.Cancel("A", "order-0001"); err != nil {
		t.Fatal(err)
	}
	v.refuse(lim("A", "ETHBTC", Buy, "1", "0.01", withID("order-0001")), ErrDuplicateClientID)
	v.clk.Advance(24 * time.Hour)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("order-0001")))
}

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
			if len(tk.Trades) != 1 || !tk.Trades[0].Price.Equal(*mk.Price) || !tk.Trades[0].Taker {
				t.Fatalf("taker trades %+v", tk.Trades)
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

func TestMatching(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("M", "ETH", "100")
	v.fund("T", "BTC", "100")
	// Three asks: two at 0.02 (time priority), one better at 0.019.
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02", withID("ask-first")))
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02", withID("ask-second")))
	v.place(lim("M", "ETHBTC", Sell, "1", "0.019", withID("ask-best0")))
	o := v.place(lim("T", "ETHBTC", Buy, "1.5", "0.02"))
	if o.Status != Filled || len(o.Trades) != 2 {
		t.Fatalf("taker %+v", o)
	}
	if !o.Trades[0].Price.Equal(dec("0.019")) || !o.Trades[1].Price.Equal(dec("0.02")) || !o.Trades[1].Quantity.Equal(dec("0.5")) {
		t.Fatalf("trades %+v", o.Trades)
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
	if o := v.place(mkt("S", "ETHBTC", Sell, "0.5", withTIF(IOC))); o.Status != Filled || !o.Trades[0].Price.Equal(dec("0.02")) {
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
			if c.want == Expired && c.fill == "0" && len(o.Trades) != 0 {
				t.Fatalf("expired with trades %+v", o.Trades)
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(Day), withID("day-order")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD), withExpire(t0.Add(time.Hour)), withID("gtd-order")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("gtc-order")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.5"), withTIF(Day), withID("day-stop1")))
	active := func() []string {
		os, _ := v.e.Active("A", "")
		return ids(os)
	}
	v.clk.Advance(time.Hour - time.Nanosecond)
	if got := active(); len(got) != 4 {
		t.Fatalf("before GTD expiry: %v", got)
	}
	v.clk.Advance(time.Nanosecond)
	if got := active(); slices.Contains(got, "gtd-order") || v.status("A", "gtd-order") != Expired {
		t.Fatalf("GTD not expired: %v", got)
	}
	// Day: noon + 11h59m is 23:59 UTC.
	v.clk.Advance(10*time.Hour + 59*time.Minute - time.Second)
	if got := active(); !slices.Contains(got, "day-order") {
		t.Fatalf("Day expired early: %v", got)
	}
	v.clk.Advance(time.Second)
	if got := active(); !slices.Equal(got, []string{"gtc-order"}) {
		t.Fatalf("after 23:59: %v", got)
	}
	if h, _ := v.e.History(HistoryQuery{Account: "A", ClientOrderID: "day-order"}); !h[0].UpdatedAt.Equal(time.Date(2026, 3, 2, 23, 59, 0, 0, time.UTC)) {
		t.Fatalf("expired at %s", h[0].UpdatedAt)
	}
	if _, res := v.bal("A", "BTC"); res != "0.010025" {
		t.Fatalf("reserved after expiry %s", res)
	}
	v.check()
	// A Day order placed in the last minute lives until the next 23:59.
	v.clk.Advance(30 * time.Second)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(Day), withID("late-day")))
	v.clk.Advance(time.Hour)
	if !slices.Contains(active(), "late-day") {
		t.Fatal("late Day order expired at once")
	}
	if got := dayDeadline(time.Date(2026, 3, 2, 23, 59, 30, 0, time.UTC)); !got.Equal(time.Date(2026, 3, 3, 23, 59, 0, 0, time.UTC)) {
		t.Fatalf("late deadline %s", got)
	}
}

func TestHistoryRetention(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("B", "ETH", "10")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("canceled1")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.02", withID("executed1")))
	v.place(lim("B", "ETHBTC", Sell, "0.5", "0.02"))
	if _, err := v.e.Cancel("A", "canceled1"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.Cancel("A", "executed1"); err != nil {
		t.Fatal(err)
	}
	v.place(mkt("A", "ETHBTC", Buy, "1", withID("expired1")))
	hist := func() []string {
		h, _ := v.e.History(HistoryQuery{Account: "A"})
		return sortedStrings(ids(h))
	}
	if got := hist(); len(got) != 3 {
		t.Fatalf("history %v", got)
	}
	v.clk.Advance(24*time.Hour - time.Nanosecond)
	if got := hist(); len(got) != 3 {
		t.Fatalf("purged early: %v", got)
	}
	v.clk.Advance(time.Nanosecond)
	if got := hist(); !slices.Equal(got, []string{"executed1"}) {
		t.Fatalf("after 24h: %v", got)
	}
}

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

func TestReplace(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("old-order"), withTIF(Day), withPostOnly()))
	n, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "old-order", NewClientOrderID: sp("new-order"), Quantity: dp("2"), Price: dp("0.02")})
	if err != nil {
		t.Fatal(err)
	}
	v.check()
	if n.OriginalClientOrderID != "old-order" || n.ClientOrderID != "new-order" || n.TimeInForce != Day || !n.PostOnly ||
		!n.Quantity.Equal(dec("2")) || !n.Price.Equal(dec("0.02")) || n.Status != StatusNew {
		t.Fatalf("replacement %+v", n)
	}
	if v.status("A", "old-order") != Canceled {
		t.Fatal("old order not canceled")
	}
	if _, res := v.bal("A", "BTC"); res != "0.0401" {
		t.Fatalf("reserved %s", res)
	}
	// Refusals leave the order as it was.
	refusals := []struct {
		name string
		req  ReplaceRequest
		want ErrorKind
	}{
		{"unknown", ReplaceRequest{Account: "A", ClientOrderID: "nope-nope", Quantity: dp("1"), Price: dp("0.01")}, ErrOrderNotFound},
		{"final", ReplaceRequest{Account: "A", ClientOrderID: "old-order", Quantity: dp("1"), Price: dp("0.01")}, ErrOrderNotFound},
		{"no quantity", ReplaceRequest{Account: "A", ClientOrderID: "new-order", Price: dp("0.01")}, ErrValidation},
		{"no price", ReplaceRequest{Account: "A", ClientOrderID: "new-order", Quantity: dp("1")}, ErrValidation},
		{"used id", ReplaceRequest{Account: "A", ClientOrderID: "new-order", NewClientOrderID: sp("old-order"), Quantity: dp("1"), Price: dp("0.01")}, ErrDuplicateClientID},
		{"own id", ReplaceRequest{Account: "A", ClientOrderID: "new-order", NewClientOrderID: sp("new-order"), Quantity: dp("1"), Price: dp("0.01")}, ErrDuplicateClientID},
		{"bad id", ReplaceRequest{Account: "A", ClientOrderID: "new-order", NewClientOrderID: sp("short"), Quantity: dp("1"), Price: dp("0.01")}, ErrValidation},
		{"funds", ReplaceRequest{Account: "A", ClientOrderID: "new-order", Quantity: dp("100"), Price: dp("0.01")}, ErrInsufficientFunds},
	}
	for _, r := range refusals {
		_, err := v.e.Replace(r.req)
		if k, _ := kindOf(err); err == nil || k != r.want {
			t.Errorf("%s: got %v, want kind %v", r.name, err, r.want)
		}
	}
	v.check()
	if o, err := v.e.Get("A", "new-order"); err != nil || !o.Quantity.Equal(dec("2")) {
		t.Fatalf("after refusals: %+v %v", o, err)
	}
	// Funds freed by the old order count: replace to use all of them.
	if _, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "new-order", Quantity: dp("99.75"), Price: dp("0.01")}); err != nil {
		t.Fatal(err)
	}
	if a, r := v.bal("A", "BTC"); a != "0.00000625" || r != "0.99999375" {
		t.Fatalf("BTC %s / %s", a, r)
	}

	// Stop orders: stop_price may change; the replacement stays suspended.
	v.fund("A", "ETH", "1")
	v.place(lim("A", "ETHBTC", Sell, "1", "0.01", withStop(StopLimit, "0.015"), withID("stop-old1")))
	s, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "stop-old1", Quantity: dp("1"), Price: dp("0.011"), StopPrice: dp("0.016")})
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != Suspended || s.StopPrice.String() != "0.016" || len(s.ClientOrderID) != 32 {
		t.Fatalf("stop replacement %+v", s)
	}
	v.check()
}

func TestReplaceMatches(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	v.fund("M", "ETH", "1")
	v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("cheap-bid")))
	n, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "cheap-bid", Quantity: dp("1"), Price: dp("0.02")})
	if err != nil {
		t.Fatal(err)
	}
	if n.Status != Filled || len(n.Trades) != 1 {
		t.Fatalf("replacement %+v", n)
	}
	v.check()
}

func TestCancel(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	v.fund("A", "USDT", "1000")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("eth-order1")))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.02"), withID("eth-stop01")))
	v.place(lim("A", "BTCUSDT", Buy, "0.001", "100", withID("btc-order1")))
	o, err := v.e.Cancel("A", "eth-order1")
	if err != nil || o.Status != Canceled {
		t.Fatalf("cancel: %+v %v", o, err)
	}
	for _, c := range []struct{ acct, id string }{{"A", "eth-order1"}, {"A", "nope-nope"}, {"B", "eth-stop01"}} {
		if _, err := v.e.Cancel(c.acct, c.id); err == nil {
			t.Fatalf("cancel %v accepted", c)
		} else if k, _ := kindOf(err); k != ErrOrderNotFound {
			t.Fatalf("cancel %v: %v", c, err)
		}
		if _, err := v.e.Get(c.acct, c.id); err == nil {
			t.Fatalf("get %v found", c)
		}
	}
	if _, err := v.e.CancelAll("A", "NOPEBTC"); err == nil {
		t.Fatal("unknown symbol accepted")
	}
	os, err := v.e.CancelAll("A", "ETHBTC")
	if err != nil || !slices.Equal(ids(os), []string{"eth-stop01"}) || os[0].Status != Canceled {
		t.Fatalf("cancel all ETHBTC: %v %v", ids(os), err)
	}
	if os, _ := v.e.Active("A", ""); !slices.Equal(ids(os), []string{"btc-order1"}) {
		t.Fatalf("left %v", ids(os))
	}
	os, _ = v.e.CancelAll("A", "")
	if len(os) != 1 {
		t.Fatalf("cancel all: %v", ids(os))
	}
	if a, r := v.bal("A", "BTC"); a != "1" || r != "0" {
		t.Fatalf("BTC %s / %s", a, r)
	}
	v.check()
}

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
	if _, err := v.e.Cancel("A", os[0].ClientOrderID); err != nil {
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
	if again.ID != first.ID || again.ClientOrderID != first.ClientOrderID {
		t.Fatalf("IDs not restarted: %d %s vs %d %s", again.ID, again.ClientOrderID, first.ID, first.ClientOrderID)
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
