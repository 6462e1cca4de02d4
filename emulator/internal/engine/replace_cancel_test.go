package engine

import (
	"slices"
	"testing"
)

// Replacing and canceling orders.

func TestReplace(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "BTC", "1")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("old-order"), withTIF(Day), withPostOnly()))
	n, err := v.e.Replace(ReplaceRequest{Account: "A", ClientOrderID: "old-order", NewClientOrderID: sp("new-order"), Quantity: dp("2"), Price: dp("0.02")})
	if err != nil {
		t.Fatal(err)
	}
	v.check()
	if n.OriginalClientOrderID != "old-order" || n.ClientOrderID() != "new-order" || n.TimeInForce != Day || !n.PostOnly ||
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
	if s.Status != Suspended || s.StopPrice.String() != "0.016" || len(s.ClientOrderID()) != 32 {
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
	if n.Status != Filled || len(n.Trades()) != 1 {
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
