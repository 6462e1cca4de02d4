package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// Expiry of Day and GTD orders, and how long history keeps orders.

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

// TestRetention keeps history within Retention: the oldest final orders and
// trades leave first (their client order IDs become free), active orders
// always stay, and the purge schedule of orders that left early is dropped.
func TestRetention(t *testing.T) {
	v := newEnv(t, Options{Retention: Retention{Orders: 5, Trades: 3}})
	v.fund("A", "BTC", "100")
	v.fund("B", "ETH", "100")
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("resting-oldest")))
	for i := 0; i < 2000; i++ {
		id := fmt.Sprintf("canceled-%05d", i)
		v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID(id)))
		if _, err := v.e.Cancel("A", id); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 4; i++ {
		v.place(lim("B", "ETHBTC", Sell, "0.1", "0.05"))
		v.place(lim("A", "ETHBTC", Buy, "0.1", "0.05", withID(fmt.Sprintf("filled-%d", i))))
	}
	h, _ := v.e.History(HistoryQuery{Account: "A", Limit: 1000})
	if got := ids(h); !slices.Equal(got, []string{"filled-3", "filled-2", "filled-1", "filled-0", "canceled-01999", "resting-oldest"}) {
		t.Fatalf("history: %v", got)
	}
	if tr := v.e.Trades("A", "", 100); len(tr) != 3 {
		t.Fatalf("%d trades kept, want 3", len(tr))
	}
	// A deleted record's client order ID is free again.
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("canceled-00000")))
	if n := len(v.e.purges); n > 2*1024+10 {
		t.Fatalf("purge schedule holds %d entries for 5 retained orders", n)
	}
	v.check()
}

// TestRetentionBehindCursor: retention skips active orders however old, and
// one that ends after its cursor passed it is still the first to go.
func TestRetentionBehindCursor(t *testing.T) {
	v := newEnv(t, Options{Retention: Retention{Orders: 5, Trades: 3}})
	v.fund("A", "BTC", "100")
	churn := func(prefix string, n int) {
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("%s-churn-%04d", prefix, i)
			v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID(id)))
			if _, err := v.e.Cancel("A", id); err != nil {
				t.Fatal(err)
			}
		}
	}
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("resting-first")))
	churn("a", 50)
	v.place(lim("A", "ETHBTC", Buy, "1", "0.01", withID("resting-second")))
	churn("b", 50)
	if _, err := v.e.Cancel("A", "resting-first"); err != nil {
		t.Fatal(err)
	}
	churn("c", 200)
	if _, err := v.e.Get("A", "resting-second"); err != nil {
		t.Fatalf("the active order left: %v", err)
	}
	h, _ := v.e.History(HistoryQuery{Account: "A", Limit: 1000})
	if got := ids(h); !slices.Equal(got, []string{"c-churn-0199", "c-churn-0198", "c-churn-0197", "c-churn-0196", "c-churn-0195", "resting-second"}) {
		t.Fatalf("history: %v", got)
	}
	v.check()
}
