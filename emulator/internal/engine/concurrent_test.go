package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestConcurrent hammers one engine from several goroutines (run with
// -race): placing, canceling, replacing, reading, funding and moving the
// clock at once, then checks the ledger invariants.
func TestConcurrent(t *testing.T) {
	v := newEnv(t, Options{})
	accts := []string{"A", "B", "C", "D"}
	for _, a := range accts {
		v.fund(a, "BTC", "100")
		v.fund(a, "ETH", "1000")
	}
	var wg sync.WaitGroup
	for g, a := range accts {
		wg.Go(func() {
			for i := 0; i < 300; i++ {
				side, price := Buy, fmt.Sprintf("0.0%d", 48+i%5)
				if (i+g)%2 == 0 {
					side, price = Sell, fmt.Sprintf("0.0%d", 49+i%5)
				}
				id := fmt.Sprintf("%s-order-%04d", a, i)
				tif := []TimeInForce{GTC, IOC, Day}[i%3]
				if _, err := v.e.Place(lim(a, "ETHBTC", side, "0.5", price, withID(id), withTIF(tif))); err != nil {
					t.Error(err)
					return
				}
				switch i % 4 {
				case 1:
					v.e.Cancel(a, id)
				case 2:
					v.e.Replace(ReplaceRequest{Account: a, ClientOrderID: id, Quantity: dp("0.3"), Price: dp(price)})
				}
				v.e.Active(a, "")
				v.e.History(HistoryQuery{Account: a, Limit: 10})
				v.e.Trades(a, "", 10)
			}
		})
	}
	wg.Go(func() {
		for i := 0; i < 300; i++ {
			v.l.Credit("E", "BTC", dec("1"))
			v.l.Balances("A")
			v.clk.Advance(time.Second)
		}
	})
	wg.Wait()
	v.funded["BTC"] = v.funded["BTC"].Add(dec("300"))
	v.check()
}
