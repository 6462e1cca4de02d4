package wallet

import (
	"regexp"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

func newWallet(t *testing.T) (*Wallet, *ledger.Ledger, *clock.Manual) {
	t.Helper()
	mkt, err := market.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := ledger.New(nil)
	var f *faults.Set
	return New(clk, l, mkt, f, []Identity{{"A", "a", "a@x"}, {"B", "b", "b@x"}}), l, clk
}

// Every network's new addresses match its address pattern.
func TestAddressesMatchTheirNetwork(t *testing.T) {
	w, _, _ := newWallet(t)
	for _, code := range w.mkt.CurrencyCodes() {
		c, _ := w.mkt.Currency(code)
		for _, n := range c.Networks {
			if !c.PayinEnabled || !n.PayinEnabled {
				continue
			}
			a, err := w.NewAddress("A", code, n.Code)
			if err != nil {
				t.Fatalf("%s on %s: %v", code, n.Code, err)
			}
			if n.AddressRegex != nil && !regexp.MustCompile(*n.AddressRegex).MatchString(a.Address) {
				t.Errorf("%s on %s: %q does not match %s", code, n.Code, a.Address, *n.AddressRegex)
			}
			if a.NetworkCode != n.Code {
				t.Errorf("%s on %s: network %q", code, n.Code, a.NetworkCode)
			}
		}
	}
}

func TestWithdrawalArithmeticAndTwoPhases(t *testing.T) {
	cases := []struct {
		name       string
		includeFee bool
		commit     bool
		wantAvail  string // BTC available right after (fee 0.0003)
		wantAmount string // the transaction's amount
	}{
		{"fee on top, then rollback", false, false, "0.8997", "0.1"},
		{"fee included, then commit", true, true, "0.9", "0.0997"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, l, clk := newWallet(t)
			if err := w.Payin("A", "BTC", decimal.RequireFromString("1")); err != nil {
				t.Fatal(err)
			}
			addr, _ := w.CurrentAddress("B", "BTC", "")
			id, err := w.Withdraw(WithdrawRequest{Account: "A", Currency: "BTC", Amount: decimal.RequireFromString("0.1"), Address: addr.Address, IncludeFee: c.includeFee})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Balance(Key("A"), "BTC").Available.String(); got != c.wantAvail {
				t.Fatalf("available %s, want %s", got, c.wantAvail)
			}
			tx, _ := w.Transaction("A", id)
			if tx.Amount.String() != c.wantAmount || tx.Fee.String() != "0.0003" {
				t.Fatalf("transaction amount %s fee %s", tx.Amount, tx.Fee)
			}
			act := w.Rollback
			if c.commit {
				act = w.Commit
			}
			for i := 0; i < 2; i++ { // idempotent
				if ok, err := act("A", id); !ok || err != nil {
					t.Fatalf("call %d: %v %v", i+1, ok, err)
				}
			}
			clk.Advance(2 * time.Hour)
			tx, _ = w.Transaction("A", id)
			b := l.Balance(Key("A"), "BTC")
			if c.commit && (tx.Status != StatusSuccess || b.Available.String() != "0.9" || !b.Reserved.IsZero()) {
				t.Fatalf("committed: %s, %v", tx.Status, b)
			}
			if !c.commit && (tx.Status != StatusFailed || b.Available.String() != "1" || !b.Reserved.IsZero()) {
				t.Fatalf("rolled back: %s, %v", tx.Status, b)
			}
		})
	}
}
