// Package wallet is the emulator's main (wallet) account beside the trading
// one: deposit addresses, withdrawals with their two-phase commit,
// transfers between wallet and trading, internal transfers, conversions and
// the wallet transaction history. Balances live in the shared ledger, under
// Key(account) for the wallet and account itself for trading, so that every
// API version moves the same funds.
//
// Transaction states follow the emulator clock (see Timeline): nothing moves
// on its own; every call first brings the state up to the clock's now.
package wallet

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Key is the ledger account of an account's wallet (main) balance; the
// trading balance is the ledger account named by the account itself.
func Key(account string) string { return account + walletSuffix }

const walletSuffix = "|wallet"

// IsKey reports whether a ledger account is a wallet.
func IsKey(id string) bool { return strings.HasSuffix(id, walletSuffix) }

// Transaction types and states of the v2 Wallet transaction resource.
const (
	TypePayout         = "payout"
	TypePayin          = "payin"
	TypeDeposit        = "deposit"
	TypeWithdraw       = "withdraw"
	TypeBankToExchange = "bankToExchange"
	TypeExchangeToBank = "exchangeToBank"

	StatusCreated = "created"
	StatusPending = "pending"
	StatusFailed  = "failed"
	StatusSuccess = "success"
)

// Timeline is how a committed payout moves through its states on the
// emulator clock (neither document gives the timing): created for
// PendingAfter, pending until SettledAfter, then success, or failed with
// errorCode INVALID_ADDRESS when the address does not match its network's
// address pattern. An uncommitted withdrawal is rolled back once
// CommitWindow has passed.
var Timeline = struct {
	PendingAfter, SettledAfter, CommitWindow time.Duration
}{PendingAfter: 10 * time.Second, SettledAfter: time.Minute, CommitWindow: time.Hour}

// Refusal kinds, mapped to documented codes by the API layer.
type Kind int

// Kinds of refusal.
const (
	Validation   Kind = iota // 10001
	Currency                 // 2002
	Insufficient             // 20001
	NotAllowed               // 600
	NotFound                 // not given in the v2 document (the emulator uses 20002 with HTTP 400)
)

// Error is a refusal.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func refuse(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Address is a deposit address.
type Address struct {
	Address     string
	PaymentID   string
	NetworkCode string
	Currency    string
}

// Transaction is a wallet transaction.
type Transaction struct {
	ID            string
	Index         int64
	Account       string
	Currency      string
	Amount, Fee   decimal.Decimal
	Address       string
	PaymentID     string
	Hash          string
	Status        string
	Type          string
	SubType       string
	Senders       []string
	Confirmations *int64
	PublicComment string
	ErrorCode     string
	NetworkCode   string
	CreatedAt     time.Time
	UpdatedAt     time.Time

	// Withdrawal bookkeeping.
	total     decimal.Decimal // what the wallet pays (amount plus fee unless includeFee)
	committed bool
	rolled    bool
	deadline  time.Time // uncommitted: rolled back at
	commitAt  time.Time
	invalid   bool
}

type state struct {
	addrs map[string][]Address // currency -> deposit addresses, oldest first
	used  []Address            // withdrawal addresses, oldest first
	txs   []*Transaction       // by index
	byID  map[string]*Transaction
}

// Identity names an account for internal transfers.
type Identity struct {
	Account, Username, Email string
}

// Wallet is safe for concurrent use.
type Wallet struct {
	clk    clock.Clock
	led    *ledger.Ledger
	mkt    *market.Catalogue
	faults *faults.Set

	mu       sync.Mutex
	accts    map[string]*state
	byName   map[string]string // lower-case username or e-mail -> account
	lastIdx  int64
	addrSeq  uint64
	patterns map[string]*regexp.Regexp
}

// New returns an empty wallet keeping balances in l.
func New(clk clock.Clock, l *ledger.Ledger, m *market.Catalogue, f *faults.Set, ids []Identity) *Wallet {
	w := &Wallet{clk: clk, led: l, mkt: m, faults: f, byName: map[string]string{}, patterns: map[string]*regexp.Regexp{}}
	for _, id := range ids {
		w.byName[strings.ToLower(id.Username)] = id.Account
		w.byName[strings.ToLower(id.Email)] = id.Account
	}
	w.accts = map[string]*state{}
	return w
}

// Reset drops every address and transaction (the ledger is reset apart).
func (w *Wallet) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.accts = map[string]*state{}
}

func (w *Wallet) state(account string) *state {
	s := w.accts[account]
	if s == nil {
		s = &state{addrs: map[string][]Address{}, byID: map[string]*Transaction{}}
		w.accts[account] = s
	}
	return s
}

func (w *Wallet) record(s *state, t *Transaction) {
	w.lastIdx++
	t.Index = w.lastIdx
	if t.ID == "" {
		t.ID = fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(t.Index*2654435761), t.Index&0xffff, t.Index&0xfff, (t.Index>>12)&0xfff, t.Index)
	}
	s.txs = append(s.txs, t)
	s.byID[t.ID] = t
}

// Payin records an opening deposit (the fixtures' wallet balances arrive as
// settled payins, so that the history has one of each kind to show).
func (w *Wallet) Payin(account, currency string, amount decimal.Decimal) error {
	if err := w.led.Credit(Key(account), currency, amount); err != nil {
		return fmt.Errorf("wallet: payin: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clk.Now().UTC()
	s := w.state(account)
	conf := int64(12)
	t := &Transaction{Account: account, Currency: currency, Amount: amount, Fee: decimal.Zero, Status: StatusSuccess, Type: TypePayin,
		Senders: []string{"sender-" + strings.ToLower(currency) + "-genesis"}, Confirmations: &conf, CreatedAt: now, UpdatedAt: now}
	w.record(s, t)
	t.Hash = fmt.Sprintf("%064x", t.Index)
	t.Address = w.current(s, account, currency, "").Address
	return nil
}

// advance brings every transaction of s up to now; the caller holds mu.
func (w *Wallet) advance(s *state, now time.Time) {
	for _, t := range s.txs {
		if t.Type != TypePayout || t.Status == StatusSuccess || t.Status == StatusFailed {
			continue
		}
		switch {
		case !t.committed && !now.Before(t.deadline):
			w.rollback(t, t.deadline)
		case t.committed && !now.Before(t.commitAt.Add(Timeline.SettledAfter)):
			at := t.commitAt.Add(Timeline.SettledAfter)
			if t.invalid {
				_ = w.led.Release(Key(t.Account), t.Currency, t.total)
				t.Status, t.ErrorCode, t.UpdatedAt = StatusFailed, "INVALID_ADDRESS", at
			} else {
				_ = w.led.Apply(ledger.Delta{Account: Key(t.Account), Currency: t.Currency, Reserved: t.total.Neg()})
				t.Status, t.UpdatedAt = StatusSuccess, at
			}
		case t.committed && t.Status == StatusCreated && !now.Before(t.commitAt.Add(Timeline.PendingAfter)):
			t.Status, t.UpdatedAt = StatusPending, t.commitAt.Add(Timeline.PendingAfter)
		}
	}
}

func (w *Wallet) rollback(t *Transaction, at time.Time) {
	_ = w.led.Release(Key(t.Account), t.Currency, t.total)
	t.rolled, t.Status, t.UpdatedAt = true, StatusFailed, at
}

// lock takes mu and advances the account's transactions.
func (w *Wallet) lock(account string) (*state, time.Time) {
	w.mu.Lock()
	now := w.clk.Now().UTC()
	s := w.state(account)
	w.advance(s, now)
	return s, now
}

// Balances answers the wallet balances of an account.
func (w *Wallet) Balances(account string) []ledger.Balance {
	_, _ = w.lock(account)
	defer w.mu.Unlock()
	return w.led.Balances(Key(account))
}
