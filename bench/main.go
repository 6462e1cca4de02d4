// Command benchcmp is make bench-compare: our engine beside the public Go
// order book github.com/i25959341/orderbook on that book's own benchmark
// workload, conform load beside wrk on one trivial endpoint (net/http, then
// a light target that leaves the machine to the generators), and the
// emulator's HTTP order placement beside a bare net/http handler. Each pair
// runs in one process, one after the other, for several rounds; the
// figures of record are the ratios (median of the rounds), since absolute
// times on a shared machine say little.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 5, "rounds of each pair")
	dur := flag.Duration("time", time.Second, "time per side per round (engine pairs)")
	netDur := flag.Duration("net-time", 3*time.Second, "time per side per round (HTTP and load pairs)")
	only := flag.String("only", "engine,match,http,load,ws", "which comparisons to run (soak: the memory soak instead)")
	wsSubs := flag.Int("ws-subscribers", 5000, "subscribers of the ws comparison")
	wsRate := flag.Int("ws-rate", 100, "trades per second of the ws comparison")
	wsDur := flag.Duration("ws-time", 10*time.Second, "time per side of the ws comparison")
	soakDur := flag.Duration("soak-duration", 10*time.Minute, "how long the soak runs")
	soakRate := flag.Int("soak-rate", 300, "requests per second of the soak (the documented trading rate)")
	soakKeep := flag.Int("soak-retention", 2000, "the emulator's retention (orders and trades per account) during the soak")
	retention = flag.Int("retention", 0, "the engine's history retention per account (0: the default, 101,000)")
	warmup = flag.Duration("warmup", time.Second, "untimed run of each side before its stopwatch starts (engine pairs; 0: cold)")
	iters = flag.Int("iters", 0, "a fixed number of iterations per side instead of -time (for instruction counts under valgrind --tool=callgrind)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	memprofile := flag.String("memprofile", "", "write an allocation profile at the end to this file")
	flag.Parse()
	if *memprofile != "" {
		runtime.MemProfileRate = 4096
		defer func() {
			f, err := os.Create(*memprofile)
			if err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	want := func(s string) bool { return slices.Contains(strings.Split(*only, ","), s) }
	failed := false
	run := func(name string, f func() error) {
		if !want(name) {
			return
		}
		if err := f(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			failed = true
		}
		fmt.Println()
	}
	run("engine", func() error { return compareEngine(*rounds, *dur) })
	// One side alone, for instruction counts: valgrind --tool=callgrind
	// go run . -only engine-side -iters 20000 (and reference-side).
	run("reference-side", func() error {
		m := measure(*dur, opsPerIter, referenceWorkload())
		fmt.Printf("reference: %.0f ns/op %.1f allocs/iter\n", m.nsPerOp, m.allocsPerOp)
		return nil
	})
	run("engine-side", func() error {
		w, err := engineWorkload()
		if err != nil {
			return err
		}
		m := measure(*dur, opsPerIter, w)
		fmt.Printf("engine: %.0f ns/op %.1f allocs/iter\n", m.nsPerOp, m.allocsPerOp)
		return nil
	})
	run("match", func() error { return pureMatch(*rounds, *dur) })
	run("http", func() error { return compareHTTP(*rounds, *netDur) })
	run("load", func() error { return compareLoad(*rounds, *netDur) })
	run("ws", func() error { return compareWS(*wsSubs, *wsRate, *wsDur) })
	run("soak", func() error { return soak(*soakDur, *soakRate, *soakKeep) })
	if failed {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// retention and iters are the -retention and -iters flags, warmup the
// -warmup flag.
var (
	retention, iters *int
	warmup           *time.Duration
)

// warm runs iter untimed for d and returns the iterations that follow: each
// side reaches its steady state before it is timed (our engine's history
// fills up to its retention within a fraction of a second, and a cold heap
// growing to that size is not what a running emulator pays).
func warm(d time.Duration, iter func(int)) func(int) {
	n := 0
	for start := time.Now(); *iters <= 0 && (n%64 != 0 || time.Since(start) < d); n++ {
		iter(n)
	}
	return func(i int) { iter(n + i) }
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// spread is the range of a pair's round ratios, printed beside their
// median: on a shared machine one run's rounds move by a tenth or more.
func spread(xs []float64) string {
	return fmt.Sprintf("rounds %.2f-%.2f", slices.Min(xs), slices.Max(xs))
}

func compareEngine(rounds int, d time.Duration) error {
	fmt.Printf("== engine vs github.com/i25959341/orderbook v0.2.5, its BenchmarkLimitOrder workload (32 operations per iteration; ours with ledger and fees on; each side timed after a %s untimed warm-up)\n", *warmup)
	var ratios, cpuRatios, refNs, engNs, refAl, engAl, refB, engB []float64
	for r := 1; r <= rounds; r++ {
		ref := measure(d, opsPerIter, warm(*warmup, referenceWorkload()))
		w, err := engineWorkload()
		if err != nil {
			return err
		}
		eng := measure(d, opsPerIter, warm(*warmup, w))
		ratio, cpuRatio := eng.opsPerSec/ref.opsPerSec, eng.cpuOpsPerSec/ref.cpuOpsPerSec
		fmt.Printf("round %d: reference %8.0f ns/op %9.0f ops/s %6.0f allocs/iter | engine %8.0f ns/op %9.0f ops/s %6.0f allocs/iter | ratio %.2f (by CPU time %.2f)\n",
			r, ref.nsPerOp, ref.opsPerSec, ref.allocsPerOp, eng.nsPerOp, eng.opsPerSec, eng.allocsPerOp, ratio, cpuRatio)
		ratios, cpuRatios = append(ratios, ratio), append(cpuRatios, cpuRatio)
		refNs, engNs = append(refNs, ref.nsPerOp), append(engNs, eng.nsPerOp)
		refAl, engAl = append(refAl, ref.allocsPerOp), append(engAl, eng.allocsPerOp)
		refB, engB = append(refB, ref.bytesPerOp), append(engB, eng.bytesPerOp)
	}
	fmt.Printf("reference: %.0f ns/op, %.0f allocs/iter (%.1f allocs/op, %.0f B/op)\n", median(refNs), median(refAl), median(refAl)/opsPerIter, median(refB))
	fmt.Printf("engine:    %.0f ns/op, %.0f allocs/iter (%.1f allocs/op, %.0f B/op)\n", median(engNs), median(engAl), median(engAl)/opsPerIter, median(engB))
	fmt.Printf("engine/reference ratio: %.2f (%s; target >= 2.00); by CPU time (operations per CPU-second, GC included): %.2f\n", median(ratios), spread(ratios), median(cpuRatios))
	return nil
}

func pureMatch(rounds int, d time.Duration) error {
	fmt.Println("== pure match: a resting sell and the buy that fills it (2 operations, 1 trade per iteration)")
	var rates, cpuRates, allocs []float64
	for r := 1; r <= rounds; r++ {
		w, err := matchWorkload()
		if err != nil {
			return err
		}
		m := measure(d, 2, warm(*warmup, w))
		fmt.Printf("round %d: %8.0f ns/op %9.0f ops/s (%9.0f per CPU-second) %5.1f allocs/op\n", r, m.nsPerOp, m.opsPerSec, m.cpuOpsPerSec, m.allocsPerOp/2)
		rates, cpuRates, allocs = append(rates, m.opsPerSec), append(cpuRates, m.cpuOpsPerSec), append(allocs, m.allocsPerOp/2)
	}
	fmt.Printf("pure match: %.0f ops/s (%.0f per CPU-second, GC included), %.1f allocs/op (target >= 1000000 ops/s)\n", median(rates), median(cpuRates), median(allocs))
	return nil
}
