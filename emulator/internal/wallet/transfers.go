package wallet

import (
	"errors"
	"fmt"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// Transfer moves funds between the wallet and the trading balance:
// bankToExchange from the wallet to trading, exchangeToBank back.
func (w *Wallet) Transfer(account, currency string, amount decimal.Decimal, typ string) (string, *Error) {
	s, now := w.lock(account)
	defer w.mu.Unlock()
	if !w.mkt.HasCurrency(currency) {
		return "", refuse(Currency, "currency %q is not listed", currency)
	}
	if !amount.IsPositive() {
		return "", refuse(Validation, "amount must be positive, got %s", amount)
	}
	from, to := Key(account), account
	switch typ {
	case TypeBankToExchange:
	case TypeExchangeToBank:
		from, to = to, from
	default:
		return "", refuse(Validation, "type must be bankToExchange or exchangeToBank, got %q", typ)
	}
	if w.faults.On("V2-ACCOUNT-TRANSFER") {
		from, to = to, from
	}
	moved := amount
	if w.faults.On("V3-CONV-DECIMAL-PRECISION") {
		f, _ := amount.Float64()
		moved = decimal.NewFromFloat(f)
	}
	if err := w.move(from, to, currency, moved); err != nil {
		return "", err
	}
	t := &Transaction{Account: account, Currency: currency, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: typ, CreatedAt: now, UpdatedAt: now}
	w.record(s, t)
	return t.ID, nil
}

func (w *Wallet) move(from, to, currency string, amount decimal.Decimal) *Error {
	err := w.led.Apply(ledger.Delta{Account: from, Currency: currency, Available: amount.Neg()},
		ledger.Delta{Account: to, Currency: currency, Available: amount})
	if errors.Is(err, ledger.ErrInsufficient) {
		return refuse(Insufficient, "%s cannot pay %s %s", strings.TrimSuffix(from, walletSuffix), amount, currency)
	}
	if err != nil {
		return refuse(Validation, "%v", err)
	}
	return nil
}

// Internal sends funds from one wallet to another account's wallet, named by
// e-mail or username (by is "email" or "username").
func (w *Wallet) Internal(account, currency string, amount decimal.Decimal, by, identifier string) (string, *Error) {
	s, now := w.lock(account)
	defer w.mu.Unlock()
	if !w.mkt.HasCurrency(currency) {
		return "", refuse(Currency, "currency %q is not listed", currency)
	}
	if !amount.IsPositive() {
		return "", refuse(Validation, "amount must be positive, got %s", amount)
	}
	if by != "email" && by != "username" {
		return "", refuse(Validation, "by must be email or username, got %q", by)
	}
	if (by == "email") != strings.Contains(identifier, "@") {
		return "", refuse(Validation, "identifier %q is not a%s", identifier, map[bool]string{true: "n e-mail address", false: " username"}[by == "email"])
	}
	to, ok := w.byName[strings.ToLower(identifier)]
	if !ok {
		return "", refuse(Validation, "no user with %s %q", by, identifier)
	}
	if to == account {
		return "", refuse(NotAllowed, "an internal transfer goes to another user")
	}
	dest := Key(to)
	if w.faults.On("V2-ACCOUNT-INTERNAL") {
		dest = Key("__void__") // the fault: the recipient is never credited
	}
	if err := w.move(Key(account), dest, currency, amount); err != nil {
		return "", err
	}
	out := &Transaction{Account: account, Currency: currency, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: TypeWithdraw, SubType: "offchain", CreatedAt: now, UpdatedAt: now}
	w.record(s, out)
	in := &Transaction{Account: to, Currency: currency, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: TypeDeposit, SubType: "offchain", CreatedAt: now, UpdatedAt: now}
	w.record(w.state(to), in)
	return out.ID, nil
}

// Convertible reports whether transfer-convert converts between two
// currencies: the emulator converts between its stablecoins at par.
func (w *Wallet) Convertible(from, to string) bool {
	a, okA := w.mkt.Currency(from)
	b, okB := w.mkt.Currency(to)
	return okA && okB && from != to && a.Stable != nil && *a.Stable && b.Stable != nil && *b.Stable
}

// Convert converts amount of one currency into another in the wallet,
// answering the IDs of the two transactions it made.
func (w *Wallet) Convert(account, from, to string, amount decimal.Decimal) ([]string, *Error) {
	s, now := w.lock(account)
	defer w.mu.Unlock()
	for _, c := range []string{from, to} {
		if !w.mkt.HasCurrency(c) {
			return nil, refuse(Currency, "currency %q is not listed", c)
		}
	}
	if !amount.IsPositive() {
		return nil, refuse(Validation, "amount must be positive, got %s", amount)
	}
	if !w.Convertible(from, to) {
		return nil, refuse(NotAllowed, "%s cannot be converted to %s", from, to)
	}
	err := w.led.Apply(ledger.Delta{Account: Key(account), Currency: from, Available: amount.Neg()},
		ledger.Delta{Account: Key(account), Currency: to, Available: amount})
	if errors.Is(err, ledger.ErrInsufficient) {
		return nil, refuse(Insufficient, "the wallet cannot pay %s %s", amount, from)
	} else if err != nil {
		return nil, refuse(Validation, "%v", err)
	}
	out := &Transaction{Account: account, Currency: from, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: TypeWithdraw, SubType: "swap", CreatedAt: now, UpdatedAt: now}
	in := &Transaction{Account: account, Currency: to, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: TypeDeposit, SubType: "swap", CreatedAt: now, UpdatedAt: now}
	w.record(s, out)
	w.record(s, in)
	return []string{out.ID, in.ID}, nil
}

// Move moves funds between two ledger accounts of one trader that the
// wallet does not keep itself (the futures balance and the spot or wallet
// balance: POST /wallet/transfer with derivatives), and answers an id for
// the transfer. It records no transaction: the wallet's transaction types
// have none for futures.
func (w *Wallet) Move(account, currency string, amount decimal.Decimal, from, to string) (string, *Error) {
	_, _ = w.lock(account)
	defer w.mu.Unlock()
	if !w.mkt.HasCurrency(currency) {
		return "", refuse(Currency, "currency %q is not listed", currency)
	}
	if !amount.IsPositive() {
		return "", refuse(Validation, "amount must be positive, got %s", amount)
	}
	if err := w.move(from, to, currency, amount); err != nil {
		return "", err
	}
	w.lastIdx++
	i := w.lastIdx
	return fmt.Sprintf("%08x-%04x-4%03x-9%03x-%012x", uint32(i*2654435761), i&0xffff, i&0xfff, (i>>12)&0xfff, i), nil
}
