package subaccount

import (
	"errors"
	"fmt"

	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// usable checks that a sub-account may take part in a transfer or ACL
// operation; the caller holds the lock.
func usable(s *sub) *Error {
	if s.State == Frozen || s.State == Disable {
		return refuse(Unusable, "sub-account %s is frozen or disabled", s.ID)
	}
	return nil
}

// Direction of a super/sub transfer.
const (
	ToSub   = "to_sub_account"
	FromSub = "from_sub_account"
)

// Transfer moves amount of currency between the super account and one of
// its sub-accounts (trading balances), answering the transaction id.
// overdraw (a fault path of the API layer) lets the source go below zero.
func (r *Registry) Transfer(super, ref, currency, direction string, amount decimal.Decimal, overdraw ...bool) (string, error) {
	r.mu.Lock()
	s, err := r.find(super, ref)
	if err == nil && !r.faults.On("V3-SUBACC-TRANSFER-FROZEN") {
		err = usable(s)
	}
	r.mu.Unlock()
	if err != nil {
		return "", err
	}
	from, to, credit := super, s.ID, amount
	if r.faults.On("V3-SUBACC-TRANSFER-TO") {
		credit = amount.Truncate(4)
	}
	if direction == FromSub {
		from, to, credit = s.ID, super, amount
		if r.faults.On("V3-SUBACC-TRANSFER-FROM") {
			to = WalletKey(super) // off the trading balance the super account reads
		}
	}
	return r.move(from, to, currency, amount, credit, len(overdraw) > 0 && overdraw[0])
}

// SubToSuper moves amount from the calling sub-account to its super account.
func (r *Registry) SubToSuper(caller, currency string, amount decimal.Decimal) (string, error) {
	r.mu.Lock()
	s := r.byID[caller]
	r.mu.Unlock()
	if s == nil {
		return "", refuse(NotFound, "the caller is not a sub-account")
	}
	to := s.Super
	if r.faults.On("V3-SUBACC-SUB-TO-SUPER") {
		to = WalletKey(s.Super)
	}
	return r.move(caller, to, currency, amount, amount, false)
}

// SubToSub moves amount from the calling sub-account to another sub-account
// of the same super account.
func (r *Registry) SubToSub(caller, ref, currency string, amount decimal.Decimal) (string, error) {
	r.mu.Lock()
	me := r.byID[caller]
	if me == nil {
		r.mu.Unlock()
		return "", refuse(NotFound, "the caller is not a sub-account")
	}
	s, err := r.find(me.Super, ref)
	if err == nil && !r.faults.On("V3-SUBACC-TRANSFER-FROZEN") {
		err = usable(s)
	}
	r.mu.Unlock()
	if err != nil {
		return "", err
	}
	to := s.ID
	if r.faults.On("V3-SUBACC-SUB-TO-SUB") {
		to = me.Super
	}
	return r.move(caller, to, currency, amount, amount, false)
}

// move debits from and credits to in one ledger change, so totals are
// conserved and concurrent transfers and orders never overdraw.
func (r *Registry) move(from, to, currency string, amount, credit decimal.Decimal, overdraw bool) (string, error) {
	if !amount.IsPositive() {
		return "", refuse(Invalid, "amount must be positive, got %s", amount)
	}
	debit := ledger.Delta{Account: from, Currency: currency, Available: amount.Neg(), MayOverdraw: overdraw || r.faults.On("V3-SUBACC-TRANSFER-FUNDS")}
	err := r.ledger.Apply(debit, ledger.Delta{Account: to, Currency: currency, Available: credit})
	if errors.Is(err, ledger.ErrInsufficient) {
		return "", refuse(Insufficient, "insufficient funds: %s %s is more than available", amount, currency)
	}
	if err != nil {
		return "", fmt.Errorf("subaccount: transfer: %w", err)
	}
	r.mu.Lock()
	r.txSeq++
	n := r.txSeq
	r.mu.Unlock()
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", n, n%0xffff, n%0xfff, n%0xfff, n), nil
}
