package engine

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// benchEnv is an engine with deep pockets for two accounts.
func benchEnv(b testing.TB, opts Options) *env {
	v := newEnv(b, opts)
	for _, a := range []string{"maker", "taker"} {
		v.fund(a, "BTC", "1000000000")
		v.fund(a, "ETH", "1000000000")
	}
	return v
}

// cloids pre-builds client order IDs so that formatting is not measured.
func cloids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%08d", prefix, i)
	}
	return out
}

// prices pre-builds n distinct prices around 0.05 on the ETHBTC tick.
func prices(n int) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.New(40000+int64(i%2000), -6) // 0.040000 .. 0.041999
	}
	return out
}

// BenchmarkPlaceCancel places a resting limit order and cancels it; each
// iteration is two order operations.
func BenchmarkPlaceCancel(b *testing.B) {
	v := benchEnv(b, Options{})
	ids := cloids("pc", 1<<16)
	ps := prices(1 << 10)
	side, qty := Buy, decimal.RequireFromString("0.5")
	// Keep a standing book of 1000 orders, so inserts land among levels.
	for i := 0; i < 1000; i++ {
		id := fmt.Sprintf("standing%05d", i)
		req := PlaceRequest{Account: "maker", ClientOrderID: &id, Symbol: "ETHBTC", Side: &side, Quantity: &qty, Price: &ps[i%len(ps)]}
		if _, err := v.e.Place(req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%(1<<16) == 0 && i > 0 {
			// Canceled orders without executions leave history after 24h;
			// move time so the IDs free up and history stays bounded.
			v.clk.Advance(25 * time.Hour)
		}
		id := &ids[i%len(ids)]
		req := PlaceRequest{Account: "taker", ClientOrderID: id, Symbol: "ETHBTC", Side: &side, Quantity: &qty, Price: &ps[i%len(ps)]}
		if _, err := v.e.Place(req); err != nil {
			b.Fatal(err)
		}
		if _, err := v.e.Cancel("taker", *id); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportOps(b, 2)
}

// BenchmarkMatch places a resting maker and a taker that fills it; each
// iteration is two order operations and one trade.
func BenchmarkMatch(b *testing.B) {
	v := benchEnv(b, Options{})
	sell, buy := Sell, Buy
	qty := decimal.RequireFromString("0.5")
	price := decimal.RequireFromString("0.05")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := v.e.Place(PlaceRequest{Account: "maker", Symbol: "ETHBTC", Side: &sell, Quantity: &qty, Price: &price}); err != nil {
			b.Fatal(err)
		}
		o, err := v.e.Place(PlaceRequest{Account: "taker", Symbol: "ETHBTC", Side: &buy, Quantity: &qty, Price: &price})
		if err != nil || o.Status != Filled {
			b.Fatal(o.Status, err)
		}
	}
	b.StopTimer()
	reportOps(b, 2)
}

// BenchmarkSweep has one taker cross ten makers at five price levels; each
// iteration is eleven order operations and ten trades.
func BenchmarkSweep(b *testing.B) {
	v := benchEnv(b, Options{})
	sell, buy := Sell, Buy
	qty := decimal.RequireFromString("0.1")
	big := decimal.RequireFromString("1")
	ps := []decimal.Decimal{decimal.RequireFromString("0.050000"), decimal.RequireFromString("0.050001"),
		decimal.RequireFromString("0.050002"), decimal.RequireFromString("0.050003"), decimal.RequireFromString("0.050004")}
	top := ps[len(ps)-1]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < 10; j++ {
			if _, err := v.e.Place(PlaceRequest{Account: "maker", Symbol: "ETHBTC", Side: &sell, Quantity: &qty, Price: &ps[j%len(ps)]}); err != nil {
				b.Fatal(err)
			}
		}
		o, err := v.e.Place(PlaceRequest{Account: "taker", Symbol: "ETHBTC", Side: &buy, Quantity: &big, Price: &top})
		if err != nil || o.Status != Filled || len(o.Trades()) != 10 {
			b.Fatal(o.Status, err)
		}
	}
	b.StopTimer()
	reportOps(b, 11)
}

// BenchmarkMixed is a blend: resting places, cancels, crossing takers,
// market orders and reads, over a book that keeps some depth.
func BenchmarkMixed(b *testing.B) {
	v := benchEnv(b, Options{})
	sell, buy := Sell, Buy
	qty := decimal.RequireFromString("0.3")
	mkt, ioc := Market, IOC
	bids, asks := make([]decimal.Decimal, 50), make([]decimal.Decimal, 50)
	for i := range bids {
		bids[i] = decimal.New(49950-int64(i), -6)
		asks[i] = decimal.New(50050+int64(i), -6)
	}
	var live []string
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%(1<<16) == 0 && i > 0 {
			v.clk.Advance(25 * time.Hour)
		}
		var err error
		switch i % 10 {
		case 0, 1, 2: // resting bids and asks, with generated IDs
			req := PlaceRequest{Account: "maker", Symbol: "ETHBTC", Side: &buy, Quantity: &qty, Price: &bids[i%50]}
			if i%2 == 0 {
				req.Side, req.Price = &sell, &asks[i%50]
			}
			var o Order
			o, err = v.e.Place(req)
			live = append(live, o.ClientOrderID())
		case 3, 4: // cancels
			if len(live) > 0 {
				id := live[len(live)-1]
				live = live[:len(live)-1]
				v.e.Cancel("maker", id) // may already be filled
			}
		case 5, 6: // crossing limit IOC takers
			req := PlaceRequest{Account: "taker", Symbol: "ETHBTC", Side: &buy, Quantity: &qty, Price: &asks[10], TimeInForce: &ioc}
			if i%2 == 0 {
				req.Side, req.Price = &sell, &bids[10]
			}
			_, err = v.e.Place(req)
		case 7: // market
			side := &buy
			if i%2 == 0 {
				side = &sell
			}
			_, err = v.e.Place(PlaceRequest{Account: "taker", Symbol: "ETHBTC", Side: side, Quantity: &qty, Type: &mkt, TimeInForce: &ioc})
		case 8:
			if len(live) > 0 {
				v.e.Get("maker", live[len(live)/2]) // may be gone
			}
		case 9:
			_, err = v.e.Active("taker", "ETHBTC")
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportOps(b, 1)
}

// BenchmarkParallelPlaceCancel is BenchmarkPlaceCancel from every CPU at
// once, one account per goroutine (the engine lock serialises them).
func BenchmarkParallelPlaceCancel(b *testing.B) {
	v := benchEnv(b, Options{})
	ps := prices(1 << 10)
	qty := decimal.RequireFromString("0.5")
	var n atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		acct := fmt.Sprintf("p%d", n.Add(1))
		v.l.Credit(acct, "BTC", decimal.New(1, 9))
		ids := cloids(acct+"x", 1<<14)
		side := Buy
		for i := 0; pb.Next(); i++ {
			id := &ids[i%len(ids)]
			if _, err := v.e.Place(PlaceRequest{Account: acct, ClientOrderID: id, Symbol: "ETHBTC", Side: &side, Quantity: &qty, Price: &ps[i%len(ps)]}); err != nil {
				if k, _ := kindOf(err); k == ErrDuplicateClientID {
					v.clk.Advance(25 * time.Hour) // recycle IDs
					continue
				}
				b.Error(err)
				return
			}
			v.e.Cancel(acct, *id)
		}
	})
	b.StopTimer()
	reportOps(b, 2)
}

func reportOps(b *testing.B, perIter int) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N*perIter)/s, "ops/s")
	}
}

// TestRestingHeap rests 25,000 orders (one user's limit) and reports the
// peak heap; it fails above 100 MiB.
func TestRestingHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("memory measurement")
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	v := benchEnv(t, Options{MaxActivePerSymbol: 25000})
	side := Buy
	qty := decimal.RequireFromString("0.5")
	ps := prices(2000)
	ids := cloids("heap", 25000)
	var peak uint64
	for i := range ids {
		req := PlaceRequest{Account: "maker", ClientOrderID: &ids[i], Symbol: "ETHBTC", Side: &side, Quantity: &qty, Price: &ps[i%len(ps)]}
		if _, err := v.e.Place(req); err != nil {
			t.Fatal(err)
		}
		if i%5000 == 4999 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
	}
	v.refuse(PlaceRequest{Account: "maker", Symbol: "ETHBTC", Side: &side, Quantity: &qty, Price: &ps[0]}, ErrOrderLimit)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	live := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	t.Logf("25,000 resting orders: peak heap %.1f MiB, live after GC %.1f MiB (%.0f bytes/order)",
		float64(peak)/(1<<20), float64(live)/(1<<20), float64(live)/25000)
	if peak > 100<<20 {
		t.Fatalf("peak heap %.1f MiB over 100 MiB", float64(peak)/(1<<20))
	}
	runtime.KeepAlive(v)
}
