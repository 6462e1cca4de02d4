package subaccount

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// noOrders is a Canceller with nothing to cancel; it counts the calls.
type noOrders struct {
	mu       sync.Mutex
	canceled []string
}

func (n *noOrders) CancelAll(account, _ string) ([]engine.Order, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.canceled = append(n.canceled, account)
	return nil, nil
}
func (n *noOrders) Active(string, string) ([]engine.Order, error) { return nil, nil }
func (n *noOrders) Cancel(string, string) (engine.Order, error)   { return engine.Order{}, nil }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func setup(t *testing.T) (*Registry, *ledger.Ledger, *noOrders) {
	t.Helper()
	fs, _ := faults.New()
	l := ledger.New(fs)
	accts := []fixtures.Account{{ID: "SUPER", SubAccounts: []fixtures.SubAccount{
		{SubAccountID: "aa01", UserID: 1, Status: "active"},
		{SubAccountID: "aa02", UserID: 2, Status: "active"},
		{SubAccountID: "aa03", UserID: 3, Status: "new"},
		{SubAccountID: "aa04", UserID: 4, Status: "disable"},
	}}, {ID: "OTHER", SubAccounts: []fixtures.SubAccount{{SubAccountID: "bb01", UserID: 9, Status: "active"}}}}
	orders := &noOrders{}
	r, err := New(accts, l, orders, clock.NewManual(time.Unix(0, 0)), fs)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Credit("SUPER", "BTC", dec("1")); err != nil {
		t.Fatal(err)
	}
	return r, l, orders
}

func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func TestTransitions(t *testing.T) {
	r, l, orders := setup(t)
	if _, err := r.Transfer("SUPER", "aa01", "BTC", ToSub, dec("0.25")); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func() error
		kind Kind
	}{
		{"freeze active", func() error { return r.Freeze("SUPER", []string{"aa01"}) }, 0},
		{"freeze frozen", func() error { return r.Freeze("SUPER", []string{"aa01"}) }, AlreadyOff},
		{"freeze disabled", func() error { return r.Freeze("SUPER", []string{"aa04"}) }, AlreadyOff},
		{"freeze another's", func() error { return r.Freeze("SUPER", []string{"bb01"}) }, NotFound},
		{"transfer to frozen", func() error { _, err := r.Transfer("SUPER", "aa01", "BTC", ToSub, dec("0.1")); return err }, Unusable},
		{"acl of frozen", func() error { _, err := r.ACLs("SUPER", []string{"aa01"}); return err }, Unusable},
		{"activate unknown", func() error { _, err := r.Activate("SUPER", []string{"ffff"}); return err }, NotFound},
		{"beyond funds", func() error { _, err := r.Transfer("SUPER", "aa02", "BTC", ToSub, dec("0.75000001")); return err }, Insufficient},
	}
	for _, s := range steps {
		if got := kindOf(s.do()); got != s.kind {
			t.Errorf("%s: kind %d, want %d", s.name, got, s.kind)
		}
	}
	if r.Usable("aa01") || !r.Usable("aa02") || !r.Usable("SUPER") || r.Usable("aa04") {
		t.Error("Usable: want frozen and disabled refused, others usable")
	}
	if len(orders.canceled) != 3 {
		t.Errorf("freeze canceled %v, want the spot, margin and futures orders of aa01", orders.canceled)
	}
	if b := l.Balance(WalletKey("aa01"), "BTC"); !b.Available.Equal(dec("0.25")) {
		t.Errorf("wallet after freeze %s, want 0.25", b.Available)
	}
	if ok, err := r.Activate("SUPER", []string{"aa01", "aa04"}); ok || err != nil {
		t.Errorf("activate frozen+disabled = %v, %v; want false, nil", ok, err)
	}
	if !r.Usable("aa01") || r.Usable("aa04") {
		t.Error("activate restores the frozen one only")
	}
}

// FreezeWith's options are the v2 faults of the freeze's effects: each one
// keeps exactly its effect (orders or funds) while the account is still
// frozen, and the zero options (Freeze, version 3's path) keep neither.
func TestFreezeWithOptions(t *testing.T) {
	cases := []struct {
		name           string
		opt            FreezeOptions
		cancels, moves bool
	}{
		{"documented", FreezeOptions{}, true, true},
		{"V2-SUBACC-FREEZE-CANCELS", FreezeOptions{KeepOrders: true}, false, true},
		{"V2-SUBACC-FREEZE-FUNDS", FreezeOptions{KeepFunds: true}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, l, orders := setup(t)
			if _, err := r.Transfer("SUPER", "aa01", "BTC", ToSub, dec("0.25")); err != nil {
				t.Fatal(err)
			}
			if err := r.FreezeWith("SUPER", []string{"aa01"}, c.opt); err != nil {
				t.Fatal(err)
			}
			if r.Usable("aa01") {
				t.Error("aa01 is usable after the freeze")
			}
			if got := len(orders.canceled) > 0; got != c.cancels {
				t.Errorf("orders canceled: %v (%v), want %v", got, orders.canceled, c.cancels)
			}
			moved := l.Balance(WalletKey("aa01"), "BTC").Available.Equal(dec("0.25")) && l.Balance("aa01", "BTC").Available.IsZero()
			if moved != c.moves {
				t.Errorf("funds moved off the trading balance: %v, want %v", moved, c.moves)
			}
		})
	}
}

// Concurrent transfers both ways never overdraw and conserve the total.
func TestConcurrentTransfers(t *testing.T) {
	r, l, _ := setup(t)
	amt := dec("0.03")
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := ToSub
			if i%2 == 1 {
				dir = FromSub
			}
			_, _ = r.Transfer("SUPER", "aa01", "BTC", dir, amt)
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = r.SubToSub("aa01", "aa02", "BTC", amt)
		}()
	}
	wg.Wait()
	total := decimal.Zero
	for _, acct := range []string{"SUPER", "aa01", "aa02"} {
		b := l.Balance(acct, "BTC")
		if b.Available.IsNegative() {
			t.Errorf("%s overdrawn: %s", acct, b.Available)
		}
		total = total.Add(b.Available)
	}
	if !total.Equal(dec("1")) {
		t.Errorf("total %s, want 1 (conserved)", total)
	}
}
