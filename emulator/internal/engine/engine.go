package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/fixed"
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

// finalize ends an order's life with status at time at: its remaining
// reservation goes back to available (unless release is false), it leaves
// the active set, and, when it never executed, it is scheduled to leave
// history. The caller has already taken it off the book.
func (e *Engine) finalize(o *order, status statusCode, at int64, release bool) {
	o.status = status
	o.updated = at
	if status != cFilled && !o.superseded {
		// A fill was reported with its trade; a replaced order by its
		// replacement.
		e.emitOrder(o, reportOf(status), nil)
	}
	if release && o.resv.IsPositive() {
		// An error means the ledger was reset under the engine; the funds
		// it would release no longer exist.
		if r := o.resvRef(); r != nil {
			_ = e.lh.ReleaseRef(r, o.resv)
		} else {
			_ = e.lh.ReleaseAmount(o.resvAccount(), o.resvCurrency(), o.resv)
		}
		o.resv = fixed.Amount{}
	}
	a := o.acct
	if a.removeActive(o) {
		a.perSym[o.bk.idx]--
		if a.trimAt > 0 && a.trimAt <= a.hist.len() && o.id <= a.hist.at(a.trimAt-1).id {
			// The cursor passed it while it was active.
			a.behind = append(a.behind, o.id)
		}
	}
	if o.list != nil && !o.replaced {
		e.listEnded(o)
	}
	if o.filled == 0 && !e.faults.On("V3-SPOT-HISTORY-24H") {
		o.purgeAt = at + int64(historyRetention)
		e.purges.push(deadline{at: o.purgeAt, o: o})
		if i := a.entryOf(o); i < a.hist.len() {
			a.hist.at(i).scheduled = true
		}
	}
	e.retain(a)
	e.recycle(o)
}

// newOrder is a zero order record, reused when one is free.
func (e *Engine) newOrder() *order {
	if n := len(e.free); n > 0 {
		o := e.free[n-1]
		e.free[n-1] = nil
		e.free = e.free[:n-1]
		*o = order{}
		return o
	}
	return &order{}
}

// recycle hands the record of final order o back for reuse when nothing
// but history can reach it, history keeping the order in compact form
// instead. Reused while still in the cache, records cost no fresh memory
// per placement (at a history of 100,000 orders per account, writing and
// collecting fresh ones was a fifth of the engine's time). That holds
// for plain spot orders with generated IDs: no list, margin, deadline,
// purge schedule, extra field or index entry refers to them.
func (e *Engine) recycle(o *order) {
	a := o.acct
	// A final order is off its book and out of the active set (finalize's
	// callers unlink it first); what else could still reach it is ruled
	// out here, and a deleted or already compact entry by entryOf.
	if e.keepRecords || o.active() || o.mg != nil || o.list != nil || o.x != nil || !o.genID || a.foreignHex ||
		o.deadline != 0 || o.purgeAt != 0 {
		return
	}
	i := a.entryOf(o)
	if i == a.hist.len() {
		return
	}
	h := a.hist.at(i)
	h.c = compactRec{bk: o.bk, qty: o.qty, filled: o.filled, price: o.price, stop: o.stop, cum: o.cum,
		created: o.created, updated: o.updated, status: o.status, side: o.side, typ: o.typ, tif: o.tif,
		postOnly: o.postOnly, triggered: o.triggered}
	h.o = nil
	e.freed = append(e.freed, o)
}

func reportOf(s statusCode) ReportType {
	if s == cExpired {
		return ReportExpired
	}
	return ReportCanceled
}

// purge deletes the final order of history entry i of a from history; its
// client_order_id becomes free again. It reads nothing of the order unless
// the account's index of chosen IDs holds it.
func (e *Engine) purge(a *account, i int) {
	h := a.hist.at(i)
	if h.o != nil {
		h.o.deleted = true
	}
	h.deleted = true
	if h.scheduled {
		e.purgedEarly++ // its entry in purges is now dead weight
	}
	if h.o != nil && (!h.genID || a.foreignHex) {
		a.unindex(h.o)
	}
	// History lets go of the record at once: deleted entries behind an
	// active one linger until compaction, and the records they held were
	// 40% of the heap.
	h.o = nil
	a.deleted++
	if i == 0 {
		// The front goes at once; the cursor moves with the entries.
		k := a.hist.popDeleted()
		a.deleted -= k
		a.trimAt = max(0, a.trimAt-k)
	}
	if a.deleted > 1024 && a.deleted*2 > a.hist.len() {
		a.hist.compact()
		a.deleted, a.trimAt = 0, 0
	}
}

// retain keeps an account's history within Retention.Orders final orders,
// deleting the oldest first; a cursor spares rescanning what it passed.
// Entries of the purge schedule whose order left early are dropped once
// they are the larger part, so that the schedule stays bounded too.
func (e *Engine) retain(a *account) {
	for final := a.hist.len() - a.deleted - len(a.active); final > e.opts.Retention.Orders && (len(a.behind) > 0 || a.trimAt < a.hist.len()); {
		if len(a.behind) > 0 {
			// Orders that ended behind the cursor are older than any
			// record ahead of it: they go first, oldest first.
			j := 0
			for k, id := range a.behind {
				if id < a.behind[j] {
					j = k
				}
			}
			id := a.behind[j]
			a.behind[j] = a.behind[len(a.behind)-1]
			a.behind = a.behind[:len(a.behind)-1]
			if i := a.find(id); i < a.hist.len() && !a.hist.at(i).deleted && !a.hist.at(i).isActive() {
				e.purge(a, i)
				final--
			}
			continue
		}
		i := a.trimAt
		a.trimAt++
		if h := a.hist.at(i); h.deleted || h.isActive() {
			continue
		}
		e.purge(a, i) // may compact history and reset the cursor
		final--
	}
	if e.purgedEarly > 1024 && e.purgedEarly*2 > len(e.purges) {
		kept := e.purges[:0]
		for _, d := range e.purges {
			if !d.o.deleted {
				kept = append(kept, d)
			}
		}
		clear(e.purges[len(kept):])
		// A slice sorted by time is a valid min-heap.
		slices.SortFunc(kept, func(x, y deadline) int { return cmp.Compare(x.at, y.at) })
		e.purges, e.purgedEarly = kept, 0
	}
}

// unlink takes an active order off its book or out of the stop lists.
func (e *Engine) unlink(o *order) {
	switch {
	case o.lvl != nil:
		o.bk.sideOf(o.side).remove(o)
		e.emitLevel(o.bk, o.side, o.price)
	case o.status == cSuspended:
		o.bk.unpark(o)
	}
}

// register gives a validated order its ID and makes it one of the account's
// active orders.
func (e *Engine) register(o *order) {
	e.lastOrderID++
	o.id = e.lastOrderID
	a := o.acct
	e.index(a, o)
	o.histAt = a.hist.push(histEntry{o: o, id: o.id, genSeq: o.genSeq, genID: o.genID})
	a.addActive(o)
	a.perSym[o.bk.idx]++
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
