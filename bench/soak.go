package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
)

// soak drives the emulator at the documented trading rate (300 requests per
// second: places, cancels and crossing pairs that trade) for d and prints
// the process's RSS over time. After a warm-up (the history filling up to
// its retention) every sample must stay within ±10% of their median.
func soak(d time.Duration, rate, keep int) error {
	fmt.Printf("== soak: %s at %d requests/s (place far from the market and cancel; one in ten a trade), retention %d orders and trades per account\n", d, rate, keep)
	emu, err := emulator.New(emulator.Options{NoLimits: true, Accounts: benchAccounts(), Retention: emulator.Retention{Orders: keep, Trades: keep}})
	if err != nil {
		return err
	}
	if err := emu.Start(); err != nil {
		return err
	}
	defer emu.Close()
	tr := client.DefaultTransport()
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	base := emu.URL() + "/api/3/spot/order"
	do := func(method, who, u string, form url.Values) (map[string]any, error) {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, u, body)
		req.Header.Set("Authorization", auth(who))
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			return nil, fmt.Errorf("%s %s: %d %s", method, u, resp.StatusCode, raw)
		}
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return out, nil
	}
	// Warm-up: until the history has filled to its retention (trades, one
	// in ten requests, fill last), with a margin, or 30% of the run.
	warm := max(d*3/10, time.Duration(float64(keep)/(float64(rate)/10)*1.5*float64(time.Second)))
	every := max(d/30, 5*time.Second)
	// Requests are due on a fixed schedule (request k at start + k/rate);
	// four workers, each with its own account, take them in turn, so a slow
	// answer delays no other request and the offered rate holds. The trades
	// are all between two accounts (BENCH5 sells, BENCH6 buys), so that
	// their trade histories fill within the warm-up.
	const workers = 4
	due := make(chan int, rate)
	errs := make(chan error, workers)
	var sent atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			me := fmt.Sprintf("BENCH%d", w+1)
			var open string
			for k := range due {
				// Every 10th of a worker's requests a resting sell, the
				// next a buy that takes it (a trade); in between a resting
				// buy far from the market, then its cancel.
				var err error
				switch n := k / workers; {
				case n%10 == 8:
					_, err = do("POST", "BENCH5", base, url.Values{"symbol": {"BTCUSDT"}, "side": {"sell"}, "quantity": {"0.001"}, "price": {"50000"}})
				case n%10 == 9:
					_, err = do("POST", "BENCH6", base, url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "quantity": {"0.001"}, "price": {"50000"}})
				case open == "":
					var o map[string]any
					o, err = do("POST", me, base, url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "quantity": {"0.001"}, "price": {strconv.Itoa(100 + n%1000)}})
					if err == nil {
						open, _ = o["client_order_id"].(string)
					}
				default:
					_, err = do("DELETE", me, base+"/"+open, nil)
					open = ""
				}
				if err != nil {
					errs <- err
					return
				}
				sent.Add(1)
			}
		}()
	}
	start := time.Now()
	nextSample := start
	var samples []float64
	var failed error
	for k := 0; failed == nil; k++ {
		at := start.Add(time.Duration(k) * time.Second / time.Duration(rate))
		if at.Sub(start) >= d {
			break
		}
		time.Sleep(time.Until(at))
		if now := time.Now(); !now.Before(nextSample) {
			rss := rssMiB()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			mark := ""
			if now.Sub(start) >= warm {
				samples = append(samples, rss)
				mark = " *"
			}
			fmt.Printf("%7s  requests %8d  RSS %7.1f MiB  heap in use %7.1f MiB%s\n", now.Sub(start).Round(time.Second), sent.Load(), rss, float64(m.HeapInuse)/(1<<20), mark)
			nextSample = nextSample.Add(every)
		}
		select {
		case due <- k:
		case failed = <-errs:
		}
	}
	close(due)
	wg.Wait()
	if failed == nil {
		select {
		case failed = <-errs:
		default:
		}
	}
	if failed != nil {
		return failed
	}
	el := time.Since(start)
	fmt.Printf("offered %d requests in %s (%.1f/s)\n", sent.Load(), el.Round(time.Millisecond), float64(sent.Load())/el.Seconds())
	if len(samples) < 2 {
		return fmt.Errorf("soak too short to judge: %d samples after the %s warm-up", len(samples), warm)
	}
	med := median(samples)
	lo, hi := slices.Min(samples), slices.Max(samples)
	fmt.Printf("RSS after warm-up: median %.1f MiB, min %.1f (%+.1f%%), max %.1f (%+.1f%%)\n", med, lo, 100*(lo/med-1), hi, 100*(hi/med-1))
	if lo < med*0.9 || hi > med*1.1 {
		return fmt.Errorf("RSS not flat: outside ±10%% of its median")
	}
	fmt.Println("RSS flat: within ±10% of its median")
	return nil
}

// rssMiB is the process's resident set size.
func rssMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
