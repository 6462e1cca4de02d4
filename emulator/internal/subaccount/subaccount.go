// Package subaccount keeps the emulator's sub-accounts: which super account
// owns them, their state (new, active, disable, and frozen after a freeze),
// their withdrawal settings (ACL), and the transfers between them, on the
// same ledger as spot and margin trading. Both API versions serve it.
package subaccount

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/wallet"
	"github.com/conform-harness/conform/fixtures"
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

// WalletKey is the ledger account holding the wallet (main) balance of
// account, the wallet package's: where a freeze moves the trading funds.
func WalletKey(account string) string { return wallet.Key(account) }

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

// FreezeOptions are the fault paths of one caller of FreezeWith. Both
// versions freeze through the same registry (one state, as the v2 document
// says), so a fault of one version's freeze is a flag its handler passes
// down rather than a check here, where it would break the other version's
// rules too. The zero value is the documented freeze.
type FreezeOptions struct {
	KeepOrders bool // leave the frozen accounts' orders active
	KeepFunds  bool // leave their funds on the trading balance
}

// Freeze freezes the listed sub-accounts, all or none: every one of them
// must exist (NotFound) and be neither frozen nor disabled (AlreadyOff).
// Their orders are canceled (spot, margin, order lists) and their trading
// balance moves to their wallet.
func (r *Registry) Freeze(super string, refs []string) error {
	return r.FreezeWith(super, refs, FreezeOptions{})
}

// FreezeWith is Freeze with a caller's fault paths.
func (r *Registry) FreezeWith(super string, refs []string, opt FreezeOptions) error {
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
		if err := r.shutDown(id, opt); err != nil {
			return err
		}
	}
	return nil
}

// shutDown cancels every order of a frozen account and moves its trading
// balance to its wallet.
func (r *Registry) shutDown(id string, opt FreezeOptions) error {
	// KeepOrders leaves every kind of order active: the v2 sentence ("all
	// their orders are canceled") covers them all.
	if !opt.KeepOrders && !r.faults.On("V3-SUBACC-FREEZE-CANCELS") {
		if err := r.cancelSpot(id); err != nil {
			return err
		}
	}
	if !opt.KeepOrders && !r.faults.On("V3-SUBACC-FREEZE-CANCELS-MARGIN") {
		if _, err := r.orders.CancelAll(engine.MarginKey(id), ""); err != nil {
			return fmt.Errorf("subaccount: cancel margin orders of %s: %w", id, err)
		}
		if _, err := r.orders.CancelAll(engine.FuturesKey(id), ""); err != nil {
			return fmt.Errorf("subaccount: cancel futures orders of %s: %w", id, err)
		}
	}
	if opt.KeepFunds || r.faults.On("V3-SUBACC-FREEZE-FUNDS") {
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
			_, _ = r.orders.Cancel(id, o.ClientOrderID())
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
