// Package ledger keeps the emulator's balances: per account and currency,
// the available and reserved amounts, exact. Balances are kept in fixed
// point (emulator/internal/fixed) so that the engine settles with integer
// arithmetic; decimals are made only where an API reads or writes them.
package ledger

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/shopspring/decimal"
)

// Balance is one currency of one account.
type Balance struct {
	Currency  string
	Available decimal.Decimal
	Reserved  decimal.Decimal
}

// bal is one balance as kept.
type bal struct {
	avail, resv fixed.Amount
}

func (b *bal) view(currency string) Balance {
	return Balance{Currency: currency, Available: b.avail.Decimal(), Reserved: b.resv.Decimal()}
}

// Ledger is safe for concurrent use.
type Ledger struct {
	mu       sync.Mutex
	accounts map[string]map[string]*bal
	faults   *faults.Set
	gen      uint64 // counts resets: a Ref made before one looks up again
	pend     []pending
	held     Held // what Hold returns
}

// Held is the ledger while one caller holds its lock (see Hold): the
// operations the engine uses, without a lock per call. It is only valid
// between Hold and Done.
type Held struct{ l *Ledger }

// Hold takes the ledger's lock until Done, for a caller that makes several
// changes in one step of its own.
func (l *Ledger) Hold() *Held {
	l.mu.Lock()
	return &l.held
}

// Done releases the lock taken by Hold.
func (h *Held) Done() { h.l.mu.Unlock() }

// Ref is a handle on one balance for a caller that moves it often (the
// engine settles every trade on six): a Move through it finds the balance
// without map lookups. It stays good across Reset, after which it finds the
// balance by name again. A Ref is not safe for concurrent use by itself;
// the caller serialises its use (the ledger's lock covers the balance).
type Ref struct {
	Account, Currency string
	b                 *bal
	gen               uint64
}

// NewRef makes a handle on the balance of currency in account.
func NewRef(account, currency string) *Ref { return &Ref{Account: account, Currency: currency} }

// find is the balance of r, or nil when there is none yet; the caller
// holds the lock.
func (l *Ledger) find(r *Ref) *bal {
	if r.b != nil && r.gen == l.gen {
		return r.b
	}
	b := l.accounts[r.Account][r.Currency]
	if b != nil {
		r.b, r.gen = b, l.gen
	}
	return b
}

// New returns an empty ledger.
func New(f *faults.Set) *Ledger {
	l := &Ledger{accounts: map[string]map[string]*bal{}, faults: f}
	l.held.l = l
	return l
}

// Reset drops every balance.
func (l *Ledger) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.accounts = map[string]map[string]*bal{}
	l.gen++
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
	var avail fixed.Amount
	if b := l.accounts[account][currency]; b != nil {
		avail = b.avail
	}
	next := avail.Add(fixed.FromDecimal(amount))
	if next.IsNegative() {
		return fmt.Errorf("ledger: debit of %s %s exceeds available %s", amount.Neg(), currency, avail)
	}
	l.balance(account, currency).avail = next
	return nil
}

// Balances returns an account's balances sorted by currency.
func (l *Ledger) Balances(account string) []Balance {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Balance, 0, len(l.accounts[account]))
	for cur, b := range l.accounts[account] {
		out = append(out, b.view(cur))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Balance returns one currency of an account (zero when never credited).
func (l *Ledger) Balance(account, currency string) Balance {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balanceLocked(account, currency)
}

// Balance is Ledger.Balance under Hold.
func (h *Held) Balance(account, currency string) Balance { return h.l.balanceLocked(account, currency) }

func (l *Ledger) balanceLocked(account, currency string) Balance {
	if b := l.accounts[account][currency]; b != nil {
		return b.view(currency)
	}
	return Balance{Currency: currency}
}

// ErrInsufficient is wrapped by the errors of Reserve and Apply when an
// account's available (or reserved) amount cannot cover a debit.
var ErrInsufficient = errors.New("ledger: insufficient funds")

// Delta is one change to one balance, applied by Apply together with others.
type Delta struct {
	Account, Currency string
	// Available and Reserved are added to the balance (negative to debit).
	Available, Reserved decimal.Decimal
	// MayOverdraw lets the available amount of this balance end below zero:
	// for the house fee account, which pays maker rebates before it is paid
	// taker fees, and for the fault paths that break the funds rules.
	MayOverdraw bool
}

// Apply changes several balances at once: either every delta is applied or,
// when one balance would end below zero, none is. Deltas on the same balance
// add up before the check, so their order does not matter. A reserved amount
// may never end below zero.
func (l *Ledger) Apply(ds ...Delta) error {
	var buf [smallApply]Move
	ms := asMoves(buf[:0], ds)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.apply(ms)
}

// Apply is Ledger.Apply under Hold.
func (h *Held) Apply(ds ...Delta) error {
	var buf [smallApply]Move
	return h.l.apply(asMoves(buf[:0], ds))
}

// asMoves appends ds to ms as fixed-point moves.
func asMoves(ms []Move, ds []Delta) []Move {
	for _, d := range ds {
		ms = append(ms, Move{Account: d.Account, Currency: d.Currency, Available: fixed.FromDecimal(d.Available),
			Reserved: fixed.FromDecimal(d.Reserved), MayOverdraw: d.MayOverdraw})
	}
	return ms
}

// Move is a Delta in fixed-point amounts, for the engine's settlement. It
// names its balance either by Account and Currency or by Ref.
type Move struct {
	Account, Currency   string
	Ref                 *Ref
	Available, Reserved fixed.Amount
	MayOverdraw         bool
}

// ApplyMoves is Apply for fixed-point amounts.
func (l *Ledger) ApplyMoves(ms ...Move) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.applyMovesLocked(ms...)
}

// ApplyMoves is Ledger.ApplyMoves under Hold.
func (h *Held) ApplyMoves(ms ...Move) error { return h.l.applyMovesLocked(ms...) }

func (l *Ledger) applyMovesLocked(ms ...Move) error {
	return l.apply(ms)
}

// Leg is one balance's part in a Settle: amounts added to it (negative:
// taken) through a Ref.
type Leg struct {
	Ref                 *Ref
	Available, Reserved fixed.Amount
}

// Settle is ApplyMoves for a trade's common case, without its bookkeeping
// by name: every leg is on a balance that exists and the Ref knows (not
// made or reset since), no available amount is taken, and no reserved
// amount goes below zero. When any of that does not hold it changes
// nothing and returns false, and the caller takes ApplyMoves, which says
// why. (A trade settled on every one of its six balances through the
// general path spent a quarter of the engine's time there.)
func (l *Ledger) Settle(legs []Leg) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.settleLocked(legs)
}

// Settle is Ledger.Settle under Hold.
func (h *Held) Settle(legs []Leg) bool { return h.l.settleLocked(legs) }

func (l *Ledger) settleLocked(legs []Leg) bool {
	for i := range legs {
		g := &legs[i]
		if g.Ref.b == nil || g.Ref.gen != l.gen || g.Available.IsNegative() || g.Reserved.IsPositive() {
			return false
		}
	}
	for i := range legs {
		g := &legs[i]
		b := g.Ref.b
		if !g.Reserved.IsZero() {
			r := b.resv.Add(g.Reserved)
			if r.IsNegative() {
				for j := i - 1; j >= 0; j-- { // undo: a Ref may come twice
					u := &legs[j]
					u.Ref.b.resv = u.Ref.b.resv.Sub(u.Reserved)
					u.Ref.b.avail = u.Ref.b.avail.Sub(u.Available)
				}
				return false
			}
			b.resv = r
		}
		if !g.Available.IsZero() {
			b.avail = b.avail.Add(g.Available)
		}
	}
	return true
}

// Trades settle with a handful of deltas; sized so the common case does not
// allocate.
const smallApply = 8

func (l *Ledger) apply(ms []Move) error {
	// One entry per distinct balance; the moves on it add up. The scratch
	// is the ledger's (the caller holds the lock): zeroing a fresh array
	// on every trade showed in profiles.
	ns := l.pend[:0]
	defer func() { l.pend = ns[:0] }()
	for k := range ms {
		d := &ms[k]
		if d.Available.IsZero() && d.Reserved.IsZero() {
			continue
		}
		var b *bal
		if d.Ref != nil {
			b = l.find(d.Ref)
		} else {
			b = l.accounts[d.Account][d.Currency]
		}
		i := 0
		for ; i < len(ns); i++ {
			if ns[i].b == b && (b != nil || sameNames(&ms[ns[i].m], d)) {
				break
			}
		}
		if i == len(ns) {
			n := pending{b: b, m: k}
			if b != nil {
				n.avail, n.reserved = b.avail, b.resv
			}
			ns = append(ns, n)
		}
		n := &ns[i]
		if !d.Available.IsZero() {
			n.avail = n.avail.Add(d.Available)
		}
		if !d.Reserved.IsZero() {
			n.reserved = n.reserved.Add(d.Reserved)
		}
		n.overdraw = n.overdraw || d.MayOverdraw
	}
	for i := range ns {
		n := &ns[i]
		if below(n.reserved, n.b, true) {
			acct, cur := ms[n.m].names()
			return fmt.Errorf("%w: %s would have %s %s reserved", ErrInsufficient, acct, n.reserved, cur)
		}
		if !n.overdraw && below(n.avail, n.b, false) {
			acct, cur := ms[n.m].names()
			return fmt.Errorf("%w: %s would have %s %s available", ErrInsufficient, acct, n.avail, cur)
		}
	}
	for i := range ns {
		n := &ns[i]
		b := n.b
		if b == nil {
			b = l.balance(ms[n.m].names())
			if r := ms[n.m].Ref; r != nil {
				r.b, r.gen = b, l.gen
			}
		}
		b.avail, b.resv = n.avail, n.reserved
	}
	return nil
}

// pending is what apply adds up for one balance: b (nil when it does not
// exist yet), the first move on it (ms[m]), and its amounts after the moves.
type pending struct {
	b               *bal
	m               int
	avail, reserved fixed.Amount
	overdraw        bool
}

// sameNames reports whether two moves are on the same balance by name.
func sameNames(x, y *Move) bool {
	xa, xc := x.names()
	ya, yc := y.names()
	return xa == ya && xc == yc
}

// names are the account and currency a move is on.
func (m *Move) names() (string, string) {
	if m.Ref != nil {
		return m.Ref.Account, m.Ref.Currency
	}
	return m.Account, m.Currency
}

// balance returns (creating) one balance; the caller holds the lock.
func (l *Ledger) balance(account, currency string) *bal {
	acct := l.accounts[account]
	if acct == nil {
		acct = map[string]*bal{}
		l.accounts[account] = acct
	}
	b := acct[currency]
	if b == nil {
		b = &bal{}
		acct[currency] = b
	}
	return b
}

// Accounts lists every account holding a balance, sorted.
func (l *Ledger) Accounts() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.accounts))
	for a := range l.accounts {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Total is the sum of available and reserved of one currency over every
// account: trading moves funds between accounts but never changes it.
func (l *Ledger) Total(currency string) decimal.Decimal {
	l.mu.Lock()
	defer l.mu.Unlock()
	var t fixed.Amount
	for _, acct := range l.accounts {
		if b := acct[currency]; b != nil {
			t = t.Add(b.avail).Add(b.resv)
		}
	}
	return t.Decimal()
}
