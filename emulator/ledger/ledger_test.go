package ledger

import (
	"testing"

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
