package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// outcome renders a Place result compactly for the fault table.
func outcome(o Order, err error) string {
	if err != nil {
		k, _ := kindOf(err)
		return fmt.Sprintf("error %d", k)
	}
	return string(o.Status)
}

func kindName(err error) string {
	if err == nil {
		return "ok"
	}
	k, _ := kindOf(err)
	return fmt.Sprintf("error %d", k)
}

// faultCases shows, for every spot fault the engine implements, one
// observation of the rule that differs with the fault on.
var faultCases = []struct {
	id      string
	opts    Options
	run     func(v *env) string
	off, on string
}{
	{"V3-SPOT-CLOID-LEN", Options{}, func(v *env) string {
		return kindName(second(v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("abcdefg")))))
	}, "error 0", "ok"},
	{"V3-SPOT-CLOID-CHARSET", Options{}, func(v *env) string {
		return kindName(second(v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("abc.def gh")))))
	}, "error 0", "ok"},
	{"V3-SPOT-CLOID-GENERATED", Options{}, func(v *env) string {
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		return fmt.Sprint(len(o.ClientOrderID()))
	}, "32", "0"},
	{"V3-SPOT-CLOID-DUPLICATE", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("same-id-1")))
		_, err := v.e.Place(lim("A", "ETHBTC", Buy, "2", "0.01", withID("same-id-1")))
		h, _ := v.e.History(HistoryQuery{Account: "A", ClientOrderID: "same-id-1"})
		return kindName(err) + " " + strings.Join(statuses(h), ",")
	}, "error 4 new", "ok new,canceled"},
	{"V3-SPOT-MARGIN-SEPARATE", Options{}, func(v *env) string {
		if _, err := v.e.SetMarginBalance("A", "isolated", "ETHBTC", dec("1")); err != nil {
			return err.Error()
		}
		m := lim("A", "ETHBTC", Buy, "1", "0.01", withID("mrg00001"))
		m.Margin = &MarginParams{}
		v.place(m)
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("spot0001")))
		os, _ := v.e.Active("A", "")
		cs, _ := v.e.CancelAll("A", "ETHBTC")
		left, _ := v.e.Active(MarginKey("A"), "")
		return fmt.Sprint(len(os), len(cs), len(left))
	}, "1 1 1", "2 2 0"},
	{"V3-SPOT-REQUIRED", Options{}, func(v *env) string {
		o, err := v.e.Place(lim("A", "ETHBTC", Buy, "", "0.01"))
		return outcome(o, err) + " " + o.Quantity.String()
	}, "error 0 0", "new 0.0001"},
	{"V3-SPOT-SIDE", Options{}, func(v *env) string {
		r := lim("A", "ETHBTC", Buy, "1", "0.01")
		bogus := Side("hold")
		r.Side = &bogus
		o, err := v.e.Place(r)
		return outcome(o, err) + " " + string(o.Side)
	}, "error 0 ", "new sell"},
	{"V3-SPOT-UNKNOWN-SYMBOL", Options{}, func(v *env) string {
		return kindName(second(v.e.Place(lim("A", "DOGEBTC", Buy, "1", "0.01"))))
	}, "error 1", "error 0"},
	{"V3-SPOT-TYPE-DEFAULT", Options{}, func(v *env) string {
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		return string(o.Type)
	}, "limit", "market"},
	{"V3-SPOT-PRICE-REQUIRED", Options{}, func(v *env) string {
		o, err := v.e.Place(lim("A", "ETHBTC", Buy, "1", "", withType(Limit)))
		return outcome(o, err) + " " + string(o.Type)
	}, "error 0 ", "expired market"},
	{"V3-SPOT-STOP-PRICE-REQUIRED", Options{}, func(v *env) string {
		o, err := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withType(StopLimit)))
		return outcome(o, err) + " " + string(o.Type)
	}, "error 0 ", "new limit"},
	{"V3-SPOT-TIF-DEFAULT", Options{}, func(v *env) string {
		o, _ := v.e.Place(mkt("A", "ETHBTC", Buy, "1"))
		return string(o.TimeInForce)
	}, "FOK", "GTC"},
	{"V3-SPOT-EXPIRE-REQUIRED", Options{}, func(v *env) string {
		o, err := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD)))
		return outcome(o, err) + " " + string(o.TimeInForce)
	}, "error 0 ", "new GTC"},
	{"V3-SPOT-DISPLAY-QTY", Options{}, func(v *env) string {
		return kindName(second(v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withDisplay("0.5")))))
	}, "error 0", "ok"},
	{"V3-SPOT-FEE-MARKUP", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o := v.place(lim("A", "ETHBTC", Buy, "1", "0.02", withTake("0.0001")))
		return o.Trades()[0].Fee.String() // 0.02 × (0.0025 + 0.0001) vs 0.02 × 0.0001
	}, "0.000052", "0.000002"},
	{"V3-SPOT-ROUNDING", Options{}, func(v *env) string {
		o, _ := v.e.Place(lim("A", "BTCUSDT", Sell, "0.000125", "100.125"))
		return o.Price.String() + " " + o.Quantity.String()
	}, "100.12 0.00012", "100.13 0.00013"},
	{"V3-SPOT-STRICT-VALIDATE", Options{}, func(v *env) string {
		o, err := v.e.Place(lim("A", "BTCUSDT", Sell, "0.001", "100.125", withStrict()))
		return outcome(o, err)
	}, "error 0", "new"},
	{"V3-SPOT-FUNDS", Options{}, func(v *env) string {
		return kindName(second(v.e.Place(lim("A", "ETHBTC", Buy, "1000", "0.1"))))
	}, "error 2", "ok"},
	{"V3-SPOT-MARKET-BUY-FUNDS", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "20"))
		// A holds 20.01 BTC: above the cost 20, below 20 × 1.0025.
		return kindName(second(v.e.Place(mkt("A", "ETHBTC", Buy, "1"))))
	}, "error 2", "ok"},
	{"V3-SPOT-FEE-CURRENCY", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		v.place(lim("A", "ETHBTC", Buy, "1", "0.02"))
		return v.e.Trades("M", "", 1)[0].Fee.String()
	}, "0.00002", "0.00005"},
	{"V3-SPOT-FEE-REBATE", Options{}, func(v *env) string {
		v.place(lim("M", "BTCUSDT", Sell, "0.1", "100"))
		v.place(lim("A", "BTCUSDT", Buy, "0.1", "100"))
		return v.e.Trades("M", "", 1)[0].Fee.String()
	}, "-0.001", "0.001"},
	{"V3-SPOT-RESERVE", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("to-cancel")))
		v.e.Cancel("A", "to-cancel")
		_, r := v.bal("A", "BTC")
		return r
	}, "0", "0.010025"},
	{"V3-SPOT-IOC-FOK-FINAL", Options{}, func(v *env) string {
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(IOC), withID("ioc-order")))
		return string(o.Status) + " " + string(v.status("A", "ioc-order"))
	}, "expired expired", "new expired"},
	{"V3-SPOT-INSTANT-FILL", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.02"))
		return string(o.Status)
	}, "filled", "new"},
	{"V3-SPOT-NEW", Options{}, func(v *env) string {
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		return string(o.Status)
	}, "new", "partiallyFilled"},
	{"V3-SPOT-SUSPENDED", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.03", withStop(StopLimit, "0.05")))
		return string(o.Status)
	}, "suspended", "filled"},
	{"V3-SPOT-CANCEL", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("to-cancel")))
		o, _ := v.e.Cancel("A", "to-cancel")
		return string(o.Status)
	}, "canceled", "new"},
	{"V3-SPOT-CANCEL-ALL", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		v.place(lim("A", "BTCUSDT", Buy, "0.001", "100"))
		os, _ := v.e.CancelAll("A", "ETHBTC")
		return fmt.Sprint(len(os))
	}, "1", "2"},
	{"V3-SPOT-POST-ONLY", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.02", withPostOnly()))
		return string(o.Status)
	}, "expired", "filled"},
	{"V3-SPOT-IOC", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "2", "0.02", withTIF(IOC)))
		os, _ := v.e.Active("A", "")
		return fmt.Sprint(o.Status, " ", len(os))
	}, "expired 0", "partiallyFilled 1"},
	{"V3-SPOT-FOK", Options{}, func(v *env) string {
		v.place(lim("M", "ETHBTC", Sell, "1", "0.02"))
		o, _ := v.e.Place(lim("A", "ETHBTC", Buy, "2", "0.02", withTIF(FOK)))
		return o.QuantityCumulative.String()
	}, "0", "1"},
	{"V3-SPOT-GTC", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("gtc-order")))
		v.clk.Advance(24 * time.Hour)
		return string(v.status("A", "gtc-order"))
	}, "new", "expired"},
	{"V3-SPOT-DAY", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(Day), withID("day-order")))
		v.clk.Advance(12 * time.Hour)
		return string(v.status("A", "day-order"))
	}, "expired", "new"},
	{"V3-SPOT-GTD", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withTIF(GTD), withExpire(t0.Add(time.Minute)), withID("gtd-order")))
		v.clk.Advance(time.Minute)
		return string(v.status("A", "gtd-order"))
	}, "expired", "new"},
	{"V3-SPOT-REPLACE", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("old-order")))
		o, _ := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "old-order", Quantity: dp("2"), Price: dp("0.01")})
		return o.OriginalClientOrderID
	}, "old-order", ""},
	{"V3-SPOT-CLOID-LEN-OTHER", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("old-order")))
		s := "abcdefg"
		_, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "old-order", NewClientOrderID: &s, Quantity: dp("2"), Price: dp("0.01")})
		return kindName(err)
	}, "error 0", "ok"},
	{"V3-SPOT-REPLACE-STOP-PRICE", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.02"), withID("old-order")))
		o, _ := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "old-order", Quantity: dp("1"), Price: dp("0.01"), StopPrice: dp("0.03")})
		return o.StopPrice.String()
	}, "0.03", "0.02"},
	{"V3-SPOT-ACTIVE", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withStop(StopLimit, "0.02")))
		os, _ := v.e.Active("A", "")
		return fmt.Sprint(len(os))
	}, "2", "1"},
	{"V3-SPOT-NOT-FOUND", Options{}, func(v *env) string {
		_, err1 := v.e.Get("A", "nope-nope")
		_, err2 := v.e.Cancel("A", "nope-nope")
		return kindName(err1) + " " + kindName(err2)
	}, "error 3 error 3", "error 0 error 0"},
	{"V3-SPOT-REPLACE-UNKNOWN", Options{}, func(v *env) string {
		_, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "nope-nope", Quantity: dp("1"), Price: dp("0.01")})
		return kindName(err)
	}, "error 3", "ok"},
	{"V3-SPOT-HISTORY", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("first-order")))
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("second-order")))
		h, _ := v.e.History(HistoryQuery{Account: "A", DefaultSort: true})
		return h[0].ClientOrderID()
	}, "second-order", "first-order"},
	{"V3-SPOT-HISTORY-FILTERS", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
		v.place(mkt("A", "ETHBTC", Buy, "1"))
		h, _ := v.e.History(HistoryQuery{Account: "A", Statuses: []Status{Expired}})
		return fmt.Sprint(len(h))
	}, "1", "2"},
	{"V3-SPOT-HISTORY-CLOID", Options{}, func(v *env) string {
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("the-order")))
		h, _ := v.e.History(HistoryQuery{Account: "A", ClientOrderID: "the-order", Limit: 1, Offset: 1})
		return fmt.Sprint(len(h))
	}, "1", "0"},
	{"V3-SPOT-HISTORY-PAGING", Options{}, func(v *env) string {
		for i := 0; i < 12; i++ {
			v.place(mkt("A", "ETHBTC", Buy, "1"))
		}
		h, _ := v.e.History(HistoryQuery{Account: "A", DefaultLimit: true})
		return fmt.Sprint(len(h))
	}, "12", "10"},
	{"V3-SPOT-HISTORY-24H", Options{}, func(v *env) string {
		v.place(mkt("A", "ETHBTC", Buy, "1"))
		v.clk.Advance(25 * time.Hour)
		h, _ := v.e.History(HistoryQuery{Account: "A"})
		return fmt.Sprint(len(h))
	}, "0", "1"},
	{"V3-SPOT-LIMIT-PER-SYMBOL", Options{MaxActivePerSymbol: 2}, func(v *env) string {
		var errs []string
		for i := 0; i < 3; i++ {
			errs = append(errs, kindName(second(v.e.Place(lim("A", "ETHBTC", Buy, "1", "0.01")))))
		}
		return strings.Join(errs, ",")
	}, "ok,ok,error 5", "ok,ok,ok"},
	{"V3-SPOT-LIMIT-PER-USER", Options{MaxActivePerUser: 2}, func(v *env) string {
		var errs []string
		for _, s := range []string{"ETHBTC", "BTCUSDT", "ETHBTC"} {
			errs = append(errs, kindName(second(v.e.Place(lim("A", s, Buy, "0.001", "0.01")))))
		}
		return strings.Join(errs, ",")
	}, "ok,ok,error 5", "ok,ok,ok"},
}

func second(_ Order, err error) error { return err }

func statuses(os []Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = string(o.Status)
	}
	return out
}

func TestFaults(t *testing.T) {
	for _, c := range faultCases {
		t.Run(c.id, func(t *testing.T) {
			for _, on := range []bool{false, true} {
				var ids []string
				want := c.off
				if on {
					ids, want = []string{c.id}, c.on
				}
				v := newEnv(t, c.opts, ids...)
				v.fund("A", "BTC", "20.01")
				v.fund("A", "USDT", "1000")
				v.fund("A", "ETH", "10")
				v.fund("M", "BTC", "10")
				v.fund("M", "ETH", "10")
				if got := c.run(v); got != want {
					t.Errorf("fault on=%v: got %q, want %q", on, got, want)
				}
			}
		})
	}
}

// TestFaultCoverage checks that the table covers exactly the spot faults
// that live in the engine (those not marked "(api)").
func TestFaultCoverage(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range faultCases {
		if covered[c.id] {
			t.Errorf("%s twice", c.id)
		}
		covered[c.id] = true
	}
	for _, f := range faults.Catalogue() {
		engineFault := (strings.HasPrefix(f.Rule, "V3-SPOT-") || strings.HasPrefix(f.Rule, "V3-ORDER-")) && !strings.HasPrefix(f.Breaks, "(api)")
		if engineFault != covered[f.Rule] {
			t.Errorf("%s (%s): engine fault %v, in the table %v", f.Rule, f.Breaks, engineFault, covered[f.Rule])
		}
		delete(covered, f.Rule)
	}
	for id := range covered {
		t.Errorf("%s is not in the fault catalogue", id)
	}
}

// TestFaultedFeeBeyondReservation: with a rebate larger than the taker rate,
// FEE-REBATE charges the maker more than its reservation covers; the engine
// must take the rest from available rather than fail mid-trade.
func TestFaultedFeeBeyondReservation(t *testing.T) {
	fs, _ := faults.New("V3-SPOT-FEE-REBATE")
	l := ledger.New(fs)
	sym := Symbol{Code: "ABCXYZ", Base: "ABC", Quote: "XYZ", FeeCurrency: "XYZ", TickSize: dec("0.01"), QuantityStep: dec("1"),
		TakeRate: dec("0.0001"), MakeRate: dec("-0.0005"), Status: "working"}
	e := New([]Symbol{sym}, l, clock.NewManual(t0), fs, Options{})
	l.Credit("M", "XYZ", dec("1000"))
	l.Credit("T", "ABC", dec("10"))
	buy, sell := Buy, Sell
	if _, err := e.Place(PlaceRequest{Account: "M", Symbol: "ABCXYZ", Side: &buy, Quantity: dp("10"), Price: dp("10")}); err != nil {
		t.Fatal(err)
	}
	o, err := e.Place(PlaceRequest{Account: "T", Symbol: "ABCXYZ", Side: &sell, Quantity: dp("10"), Price: dp("10")})
	if err != nil || o.Status != Filled {
		t.Fatalf("%+v %v", o, err)
	}
	// M paid 100 + 0.05 (the faulted fee) of which 100.01 was reserved.
	if b := l.Balance("M", "XYZ"); !b.Available.Equal(dec("899.95")) || !b.Reserved.IsZero() {
		t.Fatalf("M: %+v", b)
	}
	total := l.Total("XYZ")
	if !total.Equal(dec("1000")) {
		t.Fatalf("XYZ total %s", total)
	}
}
