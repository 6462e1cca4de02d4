package engine

import (
	"strings"
	"testing"
	"time"
)

func (v *env) placeList(req ListRequest) []Order {
	v.t.Helper()
	os, err := v.e.PlaceList(req)
	if err != nil {
		v.t.Fatalf("list: %v", err)
	}
	v.check()
	return os
}

func (v *env) statusesOf(acct string, os []Order) string {
	v.t.Helper()
	var out []string
	for _, o := range os {
		out = append(out, string(v.status(acct, o.ClientOrderID())))
	}
	return strings.Join(out, " ")
}

// TestOCOSiblingsAtOneLevel: two OCO orders resting at the same price; a
// taker big enough for both fills the first and finds the second canceled
// rather than trading it.
func TestOCOSiblingsAtOneLevel(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "10")
	v.fund("B", "BTC", "10")
	os := v.placeList(ListRequest{Account: "A", ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Sell, "1", "0.05"), lim("A", "ETHBTC", Sell, "1", "0.05")}})
	o := v.place(lim("B", "ETHBTC", Buy, "2", "0.05"))
	if o.Status != PartiallyFilled || !o.QuantityCumulative.Equal(dec("1")) {
		t.Fatalf("taker %+v", o)
	}
	if got := v.statusesOf("A", os); got != "filled canceled" {
		t.Fatalf("statuses %s", got)
	}
}

// TestOCOSelfMatch: an OCO order that crosses its sibling trades with it
// once; the rule then cancels what is left.
func TestOCOSelfMatch(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "10")
	v.fund("A", "BTC", "10")
	os := v.placeList(ListRequest{Account: "A", ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Sell, "1", "0.05"), lim("A", "ETHBTC", Buy, "2", "0.06")}})
	if got := v.statusesOf("A", os); got != "filled canceled" {
		t.Fatalf("statuses %s", got)
	}
}

// TestOTOCOStopNotFiredByItsActivation: the trade that fills the primary
// does not fire a stop secondary whose stop it crossed; later trades do.
func TestOTOCOStopNotFiredByItsActivation(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("A", "ETH", "10")
	v.fund("B", "ETH", "10")
	v.fund("B", "BTC", "10")
	os := v.placeList(ListRequest{Account: "A", ContingencyType: "oneTriggerOneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Buy, "1", "0.05"),
		lim("A", "ETHBTC", Sell, "1", "0.07"),
		lim("A", "ETHBTC", Sell, "1", "0.04", withStop(StopLimit, "0.051")),
	}})
	v.place(lim("B", "ETHBTC", Sell, "1", "0.05"))
	if got := v.statusesOf("A", os); got != "filled new suspended" {
		t.Fatalf("after the primary %s", got)
	}
	v.place(lim("B", "ETHBTC", Buy, "2", "0.041"))
	v.place(lim("B", "ETHBTC", Buy, "0.1", "0.045"))
	v.place(lim("B", "ETHBTC", Sell, "0.1", "0.045"))
	if got := v.statusesOf("A", os); got != "filled canceled filled" {
		t.Fatalf("after the stop %s", got)
	}
}

// TestListExpiry: an OTO primary that expires cancels its secondaries; an
// inactive secondary can expire on its own.
func TestListExpiry(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("A", "ETH", "10")
	soon := t0.Add(time.Hour)
	os := v.placeList(ListRequest{Account: "A", ContingencyType: "oneTriggerOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Buy, "1", "0.05", withTIF(GTD), withExpire(soon)),
		lim("A", "ETHBTC", Sell, "1", "0.07"),
		lim("A", "ETHBTC", Sell, "1", "0.08", withTIF(GTD), withExpire(soon.Add(-time.Minute))),
	}})
	v.clk.Advance(59*time.Minute + 30*time.Second)
	if got := v.statusesOf("A", os); got != "new new expired" {
		t.Fatalf("after the secondary's expiry %s", got)
	}
	v.clk.Advance(time.Minute)
	if got := v.statusesOf("A", os); got != "expired canceled expired" {
		t.Fatalf("after the primary's expiry %s", got)
	}
	v.check()
	if b := v.l.Balance("A", "BTC"); !b.Reserved.IsZero() {
		t.Fatalf("reserved %s", b.Reserved)
	}
}

// TestListReplace: a replaced list order keeps its place: a replaced OTO
// primary still activates the secondaries, a replaced inactive secondary
// stays inactive until then.
func TestListReplace(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "10")
	v.fund("A", "ETH", "10")
	v.fund("B", "ETH", "10")
	os := v.placeList(ListRequest{Account: "A", ContingencyType: "oneTriggerOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Buy, "1", "0.05", withID("primary-01")), lim("A", "ETHBTC", Sell, "1", "0.07", withID("second-01"))}})
	p, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "primary-01", NewClientOrderID: sp("primary-02"), Quantity: dp("1"), Price: dp("0.051")})
	if err != nil || p.OrderListID != os[0].OrderListID || p.ContingencyType != OneTriggerOther {
		t.Fatalf("replaced primary %+v %v", p, err)
	}
	s, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "second-01", NewClientOrderID: sp("second-02"), Quantity: dp("0.5"), Price: dp("0.07")})
	if err != nil || !s.Inactive || s.Status != StatusNew {
		t.Fatalf("replaced secondary %+v %v", s, err)
	}
	v.check()
	v.place(lim("B", "ETHBTC", Sell, "1", "0.051"))
	if got := v.status("A", "second-02"); got != StatusNew {
		t.Fatalf("secondary %s", got)
	}
	if got, _ := v.e.Get("A", "second-02"); got.Inactive {
		t.Fatalf("still inactive %+v", got)
	}
	if got, _ := v.e.Get("A", "second-02"); got.OrderListID != os[0].ClientOrderID() || got.ContingencyType == "" {
		t.Fatalf("list fields of an active secondary: %+v", got)
	}
}

// TestListAtomicFunds: a list whose orders each fit the balance but not
// together is refused whole.
func TestListAtomicFunds(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "ETH", "1.5")
	_, err := v.e.PlaceList(ListRequest{Account: "A", ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Sell, "1", "0.06"), lim("A", "ETHBTC", Sell, "1", "0.04", withStop(StopLimit, "0.041"))}})
	if k, _ := kindOf(err); k != ErrInsufficientFunds {
		t.Fatalf("got %v", err)
	}
	if os, _ := v.e.Active("A", ""); len(os) != 0 {
		t.Fatalf("%d orders left", len(os))
	}
	if b := v.l.Balance("A", "ETH"); !b.Reserved.IsZero() || !b.Available.Equal(dec("1.5")) {
		t.Fatalf("balance %+v", b)
	}
	// With the fault, the first order is left in place.
	v = newEnv(t, Options{}, "V3-LIST-ATOMIC")
	v.fund("A", "ETH", "1.5")
	_, err = v.e.PlaceList(ListRequest{Account: "A", ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
		lim("A", "ETHBTC", Sell, "1", "0.06"), lim("A", "ETHBTC", Sell, "1", "0.04", withStop(StopLimit, "0.041"))}})
	if os, _ := v.e.Active("A", ""); err == nil || len(os) != 1 {
		t.Fatalf("faulted: %v, %d orders", err, len(os))
	}
	v.check()
}

// TestReduceOnlyMaker: a resting reduce-only order trades no more than its
// position, then expires when reached with nothing left to reduce.
func TestReduceOnlyMaker(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "USDT", "100000")
	v.fund("B", "BTC", "10")
	v.fund("B", "USDT", "100000")
	if _, err := v.e.SetMarginBalance("A", "isolated", "BTCUSDT", dec("10000")); err != nil {
		t.Fatal(err)
	}
	v.place(lim("B", "BTCUSDT", Sell, "0.1", "60000"))
	buy := lim("A", "BTCUSDT", Buy, "0.1", "60000")
	buy.Margin = &MarginParams{}
	v.place(buy)
	sell := lim("A", "BTCUSDT", Sell, "0.3", "61000", withID("reduce-only-1"))
	sell.Margin = &MarginParams{ReduceOnly: true}
	if o := v.place(sell); o.Status != StatusNew {
		t.Fatalf("reduce-only %+v", o)
	}
	// The taker closes the position through it, then reaches it again
	// with nothing left to reduce: it expires, and the taker rests.
	o := v.place(lim("B", "BTCUSDT", Buy, "0.3", "61000"))
	if !o.QuantityCumulative.Equal(dec("0.1")) || o.Status != PartiallyFilled {
		t.Fatalf("taker %+v", o)
	}
	h, _ := v.e.History(HistoryQuery{Account: MarginKey("A"), ClientOrderID: "reduce-only-1"})
	if h[0].Status != Expired || !h[0].QuantityCumulative.Equal(dec("0.1")) {
		t.Fatalf("reduce-only %+v", h[0])
	}
	if as := v.e.MarginAccounts("A"); len(as) != 1 || len(as[0].Positions) != 0 {
		t.Fatalf("accounts %+v", as)
	}
}
