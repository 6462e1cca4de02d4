package client

import (
	"context"
	"testing"
	"time"
)

func TestBudgetWaitsOnlyWhenTheWindowIsFull(t *testing.T) {
	classes := []PathClass{{Prefixes: []string{"/"}, Rate: 4}, {Prefixes: []string{"/public/"}, Rate: 0}}
	cases := []struct {
		name     string
		path     string
		sends    int
		wantWait bool
	}{
		{"under the rate minus one", "/account/balance", 3, false},
		{"at the rate minus one", "/account/balance", 4, true},
		{"an uncounted class", "/public/ticker", 50, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBudget(classes)
			now := time.Unix(1000, 0)
			b.now = func() time.Time { return now }
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			var err error
			for i := 0; i < c.sends && err == nil; i++ {
				err = b.Wait(ctx, c.path)
			}
			if waited := err != nil; waited != c.wantWait {
				t.Errorf("%d sends to %s: waited %t (%v), want %t", c.sends, c.path, waited, err, c.wantWait)
			}
		})
	}
}

func TestBudgetSaturateAndQuiet(t *testing.T) {
	b := NewBudget([]PathClass{{Prefixes: []string{"/"}, Rate: 4}})
	now := time.Unix(1000, 0)
	b.now = func() time.Time { return now }
	b.Saturate()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Wait(ctx, "/x"); err == nil {
		t.Fatal("a saturated budget let a request through at once")
	}
	if err := b.Quiet(ctx); err == nil {
		t.Fatal("Quiet returned before the window passed")
	}
	now = now.Add(2 * time.Second)
	if err := b.Quiet(context.Background()); err != nil {
		t.Fatalf("Quiet after the window: %v", err)
	}
	if err := b.Wait(context.Background(), "/x"); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}
