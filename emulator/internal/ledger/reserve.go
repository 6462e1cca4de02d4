package ledger

import (
	"fmt"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/shopspring/decimal"
)

// below reports whether a balance is taken below zero; one already below
// (after an overdraft) may still move up.
func below(now fixed.Amount, b *bal, reserved bool) bool {
	if !now.IsNegative() {
		return false
	}
	if b == nil {
		return true
	}
	was := b.avail
	if reserved {
		was = b.resv
	}
	return now.LessThan(was)
}

// ReserveRef is ReserveAmount on the balance of r.
func (l *Ledger) ReserveRef(r *Ref, amount fixed.Amount, mustExceed, force bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reserveRefLocked(r, amount, mustExceed, force)
}

// ReserveRef is Ledger.ReserveRef under Hold.
func (h *Held) ReserveRef(r *Ref, amount fixed.Amount, mustExceed, force bool) error {
	return h.l.reserveRefLocked(r, amount, mustExceed, force)
}

func (l *Ledger) reserveRefLocked(r *Ref, amount fixed.Amount, mustExceed, force bool) error {
	return l.reserve(r, r.Account, r.Currency, amount, mustExceed, force)
}

// ReleaseRef is ReleaseAmount on the balance of r.
func (l *Ledger) ReleaseRef(r *Ref, amount fixed.Amount) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.releaseRefLocked(r, amount)
}

// ReleaseRef is Ledger.ReleaseRef under Hold.
func (h *Held) ReleaseRef(r *Ref, amount fixed.Amount) error { return h.l.releaseRefLocked(r, amount) }

func (l *Ledger) releaseRefLocked(r *Ref, amount fixed.Amount) error {
	return l.release(l.find(r), r.Account, r.Currency, amount)
}

// Reserve moves amount from available to reserved. Unless force is set, the
// available amount must cover it, or be strictly above it when mustExceed
// (the market-buy rule: "the available balance must exceed ..."); otherwise
// the error wraps ErrInsufficient and nothing changes. force lets the
// available amount go below zero (only the fault paths use it).
func (l *Ledger) Reserve(account, currency string, amount decimal.Decimal, mustExceed, force bool) error {
	return l.ReserveAmount(account, currency, fixed.FromDecimal(amount), mustExceed, force)
}

// ReserveAmount is Reserve for a fixed-point amount.
func (l *Ledger) ReserveAmount(account, currency string, amount fixed.Amount, mustExceed, force bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reserveAmountLocked(account, currency, amount, mustExceed, force)
}

// ReserveAmount is Ledger.ReserveAmount under Hold.
func (h *Held) ReserveAmount(account, currency string, amount fixed.Amount, mustExceed, force bool) error {
	return h.l.reserveAmountLocked(account, currency, amount, mustExceed, force)
}

func (l *Ledger) reserveAmountLocked(account, currency string, amount fixed.Amount, mustExceed, force bool) error {
	return l.reserve(nil, account, currency, amount, mustExceed, force)
}

// reserve is ReserveAmount, through r when not nil; the caller holds the
// lock.
func (l *Ledger) reserve(r *Ref, account, currency string, amount fixed.Amount, mustExceed, force bool) error {
	var b *bal
	if r != nil {
		b = l.find(r)
	} else {
		b = l.accounts[account][currency]
	}
	if amount.IsNegative() {
		return fmt.Errorf("ledger: cannot reserve a negative amount %s %s", amount, currency)
	}
	if !force {
		var avail fixed.Amount
		if b != nil {
			avail = b.avail
		}
		if c := avail.Cmp(amount); c < 0 || (mustExceed && c == 0) {
			word := "cover"
			if mustExceed {
				word = "exceed"
			}
			return fmt.Errorf("%w: %s has %s %s available, which does not %s %s", ErrInsufficient, account, avail, currency, word, amount)
		}
	}
	if b == nil {
		b = l.balance(account, currency)
		if r != nil {
			r.b, r.gen = b, l.gen
		}
	}
	b.avail, b.resv = b.avail.Sub(amount), b.resv.Add(amount)
	return nil
}

// Release moves amount from reserved back to available; the error wraps
// ErrInsufficient when less than amount is reserved.
func (l *Ledger) Release(account, currency string, amount decimal.Decimal) error {
	return l.ReleaseAmount(account, currency, fixed.FromDecimal(amount))
}

// ReleaseAmount is Release for a fixed-point amount.
func (l *Ledger) ReleaseAmount(account, currency string, amount fixed.Amount) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.releaseAmountLocked(account, currency, amount)
}

// ReleaseAmount is Ledger.ReleaseAmount under Hold.
func (h *Held) ReleaseAmount(account, currency string, amount fixed.Amount) error {
	return h.l.releaseAmountLocked(account, currency, amount)
}

func (l *Ledger) releaseAmountLocked(account, currency string, amount fixed.Amount) error {
	return l.release(l.accounts[account][currency], account, currency, amount)
}

// release is ReleaseAmount on b; the caller holds the lock.
func (l *Ledger) release(b *bal, account, currency string, amount fixed.Amount) error {
	if b == nil || b.resv.LessThan(amount) {
		var res fixed.Amount
		if b != nil {
			res = b.resv
		}
		return fmt.Errorf("%w: %s cannot release %s %s of %s reserved", ErrInsufficient, account, amount, currency, res)
	}
	b.avail, b.resv = b.avail.Add(amount), b.resv.Sub(amount)
	return nil
}
