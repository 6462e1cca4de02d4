package buycrypto

import (
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

func TestStatusFollowsTheClock(t *testing.T) {
	ps, err := fixtures.Providers()
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(time.Unix(1_700_000_000, 0))
	fs, _ := faults.New()
	s := New(ps, clk, fs)
	place := func(provider, method int64, target string) int64 {
		o, err := s.Place(OrderRequest{Account: "A", ProviderID: provider, MethodID: method, Source: "EUR", Target: target, SourceAmount: decimal.NewFromInt(100)})
		if err != nil {
			t.Fatal(err)
		}
		return o.ID
	}
	done, fail, expire := place(1, 11, "BTC"), place(1, 12, "BTC"), place(2, 21, "ETH")
	want := []struct {
		after   time.Duration
		d, f, e string
	}{
		{0, Initial, Initial, Initial},
		{time.Minute, InProgress, InProgress, Initial},
		{5 * time.Minute, Completed, Failed, Initial},
		{30 * time.Minute, Completed, Failed, Expired},
	}
	start := clk.Now()
	for _, w := range want {
		clk.Set(start.Add(w.after))
		got := map[int64]string{}
		for _, p := range []int64{1, 2} {
			for _, o := range s.Orders(Query{Account: "A", ProviderID: p}) {
				got[o.ID] = o.Status
			}
		}
		if got[done] != w.d || got[fail] != w.f || got[expire] != w.e {
			t.Errorf("after %s: %s/%s/%s, want %s/%s/%s", w.after, got[done], got[fail], got[expire], w.d, w.f, w.e)
		}
	}
	if _, err := s.Place(OrderRequest{Account: "A", ProviderID: 1, MethodID: 11, Source: "EUR", Target: "BTC", SourceAmount: decimal.NewFromInt(10001)}); err == nil {
		t.Error("an order beyond the method's source_max was accepted")
	}
}
