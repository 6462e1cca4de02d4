package client

import (
	"context"
	"slices"
	"sort"
	"testing"
	"time"
)

func TestPacerClassesAndSpacing(t *testing.T) {
	p := NewPacer(testClasses, 1)
	cases := map[string]int{"/public/symbol": 30, "/spot/order": 300, "/spot/order/abc": 300, "/spot/balance": 20, "/margin/position/isolated/X": 300, "/wallet/balance": 10, "/buy-crypto/provider/1/rate": 10}
	for path, rate := range cases {
		if got := testClasses[p.classOf(path)].Rate; got != rate {
			t.Errorf("%s: rate %d, want %d", path, got, rate)
		}
	}
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a wait that is needed now fails at once, which shows it was needed
	var allowed int
	for i := 0; i < 100; i++ {
		if p.Wait(ctx, "/public/currency") == nil {
			allowed++
		}
	}
	if allowed != 1 {
		t.Errorf("%d requests allowed at one instant, want 1 (spaced at under 30/s)", allowed)
	}
	p2 := NewPacer(testClasses, 1)
	p2.now = func() time.Time { return clock }
	p2.Backoff("/public/x")
	if err := p2.Wait(ctx, "/public/x"); err == nil {
		t.Error("no wait after a 429")
	}
}

// testClasses are the v3 per-IP REST rows (rules.Limits, which client does not import).
var testClasses = []PathClass{
	{Prefixes: []string{"/"}, Rate: 20},
	{Prefixes: []string{"/public/"}, Rate: 30},
	{Prefixes: []string{"/wallet/"}, Rate: 10},
	{Prefixes: []string{"/buy-crypto/provider/"}, Rate: 10},
	{Prefixes: []string{"/spot/order"}, Rate: 300},
	{Prefixes: []string{"/margin/order", "/margin/account", "/margin/position"}, Rate: 300},
}

// Two pacers sharing one address's rows (share 1/2), driven by specs that
// send in bursts and pauses, never exceed a row under either reading of
// rate and burst: at most rate+burst in any 1-second window, and a bucket
// of burst tokens refilled at rate never runs dry. Bursts up to the
// pacer's share of the burst go without a wait.
func TestPacerStaysWithinRateAndBurst(t *testing.T) {
	classes := []PathClass{{Prefixes: []string{"/"}, Rate: 20, Burst: 30}, {Prefixes: []string{"/public/"}, Rate: 30, Burst: 50}}
	for _, c := range classes {
		start := time.Unix(1000, 0)
		var sent []time.Time
		for proc := range 2 {
			clock := start
			p := NewPacer(classes, 0.5)
			p.now = func() time.Time { return clock }
			path := c.Prefixes[0] + "x"
			// Bursts of 1 to 40 requests, each sent when its wait is over,
			// with pauses of 0 to 1.5 s between them, for a minute.
			for i := 0; clock.Before(start.Add(time.Minute)); i++ {
				for range 1 + (i*7+proc*3)%40 {
					clock = clock.Add(p.reserve(path))
					sent = append(sent, clock)
				}
				clock = clock.Add(time.Duration((i*37+proc*11)%16) * 100 * time.Millisecond)
			}
		}
		expectWithinRow(t, c, start, sent)
	}
	// A burst within the share of the burst goes at once.
	p := NewPacer(classes, 0.5)
	for i := range 13 { // 30 * 0.5 * 0.9 = 13.5
		if d := p.reserve("/spot/balance"); d > 0 {
			t.Fatalf("request %d of a burst of 13 waits %s", i+1, d)
		}
	}
	if d := p.reserve("/spot/balance"); d <= 0 {
		t.Error("the 14th request of a burst goes at once, beyond the share of the burst")
	}
}

// A request is paced by the rows of the API version its path is under,
// whichever version the client speaks; other paths by the client's pacer.
func TestPacerOfVersion(t *testing.T) {
	v3, v2, fallback := NewPacer(testClasses, 1), NewPacer(testClasses, 1), NewPacer(testClasses, 1)
	for _, tc := range []struct {
		prefix, path string
		want         *Pacer
		rel          string
		own          bool
	}{
		{"/api/3", "/api/3/public/symbol", v3, "/public/symbol", true},
		{"/api/3", "/api/2/public/ticker", v2, "/public/ticker", false},
		{"/api/2", "/api/2/public/ticker", v2, "/public/ticker", true},
		{"/api/2", "/api/3/spot/balance", v3, "/spot/balance", false},
		{"/api/3", "/_conform/info", fallback, "/_conform/info", false},
	} {
		c, err := New("http://127.0.0.1:1", WithPrefix(tc.prefix), WithPacer(fallback), WithPacerFor("/api/3", v3), WithPacerFor("/api/2", v2))
		if err != nil {
			t.Fatal(err)
		}
		p, rel, own := c.pacerOf(tc.path)
		if p != tc.want || rel != tc.rel || own != tc.own {
			t.Errorf("%s client, %s: pacer %p path %q own %v; want %p %q %v", tc.prefix, tc.path, p, rel, own, tc.want, tc.rel, tc.own)
		}
	}
}

// expectWithinRow fails t unless the requests sent keep within row c under
// either reading of rate and burst: at most rate+burst in any 1-second
// window, and a bucket of burst tokens refilled at rate never runs dry.
func expectWithinRow(t *testing.T, c PathClass, start time.Time, sent []time.Time) {
	t.Helper()
	slices.SortFunc(sent, func(a, b time.Time) int { return a.Compare(b) })
	for i := range sent {
		j := sort.Search(len(sent), func(j int) bool { return !sent[j].Before(sent[i].Add(time.Second)) })
		if n := j - i; n > c.Rate+c.Burst {
			t.Fatalf("%s: %d requests in the second from %s, want at most %d", c.Prefixes[0], n, sent[i].Sub(start), c.Rate+c.Burst)
		}
	}
	tokens, at := float64(c.Burst), start
	for _, s := range sent {
		tokens = min(float64(c.Burst), tokens+s.Sub(at).Seconds()*float64(c.Rate))
		at = s
		if tokens < 1 {
			t.Fatalf("%s: a request at %s finds the bucket of %d refilled at %d/s empty", c.Prefixes[0], s.Sub(start), c.Burst, c.Rate)
		}
		tokens--
	}
}
