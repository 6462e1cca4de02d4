package engine

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Options tune an Engine. Zero fields take the documented defaults.
type Options struct {
	// MaxActivePerSymbol caps a user's active and suspended orders in one
	// symbol (spec: Limits, Other limits); default 2000.
	MaxActivePerSymbol int
	// MaxActivePerUser caps a user's active and suspended orders across
	// symbols; default 25000.
	MaxActivePerUser int
	// FeeAccount is the ledger account that collects fees and pays maker
	// rebates; default "__fees__".
	FeeAccount string
	// Margin is the margin configuration (emulator/internal/margin): which symbols
	// trade on margin in which mode, at what leverage. Without it no
	// margin account can be opened. Every symbol named must be one of the
	// engine's with its fee charged in its quote currency; New panics
	// otherwise (margin.Load checks fixture data and reports such errors).
	Margin []margin.Params
	// Futures are the futures contracts (FuturesSymbolsFrom): books that
	// only futures orders trade.
	Futures []Symbol
	// FuturesMargin is the futures configuration (GET /futures/config):
	// which futures contracts (symbols with Futures set) trade in which
	// margin mode, at what leverage at most.
	FuturesMargin []margin.Params
	// Retention bounds what history keeps; zero fields take the defaults.
	Retention Retention
	// Observer, when set, receives every order update, public trade and
	// book change (see Event); nil costs nothing.
	Observer Observer
}

// Retention bounds an account's order and trade history, so that the
// engine's memory stays flat however long it runs. The documents require
// orders without executions to leave history after 24 hours and let the
// history endpoints reach at most offset 100,000 plus limit 1,000 records;
// the defaults keep that many.
type Retention struct {
	// Orders is how many final (filled, canceled, expired) orders an
	// account's history keeps; older ones leave it first, before the 24
	// hours if need be. Active orders always stay. Default 101,000.
	Orders int
	// Trades is how many trades an account's trade history keeps; older
	// ones leave it first. Default 101,000.
	Trades int
}

// DefaultRetention is offset maximum plus limit maximum of the history
// endpoints (spec: Limits, 3).
const DefaultRetention = 101_000

// Defaults of Options.
const (
	DefaultMaxActivePerSymbol = 2000
	DefaultMaxActivePerUser   = 25000
	DefaultFeeAccount         = "__fees__"
)

// Documented history paging (spec: Spot order history query).
const (
	defaultHistoryLimit = 100
	defaultTradesLimit  = 100
)

// historyRetention is how long an order without executions stays in history
// after its last update (spec: Order history record).
const historyRetention = 24 * time.Hour

// Engine is the spot matching engine. It is safe for concurrent use: one
// mutex serialises every call, which keeps balances and books consistent
// with each other at every step, and each call holds the ledger for its
// length (see lock).
type Engine struct {
	mu     sync.Mutex
	clk    clock.Clock
	led    *ledger.Ledger
	faults *faults.Set
	opts   Options

	books    map[string]*book
	bookList []*book
	accounts map[string]*account

	lastOrderID, lastTradeID int64
	// purgedEarly counts purge entries whose order Retention deleted first.
	purgedEarly int
	cloidSeq    uint64

	// expiries holds active orders with a deadline (Day, GTD); purges holds
	// final orders without executions, due to leave history. Both are swept
	// lazily at the start of every call.
	expiries, purges deadlines

	fired    []*order      // scratch for stop triggers
	moves    []ledger.Move // scratch for a trade's ledger moves (zeroing a fresh array per trade showed in profiles)
	tradeBuf []execution   // where the next answer's trades go (see answerTrades)

	// Order-list effects wait here until the matching in progress is over
	// (see drain): orders an OCO execution canceled, and secondaries a
	// primary's fill activated.
	doomed, activations []*order

	// Order records to reuse (see recycle): freed holds those whose
	// orders ended during the current call, free those ready for the
	// next placements. A record is only reused in a later call than the
	// one that ended its order, when no engine code still holds it.
	free, freed []*order
	// keepRecords turns recycling off: the test that compares both sets it.
	keepRecords bool

	// Margin: configuration by symbol, open accounts by ledger account ID.
	marginCfg map[string]*marginSym
	margin    map[string]*marginAcct
	lastPosID int64

	obs Observer

	lh  *ledger.Held // the ledger, held during a call (see lock)
	seq uint64       // last Event.Seq emitted
}

// New returns an engine trading symbols, keeping balances in l. Every symbol
// must have a positive tick size and quantity increment and a fee currency
// that is its base or its quote; New panics otherwise (SymbolsFrom checks
// fixture data and reports such errors).
func New(symbols []Symbol, l *ledger.Ledger, clk clock.Clock, f *faults.Set, opts Options) *Engine {
	if opts.MaxActivePerSymbol <= 0 {
		opts.MaxActivePerSymbol = DefaultMaxActivePerSymbol
	}
	if opts.MaxActivePerUser <= 0 {
		opts.MaxActivePerUser = DefaultMaxActivePerUser
	}
	if opts.FeeAccount == "" {
		opts.FeeAccount = DefaultFeeAccount
	}
	if opts.Retention.Orders <= 0 {
		opts.Retention.Orders = DefaultRetention
	}
	if opts.Retention.Trades <= 0 {
		opts.Retention.Trades = DefaultRetention
	}
	if clk == nil {
		clk = clock.Real{}
	}
	e := &Engine{clk: clk, led: l, faults: f, opts: opts, books: map[string]*book{}, marginCfg: map[string]*marginSym{}, obs: opts.Observer}
	for _, s := range append(symbols, opts.Futures...) {
		if err := checkFuturesSymbol(s); err != nil {
			panic(fmt.Sprintf("engine: %v", err))
		}
		b, err := newBook(s, len(e.bookList))
		if err != nil {
			panic(fmt.Sprintf("engine: %v", err))
		}
		if _, dup := e.books[s.Code]; dup {
			panic(fmt.Sprintf("engine: symbol %s given twice", s.Code))
		}
		e.books[s.Code] = b
		e.bookList = append(e.bookList, b)
	}
	for _, b := range e.bookList {
		b.count, b.feeRef = len(e.bookList), ledger.NewRef(opts.FeeAccount, b.sym.FeeCurrency)
	}
	for _, p := range append(opts.Margin, opts.FuturesMargin...) {
		if err := e.addMarginParams(p); err != nil {
			panic(fmt.Sprintf("engine: %v", err))
		}
	}
	e.resetLocked()
	return e
}

// SymbolsFrom converts the spot symbols of a market catalogue.
func SymbolsFrom(m *market.Catalogue) ([]Symbol, error) {
	var out []Symbol
	for _, code := range m.SymbolCodes() {
		ms, ok := m.Symbol(code)
		if !ok || ms.Type != market.TypeSpot {
			continue
		}
		s := Symbol{Code: code, Quote: ms.QuoteCurrency, FeeCurrency: ms.FeeCurrency, Status: ms.Status}
		if ms.BaseCurrency != nil {
			s.Base = *ms.BaseCurrency
		} else if b, ok := strings.CutSuffix(code, ms.QuoteCurrency); ok && b != "" {
			// A market-data fault may hide base_currency; trading needs it.
			s.Base = b
		} else {
			return nil, fmt.Errorf("engine: symbol %s has no base currency", code)
		}
		for _, f := range []struct {
			name string
			src  string
			dst  *decimal.Decimal
		}{
			{"tick_size", ms.TickSize, &s.TickSize},
			{"quantity_increment", ms.QuantityIncrement, &s.QuantityStep},
			{"take_rate", ms.TakeRate, &s.TakeRate},
			{"make_rate", ms.MakeRate, &s.MakeRate},
		} {
			d, err := decimal.NewFromString(f.src)
			if err != nil {
				return nil, fmt.Errorf("engine: symbol %s %s: %w", code, f.name, err)
			}
			*f.dst = d
		}
		if _, err := newBook(s, 0); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// Reset drops every order, trade and history record and restarts the ID
// counters. It does not touch the ledger: funds reserved for active orders
// stay reserved, so reset the ledger too (ResetWith does both atomically).
func (e *Engine) Reset() {
	e.lock()
	defer e.unlock()
	e.resetLocked()
}

// ResetWith resets the engine and runs fn (typically a ledger reset and
// refunding) while holding the engine's lock, so that no order is placed
// between the two.
func (e *Engine) ResetWith(fn func() error) error {
	// The engine's lock only: fn works on the ledger.
	e.mu.Lock()
	defer e.mu.Unlock()
	e.resetLocked()
	if fn == nil {
		return nil
	}
	return fn()
}

func (e *Engine) resetLocked() {
	for _, b := range e.bookList {
		b.reset()
	}
	e.accounts = map[string]*account{}
	e.lastOrderID, e.lastTradeID, e.cloidSeq = 0, 0, 0
	e.expiries, e.purges, e.purgedEarly = nil, nil, 0
	e.free, e.freed = nil, nil
	e.doomed, e.activations = nil, nil
	e.margin = map[string]*marginAcct{}
	e.lastPosID = 0
	if e.wants(ResetEvent) {
		e.emit(Event{Kind: ResetEvent})
	}
}

// lock serialises an engine call and holds the ledger for its length:
// its reservations, trades and releases then take no lock of their own.
func (e *Engine) lock() {
	e.mu.Lock()
	e.lh = e.led.Hold()
}

// unlock ends what lock began.
func (e *Engine) unlock() {
	e.lh.Done()
	e.mu.Unlock()
}

// now reads the clock and applies what became due since the last call,
// including what an expiry does to the rest of an order list. Every
// engine call begins with it.
func (e *Engine) now() int64 {
	if len(e.freed) > 0 {
		// A new call: the records of orders that ended in earlier ones are
		// no longer held by anything.
		e.free = append(e.free, e.freed...)
		clear(e.freed)
		e.freed = e.freed[:0]
	}
	t := e.clk.Now().UnixNano()
	e.sweep(t)
	if len(e.doomed) > 0 || len(e.activations) > 0 {
		e.drain(t)
	}
	return t
}

// sweep expires Day and GTD orders whose time has come and deletes from
// history the final orders without executions that are 24 hours old.
func (e *Engine) sweep(now int64) {
	for len(e.expiries) > 0 && e.expiries[0].at <= now {
		d := e.expiries.pop()
		o := d.o
		if o.deadline != d.at || !o.active() {
			continue // filled or canceled before its deadline
		}
		e.unlink(o)
		e.finalize(o, cExpired, d.at, true)
	}
	for len(e.purges) > 0 && e.purges[0].at <= now {
		d := e.purges.pop()
		if o := d.o; !o.deleted {
			a := o.acct
			if i := a.entryOf(o); i < a.hist.len() {
				e.purge(a, i)
			}
		}
	}
}

// marginSuffix marks the engine account that keeps a trader's margin
// orders, apart from their spot orders (own client_order_id namespace,
// active set, history and trades).
const marginSuffix = "|margin"

// MarginKey is the account key under which the engine keeps a trader's
// margin orders: pass it to Active, Get, Cancel, CancelAll, Replace and
// History to work on margin orders instead of spot ones.
func MarginKey(account string) string { return account + marginSuffix }

// account returns (creating) the state of an account.
func (e *Engine) account(id string) *account {
	a := e.accounts[id]
	if a == nil {
		a = &account{id: id, user: userOf(id), byCloid: map[string]*order{},
			perSym: make([]int, len(e.bookList)), maxTrades: e.opts.Retention.Trades}
		e.accounts[id] = a
	}
	return a
}

func errorf(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// notFound is the one answer to an unknown or inactive order.
func (e *Engine) notFound(cloid string) *Error {
	if e.faults.On("V3-SPOT-NOT-FOUND") {
		return errorf(ErrValidation, "order %q not found", cloid)
	}
	return errorf(ErrOrderNotFound, "order %q not found", cloid)
}

// activeOrder finds an account's active order by client_order_id.
func (e *Engine) activeOrder(account, cloid string) (*order, *Error) {
	if a := e.accounts[account]; a != nil {
		if o := a.lookup(cloid); o != nil && o.active() {
			return o, nil
		}
	}
	return nil, e.notFound(cloid)
}

// dayDeadline is when a Day order created at now expires: 23:59 UTC of that
// day, or of the next day when created in the last minute of a day.
func dayDeadline(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	dl := time.Date(y, m, d, 23, 59, 0, 0, time.UTC)
	if !now.Before(dl) {
		dl = dl.AddDate(0, 0, 1)
	}
	return dl
}

// deadlineOf is when an order created at now expires by its time in force
// (0: never).
func (e *Engine) deadlineOf(o *order, now int64) int64 {
	switch o.tif {
	case cDay:
		if e.faults.On("V3-SPOT-DAY") {
			return 0
		}
		return dayDeadline(time.Unix(0, now).UTC()).UnixNano()
	case cGTD:
		if e.faults.On("V3-SPOT-GTD") {
			return 0
		}
		return o.expire()
	case cGTC:
		if e.faults.On("V3-SPOT-GTC") {
			return now + int64(24*time.Hour)
		}
	}
	return 0
}
