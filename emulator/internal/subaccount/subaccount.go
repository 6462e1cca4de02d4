// Package subaccount keeps the emulator's sub-accounts: which super account
// owns them, their state (new, active, disable, and frozen after a freeze),
// their withdrawal settings (ACL), and the transfers between them, on the
// same ledger as spot and margin trading. Both API versions serve it.
package subaccount

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// State is a sub-account's state. The resource shows new, active and
// disable; Frozen is what a freeze makes of an account, shown as disable.
type State string

// Sub-account states (Fresh is the state new).
const (
	Fresh   State = "new"
	Active  State = "active"
	Disable State = "disable"
	Frozen  State = "frozen"
)

// Kind classifies a refusal, so that each API version writes its own code.
type Kind int

// Refusal kinds.
const (
	NotFound     Kind = iota + 1 // v3 21001, v2 500
	AlreadyOff                   // v3 21003: freeze of a frozen or disabled account
	Unusable                     // v3 21004, v2 10021 or 500: transfer or ACL on a frozen or disabled account
	Insufficient                 // 20001
	Invalid                      // 10001
)

// Error is a refusal of the registry.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func refuse(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Canceller cancels an account's active orders (the engine).
type Canceller interface {
	CancelAll(account, symbol string) ([]engine.Order, error)
	Active(account, symbol string) ([]engine.Order, error)
	Cancel(account, clientOrderID string) (engine.Order, error)
}

// ACL is a sub-account's withdrawal settings.
type ACL struct {
	SubAccountID             string
	UserID                   int64
	DepositAddressGeneration bool
	Withdraw                 bool
	Description              string
	CreatedAt, UpdatedAt     time.Time
}

// Sub is a sub-account as listed.
type Sub struct {
	ID     string
	UserID int64
	Email  string
	Super  string
	State  State
}

// Shown is the status the resource carries: frozen shows as disable (the
// resource's states are new, active and disable).
func (s Sub) Shown() string {
	if s.State == Frozen {
		return string(Disable)
	}
	return string(s.State)
}

type sub struct {
	Sub
	initial State
	acl     ACL
}

// Registry holds every sub-account. It is safe for concurrent use.
type Registry struct {
	ledger *ledger.Ledger
	orders Canceller
	clock  clock.Clock
	faults *faults.Set

	mu      sync.Mutex
	byID    map[string]*sub
	byUser  map[int64]*sub
	bySuper map[string][]*sub
	txSeq   int64
}

// WalletKey is the ledger account holding the wallet balance of account:
// where a freeze moves the trading funds.
func WalletKey(account string) string { return account + "|wallet" }

// New builds the registry from the accounts' sub-accounts.
func New(accts []fixtures.Account, l *ledger.Ledger, orders Canceller, clk clock.Clock, fs *faults.Set) (*Registry, error) {
	r := &Registry{ledger: l, orders: orders, clock: clk, faults: fs, byID: map[string]*sub{}, byUser: map[int64]*sub{}, bySuper: map[string][]*sub{}}
	created := clk.Now().UTC().Truncate(time.Millisecond)
	for _, a := range accts {
		for _, fs := range a.SubAccounts {
			st := State(fs.Status)
			switch st {
			case Fresh, Active, Disable:
			default:
				return nil, fmt.Errorf("subaccount: %s has state %q, want new, active or disable", fs.SubAccountID, fs.Status)
			}
			if fs.SubAccountID == "" || r.byID[fs.SubAccountID] != nil || r.byUser[fs.UserID] != nil {
				return nil, fmt.Errorf("subaccount: missing or duplicate id %q / %d", fs.SubAccountID, fs.UserID)
			}
			s := &sub{Sub: Sub{ID: fs.SubAccountID, UserID: fs.UserID, Email: fs.Email, Super: a.ID, State: st}, initial: st,
				acl: ACL{SubAccountID: fs.SubAccountID, UserID: fs.UserID, DepositAddressGeneration: true, Withdraw: true, CreatedAt: created, UpdatedAt: created}}
			r.byID[s.ID], r.byUser[s.UserID] = s, s
			r.bySuper[a.ID] = append(r.bySuper[a.ID], s)
		}
	}
	return r, nil
}

// Reset restores every sub-account's fixture state and ACL (the ledger is
// refunded by its owner).
func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now().UTC().Truncate(time.Millisecond)
	for _, s := range r.byID {
		s.State = s.initial
		s.acl = ACL{SubAccountID: s.ID, UserID: s.UserID, DepositAddressGeneration: true, Withdraw: true, CreatedAt: now, UpdatedAt: now}
	}
}

// Usable reports whether account may use its API keys (REST and streams):
// false for a frozen or disabled sub-account, true for any other account.
// This is the one check every authentication path asks.
func (r *Registry) Usable(account string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.byID[account]
	return s == nil || (s.State != Frozen && s.State != Disable)
}

// Admits is Usable for one request; the frozen-key faults let some
// families through.
func (r *Registry) Admits(account, method, path string) bool {
	if r.Usable(account) {
		return true
	}
	switch {
	case r.faults.On("V3-SUBACC-FROZEN-KEYS") && method == "GET":
		return true
	case r.faults.On("V3-SUBACC-FROZEN-TRADE") && method == "POST" && strings.Contains(path, "/spot/order"):
		return true
	case r.faults.On("V3-SUBACC-FROZEN-MARGIN") && strings.Contains(path, "/margin/"):
		return true
	case r.faults.On("V3-SUBACC-FROZEN-WITHDRAW") && strings.Contains(path, "/sub-account/transfer"):
		return true
	}
	return false
}

// SuperOf answers the super account of a sub-account.
func (r *Registry) SuperOf(account string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.byID[account]; s != nil {
		return s.Super, true
	}
	return "", false
}

// List answers the super account's sub-accounts in fixture order.
func (r *Registry) List(super string) []Sub {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Sub, 0, len(r.bySuper[super]))
	for _, s := range r.bySuper[super] {
		out = append(out, s.Sub)
	}
	return out
}

// find resolves a reference (hex id, or the numeric user id) to one of the
// super account's sub-accounts; the caller holds the lock.
func (r *Registry) find(super, ref string) (*sub, *Error) {
	ref = strings.TrimSpace(ref)
	s := r.byID[ref]
	if s == nil {
		if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
			s = r.byUser[n]
		}
	}
	if s == nil || s.Super != super {
		return nil, refuse(NotFound, "sub-account %q not found", ref)
	}
	return s, nil
}

func (r *Registry) findAll(super string, refs []string) ([]*sub, *Error) {
	if len(refs) == 0 {
		return nil, refuse(Invalid, "sub_account_ids is required")
	}
	out := make([]*sub, 0, len(refs))
	for _, ref := range refs {
		s, err := r.find(super, ref)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Freeze freezes the listed sub-accounts, all or none: every one of them
// must exist (NotFound) and be neither frozen nor disabled (AlreadyOff).
// Their orders are canceled (spot, margin, order lists) and their trading
// balance moves to their wallet.
func (r *Registry) Freeze(super string, refs []string) error {
	r.mu.Lock()
	subs, err := r.findAll(super, refs)
	if err == nil {
		for _, s := range subs {
			off := s.State == Frozen || s.State == Disable
			if s.State == Disable && r.faults.On("V3-SUBACC-ERR-21003-DISABLED") {
				off = false
			}
			if s.State == Frozen && r.faults.On("V3-SUBACC-ERR-21003") {
				off = false
			}
			if off {
				err = refuse(AlreadyOff, "sub-account %s is already frozen or disabled", s.ID)
				break
			}
		}
	}
	if err != nil {
		r.mu.Unlock()
		return err
	}
	if r.faults.On("V3-SUBACC-FREEZE-LIST") {
		subs = subs[:1]
	}
	var frozen []string
	for _, s := range subs {
		if r.faults.On("V3-SUBACC-FREEZE") || s.State == Disable {
			continue
		}
		s.State = Frozen
		frozen = append(frozen, s.ID)
	}
	r.mu.Unlock()
	// The state changed first: from here on the accounts' keys are refused,
	// so no new order can race the cancellation below.
	for _, id := range frozen {
		if err := r.shutDown(id); err != nil {
			return err
		}
	}
	return nil
}

// shutDown cancels every order of a frozen account and moves its trading
// balance to its wallet.
func (r *Registry) shutDown(id string) error {
	if !r.faults.On("V3-SUBACC-FREEZE-CANCELS") {
		if err := r.cancelSpot(id); err != nil {
			return err
		}
	}
	if !r.faults.On("V3-SUBACC-FREEZE-CANCELS-MARGIN") {
		if _, err := r.orders.CancelAll(engine.MarginKey(id), ""); err != nil {
			return fmt.Errorf("subaccount: cancel margin orders of %s: %w", id, err)
		}
	}
	if r.faults.On("V3-SUBACC-FREEZE-FUNDS") {
		return nil
	}
	for _, b := range r.ledger.Balances(id) {
		if !b.Available.IsPositive() {
			continue
		}
		// Apply refuses (and nothing moves) if an in-flight settlement took
		// part of it meanwhile; the rest stays in trading, never overdrawn.
		_ = r.ledger.Apply(
			ledger.Delta{Account: id, Currency: b.Currency, Available: b.Available.Neg()},
			ledger.Delta{Account: WalletKey(id), Currency: b.Currency, Available: b.Available})
	}
	return nil
}

func (r *Registry) cancelSpot(id string) error {
	if !r.faults.On("V3-SUBACC-FREEZE-LISTS") {
		if _, err := r.orders.CancelAll(id, ""); err != nil {
			return fmt.Errorf("subaccount: cancel orders of %s: %w", id, err)
		}
		return nil
	}
	os, err := r.orders.Active(id, "")
	if err != nil {
		return err
	}
	for _, o := range os {
		if o.OrderListID == "" {
			_, _ = r.orders.Cancel(id, o.ClientOrderID)
		}
	}
	return nil
}

// Activate restores the listed frozen sub-accounts. Every one must exist
// (NotFound); the result is false when one of them is disabled, which
// stays disabled.
func (r *Registry) Activate(super string, refs []string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	subs, err := r.findAll(super, refs)
	if err != nil {
		if err.Kind == NotFound && r.faults.On("V3-SUBACC-ERR-21001") {
			return true, nil
		}
		return false, err
	}
	ok := true
	for _, s := range subs {
		switch s.State {
		case Disable:
			ok = r.faults.On("V3-SUBACC-ACTIVATE-DISABLED")
		case Frozen:
			if !r.faults.On("V3-SUBACC-ACTIVATE") {
				s.State = Active
			}
		}
	}
	return ok, nil
}

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

// ACLs answers the listed sub-accounts' settings, or of every usable one
// when refs is empty; a frozen or disabled one named is Unusable.
func (r *Registry) ACLs(super string, refs []string) ([]ACL, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(refs) == 0 || r.faults.On("V3-SUBACC-ACL-FILTER") {
		var out []ACL
		for _, s := range r.bySuper[super] {
			if usable(s) == nil {
				out = append(out, s.acl)
			}
		}
		return out, nil
	}
	subs, err := r.findAll(super, refs)
	if err != nil {
		return nil, err
	}
	out := make([]ACL, 0, len(subs))
	for _, s := range subs {
		if err := usable(s); err != nil && !r.faults.On("V3-SUBACC-ACL-FROZEN") {
			return nil, err
		}
		out = append(out, s.acl)
	}
	return out, nil
}

// SetACL changes the listed sub-accounts' settings, all or none; a frozen
// or disabled one is Unusable. description nil leaves it as it was.
func (r *Registry) SetACL(super string, refs []string, depositGen, withdraw bool, description *string) ([]ACL, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	subs, err := r.findAll(super, refs)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if err := usable(s); err != nil && !r.faults.On("V3-SUBACC-ACL-FROZEN") {
			return nil, err
		}
	}
	now := r.clock.Now().UTC().Truncate(time.Millisecond)
	out := make([]ACL, 0, len(subs))
	for _, s := range subs {
		next := s.acl
		next.DepositAddressGeneration, next.Withdraw, next.UpdatedAt = depositGen, withdraw, now
		if description != nil {
			next.Description = *description
		}
		if !r.faults.On("V3-SUBACC-ACL-SET") {
			s.acl = next
		}
		out = append(out, next)
	}
	return out, nil
}

// Balances is a sub-account's wallet and trading balances, non-zero only.
type Balances struct {
	Wallet, Spot []ledger.Balance
}

// Balance answers a sub-account's balances, in any state.
func (r *Registry) Balance(super, ref string) (Balances, error) {
	r.mu.Lock()
	s, err := r.find(super, ref)
	if err == nil && s.State != Active && r.faults.On("V3-SUBACC-BALANCE-ANY-STATE") {
		err = refuse(Unusable, "sub-account %s is frozen or disabled", s.ID)
	}
	r.mu.Unlock()
	if err != nil {
		return Balances{}, err
	}
	return Balances{Wallet: r.nonZero(WalletKey(s.ID)), Spot: r.nonZero(s.ID)}, nil
}

func (r *Registry) nonZero(account string) []ledger.Balance {
	var out []ledger.Balance
	for _, b := range r.ledger.Balances(account) {
		if !b.Available.IsZero() || !b.Reserved.IsZero() || r.faults.On("V3-SUBACC-BALANCE") {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Lookup answers one of the super account's sub-accounts.
func (r *Registry) Lookup(super, ref string) (Sub, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.find(super, ref)
	if err != nil {
		return Sub{}, err
	}
	return s.Sub, nil
}

// Address is a deterministic deposit address of a sub-account for a
// currency and network: the same request answers the same address.
func Address(id, currency, network string) string {
	h := uint64(14695981039346656037)
	for _, c := range id + "/" + currency + "/" + network {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return fmt.Sprintf("%s%016x%s", strings.ToLower(currency[:min(3, len(currency))]), h, id[:min(8, len(id))])
}
