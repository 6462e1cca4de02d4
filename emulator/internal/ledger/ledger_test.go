package ledger

import (
	"errors"
	"testing"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/shopspring/decimal"
)

func TestCreditKeepsEveryDigit(t *testing.T) {
	l := New(nil)
	amt := decimal.RequireFromString("12345678901234.123456789012345678")
	if err := l.Credit("A", "BTC", amt); err != nil {
		t.Fatal(err)
	}
	if got := l.Balance("A", "BTC").Available; !got.Equal(amt) {
		t.Fatalf("got %s want %s", got, amt)
	}
	if err := l.Credit("A", "BTC", amt.Add(decimal.New(1, 0)).Neg()); err == nil {
		t.Fatal("overdraft accepted")
	}
	if got := l.Balances("A"); len(got) != 1 || got[0].Currency != "BTC" {
		t.Fatalf("balances: %+v", got)
	}
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestReserveRelease(t *testing.T) {
	cases := []struct {
		name       string
		avail      string
		amount     string
		mustExceed bool
		force      bool
		wantErr    bool
		wantAvail  string
		wantRes    string
	}{
		{"covers", "10", "10", false, false, false, "0", "10"},
		{"short", "10", "10.0000001", false, false, true, "10", "0"},
		{"must exceed, equal", "10", "10", true, false, true, "10", "0"},
		{"must exceed, above", "10.01", "10", true, false, false, "0.01", "10"},
		{"forced overdraft", "1", "3", false, true, false, "-2", "3"},
		{"negative", "10", "-1", false, false, true, "10", "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := New(nil)
			if err := l.Credit("A", "BTC", d(c.avail)); err != nil {
				t.Fatal(err)
			}
			err := l.Reserve("A", "BTC", d(c.amount), c.mustExceed, c.force)
			if (err != nil) != c.wantErr {
				t.Fatalf("err %v", err)
			}
			if err != nil && c.amount[0] != '-' && !errors.Is(err, ErrInsufficient) {
				t.Fatalf("error does not wrap ErrInsufficient: %v", err)
			}
			b := l.Balance("A", "BTC")
			if !b.Available.Equal(d(c.wantAvail)) || !b.Reserved.Equal(d(c.wantRes)) {
				t.Fatalf("balance %s / %s", b.Available, b.Reserved)
			}
		})
	}
	l := New(nil)
	l.Credit("A", "BTC", d("5"))
	l.Reserve("A", "BTC", d("3"), false, false)
	if err := l.Release("A", "BTC", d("3.5")); !errors.Is(err, ErrInsufficient) {
		t.Fatalf("over-release: %v", err)
	}
	if err := l.Release("A", "BTC", d("1")); err != nil {
		t.Fatal(err)
	}
	if b := l.Balance("A", "BTC"); !b.Available.Equal(d("3")) || !b.Reserved.Equal(d("2")) {
		t.Fatalf("after release %+v", b)
	}
}

func TestApply(t *testing.T) {
	setup := func() *Ledger {
		l := New(nil)
		l.Credit("A", "BTC", d("1"))
		l.Reserve("A", "BTC", d("1"), false, false)
		l.Credit("B", "ETH", d("10"))
		return l
	}
	cases := []struct {
		name    string
		deltas  []Delta
		wantErr bool
		want    map[[2]string][2]string // account, currency -> available, reserved
	}{
		{"trade", []Delta{
			{Account: "A", Currency: "BTC", Reserved: d("-0.5")},
			{Account: "A", Currency: "ETH", Available: d("10")},
			{Account: "B", Currency: "ETH", Available: d("-10")},
			{Account: "B", Currency: "BTC", Available: d("0.499")},
			{Account: "F", Currency: "BTC", Available: d("0.001")},
		}, false, map[[2]string][2]string{
			{"A", "BTC"}: {"0", "0.5"}, {"A", "ETH"}: {"10", "0"}, {"B", "ETH"}: {"0", "0"},
			{"B", "BTC"}: {"0.499", "0"}, {"F", "BTC"}: {"0.001", "0"},
		}},
		{"deltas on one balance add up first", []Delta{
			{Account: "F", Currency: "BTC", Available: d("-1"), MayOverdraw: false},
			{Account: "F", Currency: "BTC", Available: d("1")},
		}, false, map[[2]string][2]string{{"F", "BTC"}: {"0", "0"}}},
		{"overdraft refused, nothing applied", []Delta{
			{Account: "A", Currency: "ETH", Available: d("5")},
			{Account: "B", Currency: "ETH", Available: d("-11")},
		}, true, map[[2]string][2]string{{"A", "ETH"}: {"0", "0"}, {"B", "ETH"}: {"10", "0"}}},
		{"reserved below zero refused", []Delta{
			{Account: "A", Currency: "BTC", Reserved: d("-1.1"), Available: d("1.1")},
		}, true, map[[2]string][2]string{{"A", "BTC"}: {"0", "1"}}},
		{"house account may overdraw", []Delta{
			{Account: "F", Currency: "BTC", Available: d("-0.1"), MayOverdraw: true},
			{Account: "A", Currency: "BTC", Available: d("0.1")},
		}, false, map[[2]string][2]string{{"F", "BTC"}: {"-0.1", "0"}, {"A", "BTC"}: {"0.1", "1"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := setup()
			before := map[string]decimal.Decimal{"BTC": l.Total("BTC"), "ETH": l.Total("ETH")}
			err := l.Apply(c.deltas...)
			if (err != nil) != c.wantErr {
				t.Fatalf("err %v", err)
			}
			for k, w := range c.want {
				b := l.Balance(k[0], k[1])
				if !b.Available.Equal(d(w[0])) || !b.Reserved.Equal(d(w[1])) {
					t.Errorf("%v: %s / %s, want %s / %s", k, b.Available, b.Reserved, w[0], w[1])
				}
			}
			if c.name == "trade" {
				for cur, tot := range before {
					if !l.Total(cur).Equal(tot) {
						t.Errorf("%s total %s, was %s", cur, l.Total(cur), tot)
					}
				}
				if got := l.Accounts(); len(got) != 3 || got[2] != "F" {
					t.Errorf("accounts %v", got)
				}
			}
		})
	}
}

// TestRef moves balances through handles, mixed with moves by name, before
// the balance exists and across a reset.
func TestRef(t *testing.T) {
	l := New(nil)
	r := NewRef("A", "BTC")
	one := fixed.FromDecimal(d("1"))
	if err := l.ApplyMoves(Move{Ref: r, Available: one}, Move{Account: "A", Currency: "BTC", Available: one}); err != nil {
		t.Fatal(err)
	}
	if err := l.ReserveRef(r, one, false, false); err != nil {
		t.Fatal(err)
	}
	if b := l.Balance("A", "BTC"); !b.Available.Equal(d("1")) || !b.Reserved.Equal(d("1")) {
		t.Fatalf("balance %s / %s", b.Available, b.Reserved)
	}
	if err := l.ReleaseRef(r, fixed.FromDecimal(d("2"))); err == nil {
		t.Fatal("released more than reserved")
	}
	l.Reset()
	if err := l.ApplyMoves(Move{Ref: r, Available: one.Neg()}); err == nil {
		t.Fatal("a reset balance went below zero through an old handle")
	}
	if err := l.Credit("A", "BTC", d("5")); err != nil {
		t.Fatal(err)
	}
	if err := l.ApplyMoves(Move{Ref: r, Available: one.Neg(), Reserved: one}); err != nil {
		t.Fatal(err)
	}
	if b := l.Balance("A", "BTC"); !b.Available.Equal(d("4")) || !b.Reserved.Equal(d("1")) {
		t.Fatalf("after reset: %s / %s", b.Available, b.Reserved)
	}
}

// TestSettle: the fast path applies a trade's legs or changes nothing and
// says so, leaving the general path to explain.
func TestSettle(t *testing.T) {
	f := func(s string) fixed.Amount { return fixed.FromDecimal(d(s)) }
	cases := []struct {
		name       string
		legs       func(a, b, stale *Ref) []Leg
		ok         bool
		aAv, aResv string // A/BTC afterwards
		bAv        string // B/USD afterwards
	}{
		{"trade", func(a, b, _ *Ref) []Leg {
			return []Leg{{Ref: a, Reserved: f("-2")}, {Ref: b, Available: f("3")}}
		}, true, "10", "3", "8"},
		{"same balance twice", func(a, b, _ *Ref) []Leg {
			return []Leg{{Ref: a, Reserved: f("-2")}, {Ref: a, Reserved: f("-1"), Available: f("1")}}
		}, true, "11", "2", "5"},
		{"reserved below zero, undone", func(a, b, _ *Ref) []Leg {
			return []Leg{{Ref: b, Available: f("1")}, {Ref: a, Reserved: f("-4"), Available: f("1")}, {Ref: a, Reserved: f("-2")}}
		}, false, "10", "5", "5"},
		{"available taken", func(a, b, _ *Ref) []Leg {
			return []Leg{{Ref: b, Available: f("-1")}}
		}, false, "10", "5", "5"},
		{"reserved added", func(a, b, _ *Ref) []Leg {
			return []Leg{{Ref: a, Reserved: f("1")}}
		}, false, "10", "5", "5"},
		{"balance not known to the handle", func(a, b, stale *Ref) []Leg {
			return []Leg{{Ref: a, Reserved: f("-1")}, {Ref: stale, Available: f("1")}}
		}, false, "10", "5", "5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := New(nil)
			a, b, stale := NewRef("A", "BTC"), NewRef("B", "USD"), NewRef("C", "USD")
			if err := l.ApplyMoves(Move{Ref: a, Available: f("10"), Reserved: f("5")}, Move{Ref: b, Available: f("5")}); err != nil {
				t.Fatal(err)
			}
			if got := l.Settle(c.legs(a, b, stale)); got != c.ok {
				t.Fatalf("Settle = %v, want %v", got, c.ok)
			}
			ab, bb := l.Balance("A", "BTC"), l.Balance("B", "USD")
			if !ab.Available.Equal(d(c.aAv)) || !ab.Reserved.Equal(d(c.aResv)) || !bb.Available.Equal(d(c.bAv)) {
				t.Fatalf("A %s / %s, B %s; want %s / %s, %s", ab.Available, ab.Reserved, bb.Available, c.aAv, c.aResv, c.bAv)
			}
		})
	}
	t.Run("after reset", func(t *testing.T) {
		l := New(nil)
		a := NewRef("A", "BTC")
		if err := l.ApplyMoves(Move{Ref: a, Available: f("1"), Reserved: f("1")}); err != nil {
			t.Fatal(err)
		}
		l.Reset()
		if l.Settle([]Leg{{Ref: a, Reserved: f("-1")}}) {
			t.Fatal("settled through a handle on a balance that a reset dropped")
		}
	})
}
