// Package ledger keeps the emulator's balances: per account and currency,
// the available and reserved amounts, as exact decimals.
package ledger

import (
	"fmt"
	"sort"
	"sync"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/shopspring/decimal"
)

// Balance is one currency of one account.
type Balance struct {
	Currency  string
	Available decimal.Decimal
	Reserved  decimal.Decimal
}

// Ledger is safe for concurrent use.
type Ledger struct {
	mu       sync.Mutex
	accounts map[string]map[string]*Balance
	faults   *faults.Set
}

// New returns an empty ledger.
func New(f *faults.Set) *Ledger {
	return &Ledger{accounts: map[string]map[string]*Balance{}, faults: f}
}

// Reset drops every balance.
func (l *Ledger) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.accounts = map[string]map[string]*Balance{}
}

// Credit adds amount to the available balance (a negative amount debits,
// and may not take the balance below zero).
func (l *Ledger) Credit(account, currency string, amount decimal.Decimal) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.faults.On("V3-CONV-DECIMAL-PRECISION") {
		f, _ := amount.Float64()
		amount = decimal.NewFromFloat(f)
	}
	acct := l.accounts[account]
	if acct == nil {
		acct = map[string]*Balance{}
		l.accounts[account] = acct
	}
	b := acct[currency]
	if b == nil {
		b = &Balance{Currency: currency}
	}
	next := b.Available.Add(amount)
	if next.IsNegative() {
		return fmt.Errorf("ledger: debit of %s %s exceeds available %s", amount.Neg(), currency, b.Available)
	}
	b.Available = next
	acct[currency] = b
	return nil
}

// Balances returns an account's balances sorted by currency.
func (l *Ledger) Balances(account string) []Balance {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Balance, 0, len(l.accounts[account]))
	for _, b := range l.accounts[account] {
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Balance returns one currency of an account (zero when never credited).
func (l *Ledger) Balance(account, currency string) Balance {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.accounts[account][currency]; b != nil {
		return *b
	}
	return Balance{Currency: currency}
}
