package client

import (
	"context"
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
