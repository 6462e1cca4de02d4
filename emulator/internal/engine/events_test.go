package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// recorder keeps the events of the kinds it wants as one-line strings.
type recorder struct {
	kinds EventKind
	evs   []Event
}

func (r *recorder) Wants(k EventKind) bool { return r.kinds&k != 0 }
func (r *recorder) Observe(ev Event)       { r.evs = append(r.evs, ev) }

func (r *recorder) take() []string {
	var out []string
	for i, ev := range r.evs {
		if i > 0 && ev.Seq != r.evs[i-1].Seq+1 {
			out = append(out, fmt.Sprintf("seq gap %d after %d", ev.Seq, r.evs[i-1].Seq))
		}
		switch ev.Kind {
		case OrderEvent:
			s := fmt.Sprintf("order %s %s %s %s", ev.Report, ev.Account, ev.Order.ClientOrderID(), ev.Order.Status)
			if ev.Trade != nil {
				s += fmt.Sprintf(" trade %d %s@%s fee %s taker %v", ev.Trade.ID, ev.Trade.Quantity, ev.Trade.Price, ev.Trade.Fee, ev.Trade.Taker)
			}
			out = append(out, s)
		case TradeEvent:
			p := ev.Print
			out = append(out, fmt.Sprintf("print %s %d %s@%s %s", p.Symbol, p.ID, p.Quantity, p.Price, p.TakerSide))
		case BookEvent:
			l := ev.Level
			out = append(out, fmt.Sprintf("book %s %s %s=%s", l.Symbol, l.Side, l.Price, l.Size))
		case ResetEvent:
			out = append(out, "reset")
		}
	}
	r.evs = nil
	return out
}

func newObserved(t *testing.T, kinds EventKind) (*env, *recorder) {
	rec := &recorder{kinds: kinds}
	v := newEnv(t, Options{Observer: rec})
	v.fund("A", "BTC", "10")
	v.fund("B", "ETH", "10")
	rec.evs = nil
	return v, rec
}

const all = OrderEvent | TradeEvent | BookEvent | ResetEvent

func TestEventsSequences(t *testing.T) {
	cases := []struct {
		name string
		run  func(v *env)
		want []string
	}{
		{"rest then cancel", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("bid00001")))
			v.place(lim("A", "ETHBTC", Buy, "2", "0.01", withID("bid00002")))
			if _, err := v.e.Cancel("A", "bid00001"); err != nil {
				v.t.Fatal(err)
			}
		}, []string{
			"order new A bid00001 new", "book ETHBTC buy 0.01=1",
			"order new A bid00002 new", "book ETHBTC buy 0.01=3",
			"book ETHBTC buy 0.01=2", "order canceled A bid00001 canceled",
		}},
		{"partial fill then fill", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "2", "0.01", withID("bid00001")))
			v.place(lim("B", "ETHBTC", Sell, "0.5", "0.009", withID("ask00001")))
			v.place(lim("B", "ETHBTC", Sell, "1.5", "0.01", withID("ask00002")))
		}, []string{
			"order new A bid00001 new", "book ETHBTC buy 0.01=2",
			"order new B ask00001 new",
			"print ETHBTC 1 0.5@0.01 sell",
			"order trade A bid00001 partiallyFilled trade 1 0.5@0.01 fee 0.000005 taker false",
			"order trade B ask00001 filled trade 1 0.5@0.01 fee 0.0000125 taker true",
			"book ETHBTC buy 0.01=1.5",
			"order new B ask00002 new",
			"print ETHBTC 2 1.5@0.01 sell",
			"order trade A bid00001 filled trade 2 1.5@0.01 fee 0.000015 taker false",
			"order trade B ask00002 filled trade 2 1.5@0.01 fee 0.0000375 taker true",
			"book ETHBTC buy 0.01=0",
		}},
		{"replace", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("bid00001")))
			if _, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "bid00001", NewClientOrderID: sp("bid00002"), Quantity: dp("2"), Price: dp("0.011")}); err != nil {
				v.t.Fatal(err)
			}
		}, []string{
			"order new A bid00001 new", "book ETHBTC buy 0.01=1",
			"book ETHBTC buy 0.01=0",
			"order replaced A bid00002 new", "book ETHBTC buy 0.011=2",
		}},
		{"expire", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("bid00001"), withTIF(GTD), withExpire(t0.Add(time.Minute))))
			v.clk.Advance(2 * time.Minute)
			v.e.Active("A", "")
		}, []string{
			"order new A bid00001 new", "book ETHBTC buy 0.01=1",
			"book ETHBTC buy 0.01=0", "order expired A bid00001 expired",
		}},
		{"IOC without match", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("bid00001"), withTIF(IOC)))
		}, []string{"order new A bid00001 new", "order expired A bid00001 expired"}},
		{"stop suspended then triggered", func(v *env) {
			v.place(lim("A", "ETHBTC", Buy, "1", "0.02", withID("stop0001"), withStop(StopLimit, "0.015")))
			v.place(lim("A", "ETHBTC", Buy, "1", "0.015", withID("bid00001")))
			v.place(lim("B", "ETHBTC", Sell, "1", "0.015", withID("ask00001")))
		}, []string{
			"order suspended A stop0001 suspended",
			"order new A bid00001 new", "book ETHBTC buy 0.015=1",
			"order new B ask00001 new",
			"print ETHBTC 1 1@0.015 sell",
			"order trade A bid00001 filled trade 1 1@0.015 fee 0.000015 taker false",
			"order trade B ask00001 filled trade 1 1@0.015 fee 0.0000375 taker true",
			"book ETHBTC buy 0.015=0",
			"order triggered A stop0001 new", "book ETHBTC buy 0.02=1",
		}},
		{"reset", func(v *env) { v.e.Reset() }, []string{"reset"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, rec := newObserved(t, all)
			c.run(v)
			if got := rec.take(); !slices.Equal(got, c.want) {
				t.Fatalf("events:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

func TestEventsOnlyWantedKinds(t *testing.T) {
	v, rec := newObserved(t, TradeEvent)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	v.place(lim("B", "ETHBTC", Sell, "1", "0.01"))
	if got := rec.take(); !slices.Equal(got, []string{"print ETHBTC 1 1@0.01 sell"}) {
		t.Fatalf("events: %q", got)
	}
}

func TestEventsOrderListAndMargin(t *testing.T) {
	v, rec := newObserved(t, OrderEvent)
	if _, err := v.e.PlaceList(ListRequest{Account: "A", ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Buy, "1", "0.01", withID("oco00001")),
		lim("A", "ETHBTC", Buy, "1", "0.02", withID("oco00002"), withStop(StopLimit, "0.03")),
	}}); err != nil {
		t.Fatal(err)
	}
	got := rec.take()
	want := []string{"order new A oco00001 new", "order suspended A oco00002 suspended"}
	if !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if _, err := v.e.SetMarginBalance("A", "isolated", "ETHBTC", dec("1")); err != nil {
		t.Fatal(err)
	}
	req := lim("A", "ETHBTC", Buy, "1", "0.01", withID("mrg00001"))
	req.Margin = &MarginParams{}
	v.place(req)
	rec.take()
	if _, err := v.e.Cancel(MarginKey("A"), "mrg00001"); err != nil {
		t.Fatal(err)
	}
	evs := rec.evs
	if len(evs) != 1 || !evs[0].Margin || evs[0].Account != "A" || evs[0].Report != ReportCanceled {
		t.Fatalf("margin cancel events: %+v", evs)
	}
}

func TestDepth(t *testing.T) {
	v, _ := newObserved(t, all)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01"))
	v.place(lim("A", "ETHBTC", Buy, "1", "0.011"))
	v.place(lim("B", "ETHBTC", Sell, "2", "0.02"))
	bids, asks, seq, ok := v.e.Depth("ETHBTC", 1)
	if !ok || len(bids) != 1 || bids[0].Price.String() != "0.011" || len(asks) != 1 || asks[0].Size.String() != "2" || seq == 0 {
		t.Fatalf("depth: %v %v %d %v", bids, asks, seq, ok)
	}
	if _, _, _, ok := v.e.Depth("NOPE", 0); ok {
		t.Fatal("unknown symbol has a depth")
	}
}
