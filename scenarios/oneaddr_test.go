package scenarios

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// delayRelay stands in for a remote target: it relays every connection to
// upstream (host:port) from its own address, as a proxy or a NAT does, so
// the target sees one peer for all, and holds every chunk of bytes for
// delay in each direction, as a network path does. It returns the relay's
// base URL.
func delayRelay(tb testing.TB, upstream string, delay time.Duration) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	tb.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range open {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", upstream)
			if err != nil {
				_ = in.Close()
				continue
			}
			mu.Lock()
			open = append(open, in, out)
			mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); delayCopy(out, in, delay) }()
			go func() { defer wg.Done(); delayCopy(in, out, delay) }()
		}
	}()
	return "http://" + ln.Addr().String()
}

// delayCopy copies src to dst, each chunk delay after it was read, in
// order; when src ends it closes dst for writing (after what is in flight).
func delayCopy(dst, src net.Conn, delay time.Duration) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	chunks := make(chan chunk, 1024)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{buf[:n], time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.b); err != nil {
			_ = src.Close()
			for range chunks { // let the reader finish
			}
			return
		}
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	} else {
		_ = dst.Close()
	}
}

// The relay itself: bytes arrive whole, in order, delay later.
func TestDelayRelay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = io.Copy(c, c) // echo
	}()
	relay := strings.TrimPrefix(delayRelay(t, ln.Addr().String(), 20*time.Millisecond), "http://")
	c, err := net.Dial("tcp", relay)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	msg := strings.Repeat("x", 100<<10)
	go func() { _, _ = c.Write([]byte(msg)) }()
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != msg {
		t.Fatal("the relay changed the bytes")
	}
	if rtt := time.Since(start); rtt < 40*time.Millisecond {
		t.Errorf("a round trip took %s through a relay adding 20 ms each way", rtt)
	}
}

// oneAddressRules are the rows the one-address test runs: a REST row (and
// the v2 market data reading in its lane), a stream row, a per-account
// stream row and v2's per-user row, each in a lane of its own, so the run
// takes about as long as one row.
var oneAddressRules = []string{"V3-LIMIT-IP-PUBLIC", "V2-LIMIT-BURST", "V3-LIMIT-WS-PUBLIC-MSG", "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE", "V2-LIMIT-OTHER"}

// runOneAddress runs oneAddressRules from one address against an emulator
// with faults (its control plane off) behind a relay adding 20 ms each
// way. A run the harness could not time is run once more.
func runOneAddress(t *testing.T, faults ...string) *Results {
	base := startEmulator(t, faults...)
	relay := delayRelay(t, strings.TrimPrefix(base, "http://"), 20*time.Millisecond)
	cfg := emulatorConfig(t, relay, nil)
	cfg.Wants = func(rule string) bool {
		for _, r := range oneAddressRules {
			if r == rule {
				return true
			}
		}
		return false
	}
	var res *Results
	for attempt := 0; attempt < 2; attempt++ {
		var err error
		res, err = RunOneAddress(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", res.Summary())
		undecided := false
		for _, id := range oneAddressRules {
			undecided = undecided || len(res.Judge(id).Inconclusive) > 0
		}
		if !undecided {
			break
		}
	}
	return res
}

// From one address over a delayed path, the rows hold against the honest
// emulator; with a row's fault on, that row fails. A verdict the harness
// could not time twice (a loaded machine) is inconclusive: the test then
// says so and skips, never passes a fault nor fails the honest target.
func TestOneAddressOverADelayedPath(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults []string
	}{
		{"honest", nil},
		{"faulty", []string{"V3-LIMIT-IP-PUBLIC", "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := runOneAddress(t, tc.faults...)
			if res.Path == nil || res.Path.Min < 40*time.Millisecond {
				t.Errorf("the path was not measured through a relay adding 20 ms each way: %v", res.Path)
			}
			for _, id := range oneAddressRules {
				v := res.Judge(id)
				broken := false
				for _, f := range tc.faults {
					broken = broken || f == id
				}
				switch {
				case v.Skipped != "":
					t.Errorf("%s skipped: %s", id, v.Skipped)
				case broken && len(v.Problems) == 0 && len(v.Inconclusive) > 0:
					t.Skipf("%s: inconclusive under its fault (the machine too loaded to time it): %s", id, strings.Join(v.Inconclusive, "; "))
				case broken && len(v.Problems) == 0:
					t.Errorf("%s: the fault went unnoticed from one address", id)
				case !broken && len(v.Problems) > 0:
					t.Errorf("%s: %s", id, strings.Join(v.Problems, "\n"))
				case !broken && len(v.Inconclusive) > 0:
					t.Logf("%s: inconclusive: %s", id, strings.Join(v.Inconclusive, "; "))
				}
			}
		})
	}
}

// On a target that may not trade (no sandbox declared, no live trading
// allowed: a nil guard), the one-address rows that trade are skipped with
// the guard's reason and nothing of theirs is sent; the rows that need no
// trading run all the same.
func TestOneAddressObeysTheGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds")
	}
	t.Parallel()
	base := startEmulator(t)
	cfg := emulatorConfig(t, delayRelay(t, strings.TrimPrefix(base, "http://"), 5*time.Millisecond), nil)
	cfg.Guard = nil
	cfg.Wants = func(rule string) bool {
		return rule == "V3-LIMIT-ACCT-WS-TRADING-ORDER" || rule == "V3-LIMIT-IP-WALLET"
	}
	res, err := RunOneAddress(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Judge("V3-LIMIT-ACCT-WS-TRADING-ORDER"); !strings.Contains(v.Skipped, "trad") {
		t.Errorf("the order row on a target that may not trade: skipped %q, inconclusive %q", v.Skipped, v.Inconclusive)
	}
	if v := res.Judge("V3-LIMIT-IP-WALLET"); v.Skipped != "" || len(v.Problems) > 0 {
		t.Errorf("a row that needs no trading: skipped %q, problems %q", v.Skipped, v.Problems)
	}
}
