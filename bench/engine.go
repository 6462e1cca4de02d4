package main

import (
	"fmt"
	"runtime"
	"syscall"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/i25959341/orderbook"
	"github.com/shopspring/decimal"
)

// opsPerIter is the reference's own count for one iteration of its
// BenchmarkLimitOrder: 30 resting limits, one sweeping limit, one market.
const opsPerIter = 32

// result is one timed run of a workload.
type result struct {
	nsPerOp     float64
	allocsPerOp float64
	bytesPerOp  float64
	opsPerSec   float64
	// cpuOpsPerSec is operations per second of the process's CPU time
	// (user and system, GC threads included): what other processes on a
	// shared machine skew far less than wall time.
	cpuOpsPerSec float64
}

// cpuTime is the process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs iter for about d and reports per-operation figures (ops
// operations per iteration), allocations per iteration included.
func measure(d time.Duration, ops int, iter func(i int)) result {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, cpu := time.Now(), cpuTime()
	n := 0
	for ; (*iters > 0 && n < *iters) || (*iters <= 0 && (n%64 != 0 || time.Since(start) < d)); n++ {
		iter(n)
	}
	el, cpuEl := time.Since(start), cpuTime()-cpu
	runtime.ReadMemStats(&after)
	total := float64(n * ops)
	return result{nsPerOp: float64(el.Nanoseconds()) / total,
		allocsPerOp:  float64(after.Mallocs-before.Mallocs) / float64(n),
		bytesPerOp:   float64(after.TotalAlloc-before.TotalAlloc) / total,
		opsPerSec:    total / el.Seconds(),
		cpuOpsPerSec: total / max(cpuEl.Seconds(), 1e-9)}
}

// referenceWorkload is BenchmarkLimitOrder of github.com/i25959341/orderbook
// v0.2.5, verbatim but for the stopwatch.
func referenceWorkload() func(int) {
	ob := orderbook.NewOrderBook()
	addDepth := func(prefix string, quantity decimal.Decimal) {
		for i := 50; i < 100; i = i + 10 {
			ob.ProcessLimitOrder(orderbook.Buy, fmt.Sprintf("%sbuy-%d", prefix, i), quantity, decimal.New(int64(i), 0))
		}
		for i := 100; i < 150; i = i + 10 {
			ob.ProcessLimitOrder(orderbook.Sell, fmt.Sprintf("%ssell-%d", prefix, i), quantity, decimal.New(int64(i), 0))
		}
	}
	return func(int) {
		addDepth("05-", decimal.New(10, 0))
		addDepth("10-", decimal.New(10, 0))
		addDepth("15-", decimal.New(10, 0))
		ob.ProcessLimitOrder(orderbook.Buy, "order-b150", decimal.New(160, 0), decimal.New(150, 0))
		ob.ProcessMarketOrder(orderbook.Sell, decimal.New(200, 0))
	}
}

// engineWorkload is the same 32 operations on our engine with its ledger and
// fees on: a buyer rests the bids, a seller the asks, a third account
// sweeps the asks with a limit buy and the bids with a market sell. Every
// order reserves funds, every trade settles both sides and their fees in
// the ledger.
func engineWorkload() (func(int), error) {
	e, _, clk, err := benchEngine()
	if err != nil {
		return nil, err
	}
	buy, sell, mkt := engine.Buy, engine.Sell, engine.Market
	ten := decimal.New(10, 0)
	var bids, asks [5]decimal.Decimal
	for i := range bids {
		bids[i], asks[i] = decimal.New(int64(50+10*i), 0), decimal.New(int64(100+10*i), 0)
	}
	q160, p150, q200 := decimal.New(160, 0), decimal.New(150, 0), decimal.New(200, 0)
	place := func(r engine.PlaceRequest) {
		r.Symbol = "BENCHUSD"
		if _, err := e.Place(r); err != nil {
			panic(fmt.Sprintf("bench: %v", err))
		}
	}
	return func(i int) {
		if i%4096 == 4095 {
			clk.Advance(time.Minute) // time moves on, as it does on a server
		}
		for r := 0; r < 3; r++ {
			for j := range bids {
				place(engine.PlaceRequest{Account: "buyer", Side: &buy, Quantity: &ten, Price: &bids[j]})
			}
			for j := range asks {
				place(engine.PlaceRequest{Account: "seller", Side: &sell, Quantity: &ten, Price: &asks[j]})
			}
		}
		place(engine.PlaceRequest{Account: "sweeper", Side: &buy, Quantity: &q160, Price: &p150})
		place(engine.PlaceRequest{Account: "sweeper", Side: &sell, Type: &mkt, Quantity: &q200})
	}, nil
}

// benchEngine is an engine over one symbol charging fees in its quote
// currency, with three well-funded accounts.
func benchEngine() (*engine.Engine, *ledger.Ledger, *clock.Manual, error) {
	fs, err := faults.New()
	if err != nil {
		return nil, nil, nil, err
	}
	sym := engine.Symbol{Code: "BENCHUSD", Base: "BENCH", Quote: "USD", FeeCurrency: "USD",
		TickSize: decimal.RequireFromString("0.01"), QuantityStep: decimal.RequireFromString("0.001"),
		TakeRate: decimal.RequireFromString("0.0025"), MakeRate: decimal.RequireFromString("0.001"), Status: "working"}
	l := ledger.New(fs)
	clk := clock.NewManual(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	e := engine.New([]engine.Symbol{sym}, l, clk, fs, engine.Options{Retention: engine.Retention{Orders: *retention, Trades: *retention}})
	for _, a := range []string{"buyer", "seller", "sweeper"} {
		for _, c := range []string{"BENCH", "USD"} {
			if err := l.Credit(a, c, decimal.New(1, 15)); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return e, l, clk, nil
}

// matchWorkload is the pure-match figure: a resting sell and the buy that
// fills it, two operations and one trade per iteration.
func matchWorkload() (func(int), error) {
	e, _, _, err := benchEngine()
	if err != nil {
		return nil, err
	}
	buy, sell := engine.Buy, engine.Sell
	q, p := decimal.New(10, 0), decimal.New(100, 0)
	return func(int) {
		if _, err := e.Place(engine.PlaceRequest{Account: "seller", Symbol: "BENCHUSD", Side: &sell, Quantity: &q, Price: &p}); err != nil {
			panic(fmt.Sprintf("bench: %v", err))
		}
		if _, err := e.Place(engine.PlaceRequest{Account: "buyer", Symbol: "BENCHUSD", Side: &buy, Quantity: &q, Price: &p}); err != nil {
			panic(fmt.Sprintf("bench: %v", err))
		}
	}, nil
}
