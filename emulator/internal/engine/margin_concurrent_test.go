package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestMarginConcurrent hammers one margin account from several goroutines
// (run with -race): orders placed on it and against it, its positions
// closed, its balance set (and the account closed and reopened), its
// orders replaced and canceled, and readers, all at once. A checker
// asserts the invariants meanwhile (nothing reserved below zero, totals
// kept, the ledger reserving what orders hold, positions matching the
// margin account's holdings), and once more at the end.
func TestMarginConcurrent(t *testing.T) {
	v := newEnv(t, Options{})
	v.fund("A", "USDT", "1000000")
	v.fund("A", "BTC", "10")
	v.fund("B", "USDT", "1000000")
	v.fund("B", "BTC", "100")
	if _, err := v.e.SetMarginBalance("A", "isolated", "BTCUSDT", dec("100000")); err != nil {
		t.Fatal(err)
	}
	const rounds = 250
	var wg sync.WaitGroup
	var stop sync.WaitGroup
	done := make(chan struct{})
	// Margin orders on A's account, both sides, around 60000.
	wg.Go(func() {
		for i := 0; i < rounds; i++ {
			side := []Side{Buy, Sell}[i%2]
			price := fmt.Sprintf("%d", 59900+(i*37)%200)
			r := lim("A", "BTCUSDT", side, "0.05", price, withID(fmt.Sprintf("A-margin-%04d", i)), withTIF([]TimeInForce{GTC, IOC, GTC, FOK}[i%4]))
			r.Margin = &MarginParams{ReduceOnly: i%7 == 0}
			if _, err := v.e.Place(r); err != nil && !refusal(err) {
				t.Error(err)
			}
			if i%5 == 0 {
				v.e.Replace(ReplaceRequest{Account: MarginKey("A"), ClientOrderID: fmt.Sprintf("A-margin-%04d", i), Quantity: dp("0.03"), Price: dp(price)})
			}
			if i%9 == 0 {
				v.e.CancelAll(MarginKey("A"), "")
			}
		}
	})
	// A counterparty on spot, both sides.
	wg.Go(func() {
		for i := 0; i < rounds; i++ {
			side := []Side{Sell, Buy}[i%2]
			price := fmt.Sprintf("%d", 59950+(i*53)%200)
			if _, err := v.e.Place(lim("B", "BTCUSDT", side, "0.04", price, withTIF([]TimeInForce{GTC, IOC}[i%2]))); err != nil && !refusal(err) {
				t.Error(err)
			}
		}
	})
	// Positions closed, at market and at a limit, and lists of margin orders.
	wg.Go(func() {
		for i := 0; i < rounds/2; i++ {
			var price = dp("60000")
			if i%2 == 0 {
				price = nil
			}
			if _, err := v.e.ClosePosition("A", "isolated", "BTCUSDT", price, false); err != nil && !refusal(err) {
				t.Error(err)
			}
			if i%10 == 0 {
				v.e.CloseAllPositions("A")
			}
			req := ListRequest{Account: "A", Margin: true, ContingencyType: "oneCancelOther", Orders: []PlaceRequest{
				lim("A", "BTCUSDT", Buy, "0.02", "59800"), lim("A", "BTCUSDT", Sell, "0.02", "60200")}}
			if _, err := v.e.PlaceList(req); err != nil && !refusal(err) {
				t.Error(err)
			}
		}
	})
	// The balance set up and down, the account closed and reopened.
	wg.Go(func() {
		for i := 0; i < rounds/2; i++ {
			amt := dec(fmt.Sprintf("%d", 20000+(i*7919)%150000))
			if i%15 == 14 {
				amt = dec("0")
			}
			if _, err := v.e.SetMarginBalance("A", "isolated", "BTCUSDT", amt); err != nil && !refusal(err) {
				t.Error(err)
			}
		}
	})
	// Readers and a clock.
	wg.Go(func() {
		for i := 0; i < rounds; i++ {
			v.e.MarginAccounts("A")
			v.e.MarginFundsOf("A")
			v.e.MarginTrades(MarginTradeQuery{Account: "A", Limit: 10})
			v.e.History(HistoryQuery{Account: MarginKey("A"), Limit: 10})
			v.l.Balances("A")
			v.clk.Advance(time.Millisecond)
		}
	})
	// The checker.
	stop.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := v.invariants(); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	close(done)
	stop.Wait()
	v.check()
	n := len(v.e.MarginTrades(MarginTradeQuery{Account: "A", Limit: 1000}))
	if n == 0 {
		t.Fatal("no margin trade happened")
	}
	t.Logf("%d margin trades", n)
}

// refusal reports whether err is a documented refusal (not a failure).
func refusal(err error) bool {
	_, ok := kindOf(err)
	return ok
}
