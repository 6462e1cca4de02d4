package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// Margin trading (spec: Endpoints, Margin trading; Resources, Margin
// account). The model and its formulas are documented in emulator/internal/margin;
// this file keeps the state: accounts, positions, and the margin side of
// orders, all under the engine's lock, with every amount in the ledger.
//
// A margin account is a ledger account of its own (see marginLedgerID),
// holding the collateral currency and, for each open position, the base
// currency of its symbol; both may go below zero, which is the borrowed
// part. A margin order reserves margin in the collateral currency; its
// trades settle into the margin account like a spot trade into a spot
// balance. So Ledger.Total of every currency is unchanged by margin
// trading, as by spot trading.

// MarginAccount is a margin account as the API answers it (spec:
// Resources, Margin account).
type MarginAccount struct {
	// Symbol is the symbol of an isolated account and the currency of a
	// cross account (the spec's field is "symbol"; a cross account has none).
	Symbol string
	Type   string
	// Leverage is the isolated symbol's max_initial_leverage, which every
	// order and position of the account is margined at; nil for cross
	// accounts, whose symbols each have their own.
	Leverage             *decimal.Decimal
	CreatedAt, UpdatedAt time.Time
	Currencies           []MarginCurrency
	Positions            []Position // nil when there is none
}

// MarginCurrency is one currency of a margin account.
type MarginCurrency struct {
	Code string
	// MarginBalance is the collateral plus realized profit and loss, less
	// fees: the account's quote cash plus the cost bases of its positions.
	MarginBalance decimal.Decimal
	// ReservedOrders is what active orders hold.
	ReservedOrders decimal.Decimal
	// ReservedPositions is the initial margin of the open positions:
	// |cost basis| / leverage.
	ReservedPositions decimal.Decimal
}

// Position is an open margin position (spec: Resources, Margin account).
type Position struct {
	ID       int64
	Symbol   string
	Quantity decimal.Decimal // negative when short
	Leverage decimal.Decimal
	// MarginMode is isolated or cross.
	MarginMode string
	// PnL is unrealized: at the symbol's last trade price (zero before the
	// first trade).
	PnL, PriceEntry                   decimal.Decimal
	PriceMarginCall, PriceLiquidation decimal.Decimal
	FeeCumulative                     decimal.Decimal
	CreatedAt, UpdatedAt              time.Time
}

// MarginFunds is what a trader holds in margin accounts in one currency:
// the margin_balance of isolated accounts and of the cross account funded
// in it (spot balance: reserved_margin and cross_margin_reserved).
type MarginFunds struct {
	Isolated, Cross decimal.Decimal
}

// marginSym is one symbol's margin configuration, per mode (nil: none).
type marginSym struct {
	iso, cross *margin.Params
}

func (ms *marginSym) params(mode margin.Mode) *margin.Params {
	if ms == nil {
		return nil
	}
	if mode == margin.Cross {
		return ms.cross
	}
	return ms.iso
}

func (e *Engine) addMarginParams(p margin.Params) error {
	bk := e.books[p.Symbol]
	switch {
	case bk == nil:
		return fmt.Errorf("margin symbol %s is not traded", p.Symbol)
	case !bk.feeInQuote:
		return fmt.Errorf("margin symbol %s charges fees in its base currency", p.Symbol)
	case p.MaxLeverage.LessThan(decimal.New(1, 0)):
		return fmt.Errorf("margin symbol %s leverage %s below 1", p.Symbol, p.MaxLeverage)
	}
	ms := e.marginCfg[p.Symbol]
	if ms == nil {
		ms = &marginSym{}
		e.marginCfg[p.Symbol] = ms
		bk.margin = ms
	}
	slot := &ms.iso
	switch p.Mode {
	case margin.Isolated:
	case margin.Cross:
		slot = &ms.cross
	default:
		return fmt.Errorf("margin symbol %s mode %q", p.Symbol, p.Mode)
	}
	if *slot != nil {
		return fmt.Errorf("margin symbol %s %s given twice", p.Symbol, p.Mode)
	}
	*slot = &p
	return nil
}

// marginAcct is an open margin account.
type marginAcct struct {
	user  string
	mode  margin.Mode
	instr string // the symbol (isolated) or the currency (cross)
	// ledgerID is its ledger account; cur its collateral currency.
	ledgerID, cur    string
	pos              map[int]*position // open positions by book index
	created, updated int64
}

// position is an open position: the account's signed holding of a
// symbol's base currency, in quantity increments, and its cost basis.
type position struct {
	id               int64
	bk               *book
	cfg              *margin.Params
	lots             int64
	cost, fee        decimal.Decimal
	created, updated int64
}

// marginLedgerID names a margin account's ledger account. Fixture account
// IDs hold no "|".
func marginLedgerID(user string, mode margin.Mode, instr string) string {
	return user + "|" + string(mode) + "|" + instr
}

// IsMarginLedgerAccount reports whether a ledger account is a margin
// account, whose balances may be below zero (the borrowed part).
func IsMarginLedgerAccount(id string) bool { return strings.Count(id, "|") == 2 }

// parseMargin reads the margin fields of an order request.
func (e *Engine) parseMargin(req PlaceRequest) (*marginOrder, *Error) {
	mg := &marginOrder{reduceOnly: req.Margin.ReduceOnly, closePos: req.Margin.ClosePosition}
	switch m := req.Margin.Mode; m {
	case "":
		mg.mode = margin.Isolated
		if e.faults.On("V3-MARGIN-ORDER-MODE") {
			mg.mode = margin.Cross
		}
	case string(margin.Isolated), string(margin.Cross):
		mg.mode = margin.Mode(m)
	default:
		return nil, errorf(ErrValidation, "margin_mode %q must be isolated or cross", m)
	}
	if mg.closePos && req.Quantity != nil && !e.faults.On("V3-MARGIN-CLOSE-POSITION") {
		return nil, errorf(ErrValidation, "close_position requires quantity to be omitted: the position's size is the quantity")
	}
	return mg, nil
}

// marginInstrument is the account an order of symbol bk in mode trades
// on: the symbol itself (isolated) or its quote currency (cross).
func marginInstrument(bk *book, mode margin.Mode) string {
	if mode == margin.Cross {
		return bk.sym.Quote
	}
	return bk.sym.Code
}

// bindMargin attaches a parsed margin order to its margin account, which
// must exist (spec: "Creating a margin order requires a margin account for
// the order symbol"). An order without one is refused as insufficient
// funds (20001): it has no margin to trade on.
func (e *Engine) bindMargin(o *order, user string, now int64) *Error {
	mode := o.mg.mode
	p := e.marginCfg[o.bk.sym.Code].params(mode)
	if p == nil || !p.Enabled {
		return errorf(ErrValidation, "symbol %s does not trade on %s margin", o.bk.sym.Code, mode)
	}
	instr := marginInstrument(o.bk, mode)
	ma := e.margin[marginLedgerID(user, mode, instr)]
	if ma == nil {
		if !e.faults.On("V3-MARGIN-ORDER-NEEDS-ACCOUNT") {
			return errorf(ErrInsufficientFunds, "no %s margin account for %s: fund one with PUT /margin/account/%s/%s first", mode, instr, mode, instr)
		}
		ma = e.openMargin(user, mode, instr, o.bk.sym.Quote, now)
		o.mg.force = true
	}
	o.mg.acct = ma
	if o.mg.closePos {
		o.setQty(e.closeSize(o))
	}
	return nil
}

func (e *Engine) openMargin(user string, mode margin.Mode, instr, cur string, now int64) *marginAcct {
	ma := &marginAcct{user: user, mode: mode, instr: instr, ledgerID: marginLedgerID(user, mode, instr), cur: cur,
		pos: map[int]*position{}, created: now, updated: now}
	e.margin[ma.ledgerID] = ma
	return ma
}

// closeSize is how much of the position a reducing order may execute: the
// position's size when the order is on its other side, else zero.
func (e *Engine) closeSize(o *order) int64 {
	p := o.mg.acct.pos[o.bk.idx]
	switch {
	case p == nil:
		return 0
	case o.side == Sell && p.lots > 0:
		return p.lots
	case o.side == Buy && p.lots < 0:
		return -p.lots
	}
	return 0
}

// fillCap is how much an order may execute now: its remaining quantity,
// or for a reducing order no more than closes its position.
func (e *Engine) fillCap(o *order) int64 {
	if !o.reducing() {
		return o.remaining()
	}
	return min(o.remaining(), e.closeSize(o))
}

// marginNeed is what a margin order holds for its remaining quantity:
// the initial margin of its notional plus the highest fee on it, or the
// fee alone for a reducing order. The notional is at the limit price, at
// the stop price for a suspended stopMarket or takeProfitMarket order, and
// at what the book would cost for a market order.
func (e *Engine) marginNeed(o *order) decimal.Decimal {
	if o.remaining() == 0 {
		return decimal.Decimal{}
	}
	var notional decimal.Decimal
	switch {
	case o.marketNow():
		notional = o.bk.opposite(o.side).cost(o.bk, o.remaining())
	case isLimitKind(o.typ):
		notional = o.priceDec.Mul(o.remainingDec())
	default:
		notional = o.bk.tick.decimal(o.stop).Mul(o.remainingDec())
	}
	fee := notional.Mul(o.fees.onePlus.Sub(decimal.New(1, 0)))
	if o.reducing() {
		return fee
	}
	return margin.Initial(notional, o.mg.cfg(o.bk).MaxLeverage).Add(fee)
}

// cfg is the margin configuration the order trades under (never nil once
// bindMargin accepted the order).
func (mg *marginOrder) cfg(bk *book) *margin.Params {
	return bk.margin.params(mg.mode)
}

// freeMargin is what an account can still commit: margin_balance less
// reserved_orders and reserved_positions.
func (e *Engine) freeMargin(ma *marginAcct) decimal.Decimal {
	free := e.led.Balance(ma.ledgerID, ma.cur).Available
	for _, p := range ma.pos {
		free = free.Add(p.cost).Sub(margin.Initial(p.cost, p.cfg.MaxLeverage))
	}
	return free
}

// marginBalance is the account's margin_balance.
func (e *Engine) marginBalance(ma *marginAcct) decimal.Decimal {
	b := e.led.Balance(ma.ledgerID, ma.cur)
	mb := b.Available.Add(b.Reserved)
	for _, p := range ma.pos {
		mb = mb.Add(p.cost)
	}
	return mb
}

// reserveMargin holds a new margin order's margin, which must fit in the
// free margin unless the order only reduces.
func (e *Engine) reserveMargin(o *order) *Error {
	return e.holdMargin(o, e.marginNeed(o))
}

// holdMargin reserves amt more for o in its margin account.
func (e *Engine) holdMargin(o *order, amt decimal.Decimal) *Error {
	if !amt.IsPositive() {
		return nil
	}
	ma := o.mg.acct
	if !o.reducing() && !o.mg.force {
		if free := e.freeMargin(ma); free.LessThan(amt) {
			return errorf(ErrInsufficientFunds, "insufficient margin: the order needs %s %s, the %s margin account of %s has %s free", amt, ma.cur, ma.mode, ma.instr, free)
		}
	}
	if err := e.led.Apply(ledger.Delta{Account: ma.ledgerID, Currency: ma.cur, Available: amt.Neg(), Reserved: amt, MayOverdraw: true}); err != nil {
		return errorf(ErrInsufficientFunds, "reserving %s %s: %v", amt, ma.cur, err)
	}
	o.resv = o.resv.Add(amt)
	return nil
}

// marginLegs appends a margin order's side of a trade: the margin account
// pays or receives the quote and the base like a spot balance, below zero
// if need be, and pays its fee (always in the quote: margin.Load checks it)
// from its cash. The reservation is a hold, released by trim and finalize.
func (e *Engine) marginLegs(ds []ledger.Delta, o *order, q, notional, fee decimal.Decimal) []ledger.Delta {
	ma, bk := o.mg.acct, o.bk
	cash, base := notional.Neg(), q
	if o.side == Sell {
		cash, base = notional, q.Neg()
	}
	return append(ds,
		ledger.Delta{Account: ma.ledgerID, Currency: bk.sym.Quote, Available: cash.Sub(fee), MayOverdraw: true},
		ledger.Delta{Account: ma.ledgerID, Currency: bk.sym.Base, Available: base, MayOverdraw: true},
		ledger.Delta{Account: e.opts.FeeAccount, Currency: bk.sym.FeeCurrency, Available: fee, MayOverdraw: true},
	)
}

// movePosition books a margin order's trade of lots (q as a decimal) at
// price into its position, and answers the position's ID and, when the
// trade reduced it, the realized profit or loss.
func (e *Engine) movePosition(o *order, lots int64, q, price, fee decimal.Decimal, now int64) (int64, *decimal.Decimal) {
	ma, bk := o.mg.acct, o.bk
	dl, dq := lots, q
	if o.side == Sell {
		dl, dq = -lots, q.Neg()
	}
	p := ma.pos[bk.idx]
	if p == nil {
		e.lastPosID++
		p = &position{id: e.lastPosID, bk: bk, cfg: o.mg.cfg(bk), created: now}
		ma.pos[bk.idx] = p
	}
	next, realized := margin.Position{Qty: lotsDecimal(bk, p.lots), Cost: p.cost}.Trade(dq, price)
	id := p.id
	var pnl *decimal.Decimal
	before := p.lots
	if before != 0 && (before > 0) != (dl > 0) {
		pnl = &realized
	}
	p.lots += dl
	p.cost = next.Cost
	p.fee = p.fee.Add(fee)
	p.updated, ma.updated = now, now
	switch {
	case p.lots == 0:
		delete(ma.pos, bk.idx)
	case before != 0 && (before > 0) != (p.lots > 0):
		// Through zero: the old position is closed, the rest is a new one.
		e.lastPosID++
		p.id, p.created, p.fee = e.lastPosID, now, decimal.Decimal{}
	}
	if o.mg.posID == 0 {
		o.mg.posID = id
	}
	return id, pnl
}

// lotsDecimal is a signed number of quantity increments as a decimal.
func lotsDecimal(bk *book, lots int64) decimal.Decimal {
	if lots < 0 {
		return bk.step.decimal(-lots).Neg()
	}
	return bk.step.decimal(lots)
}

// tickPlaces is the number of decimals of bk's prices.
func tickPlaces(bk *book) int32 { return max(-bk.tick.exp, 0) }

// --- answers ---

func (e *Engine) positionView(ma *marginAcct, p *position, balance decimal.Decimal) Position {
	bk := p.bk
	mp := margin.Position{Qty: lotsDecimal(bk, p.lots), Cost: p.cost}
	places := tickPlaces(bk)
	out := Position{ID: p.id, Symbol: bk.sym.Code, Quantity: mp.Qty, Leverage: p.cfg.MaxLeverage, MarginMode: string(ma.mode),
		PriceEntry: mp.Entry(places + 8), FeeCumulative: p.fee, CreatedAt: nanoTime(p.created), UpdatedAt: nanoTime(p.updated),
		PriceMarginCall:  margin.TriggerPrice(mp, balance, p.cfg.MaxLeverage, p.cfg.MarginCallMul, places),
		PriceLiquidation: margin.TriggerPrice(mp, balance, p.cfg.MaxLeverage, p.cfg.LiquidationMul, places)}
	if bk.hasLast {
		out.PnL = mp.PnL(bk.tick.decimal(bk.last))
	}
	return out
}

// positionsOf answers an account's open positions by symbol.
func (e *Engine) positionsOf(ma *marginAcct, balance decimal.Decimal) []Position {
	var out []Position
	for _, p := range ma.pos {
		out = append(out, e.positionView(ma, p, balance))
	}
	slices.SortFunc(out, func(a, b Position) int { return strings.Compare(a.Symbol, b.Symbol) })
	return out
}

func (e *Engine) accountView(ma *marginAcct) MarginAccount {
	b := e.led.Balance(ma.ledgerID, ma.cur)
	mb := e.marginBalance(ma)
	var rp decimal.Decimal
	for _, p := range ma.pos {
		rp = rp.Add(margin.Initial(p.cost, p.cfg.MaxLeverage))
	}
	out := MarginAccount{Symbol: ma.instr, Type: string(ma.mode), CreatedAt: nanoTime(ma.created), UpdatedAt: nanoTime(ma.updated),
		Currencies: []MarginCurrency{{Code: ma.cur, MarginBalance: mb, ReservedOrders: b.Reserved, ReservedPositions: rp}},
		Positions:  e.positionsOf(ma, mb)}
	if ma.mode == margin.Isolated {
		if p := e.marginCfg[ma.instr].params(margin.Isolated); p != nil {
			l := p.MaxLeverage
			out.Leverage = &l
		}
	}
	return out
}

// closedView is the answer for an account that is not (or no longer) open.
func (e *Engine) closedView(mode margin.Mode, instr, cur string, created, now int64) MarginAccount {
	out := MarginAccount{Symbol: instr, Type: string(mode), CreatedAt: nanoTime(created), UpdatedAt: nanoTime(now),
		Currencies: []MarginCurrency{{Code: cur}}}
	if mode == margin.Isolated {
		if p := e.marginCfg[instr].params(margin.Isolated); p != nil {
			l := p.MaxLeverage
			out.Leverage = &l
		}
	}
	return out
}

// resolveMargin checks a margin mode and instrument: an isolated account
// is for a symbol that trades on isolated margin (unknown: 2001), a cross
// account for a currency that some symbol trading on cross margin is
// quoted in (the API answers an unlisted currency with 2002 first). It
// answers the collateral currency.
func (e *Engine) resolveMargin(mode, instr string) (margin.Mode, string, *Error) {
	switch margin.Mode(mode) {
	case margin.Isolated:
		bk := e.books[instr]
		if bk == nil {
			return "", "", errorf(ErrSymbolNotFound, "symbol %q not found", instr)
		}
		if p := e.marginCfg[instr].params(margin.Isolated); p == nil || !p.Enabled {
			return "", "", errorf(ErrValidation, "symbol %s does not trade on isolated margin", instr)
		}
		return margin.Isolated, bk.sym.Quote, nil
	case margin.Cross:
		for _, bk := range e.bookList {
			if p := bk.margin.params(margin.Cross); p != nil && p.Enabled && bk.sym.Quote == instr {
				return margin.Cross, instr, nil
			}
		}
		return "", "", errorf(ErrValidation, "no symbol quoted in %q trades on cross margin", instr)
	}
	return "", "", errorf(ErrValidation, "margin_mode %q must be isolated or cross", mode)
}

// SetMarginBalance sets a margin account's margin_balance (PUT
// /margin/account/{margin_mode}/{instrument}), opening the account when
// needed: the difference moves between the trader's spot balance (its
// available part) and the account in one ledger step. Raising it needs as
// much available in the spot balance, lowering it as much free margin
// (20001 otherwise). Zero closes the account: its active orders are
// canceled and everything it holds goes back to the spot balance; an open
// position must be closed first (20001). The answer is the account after
// the change (closed: zero balances, no positions).
func (e *Engine) SetMarginBalance(account, mode, instrument string, amount decimal.Decimal) (MarginAccount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	m, cur, err := e.resolveMargin(mode, instrument)
	if err != nil {
		return MarginAccount{}, err
	}
	if amount.IsNegative() {
		return MarginAccount{}, errorf(ErrValidation, "margin_balance %s is negative", amount)
	}
	id := marginLedgerID(account, m, instrument)
	ma := e.margin[id]
	var before MarginAccount
	if ma != nil {
		before = e.accountView(ma)
	} else {
		before = e.closedView(m, instrument, cur, now, now)
	}
	out, err := e.setMarginBalance(account, m, instrument, cur, ma, amount, now)
	if err != nil {
		return MarginAccount{}, err
	}
	if e.faults.On("V3-MARGIN-PUT") {
		return before, nil
	}
	return out, nil
}

func (e *Engine) setMarginBalance(account string, m margin.Mode, instr, cur string, ma *marginAcct, amount decimal.Decimal, now int64) (MarginAccount, *Error) {
	if amount.IsZero() {
		if ma == nil {
			return e.closedView(m, instr, cur, now, now), nil
		}
		if e.faults.On("V3-MARGIN-CLOSE") {
			return e.accountView(ma), nil
		}
		if len(ma.pos) > 0 {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "the %s margin account of %s holds open positions: close them before closing the account", m, instr)
		}
		cash := e.led.Balance(ma.ledgerID, cur)
		total := cash.Available.Add(cash.Reserved)
		if total.IsNegative() {
			if avail := e.led.Balance(account, cur).Available; avail.LessThan(total.Neg()) {
				return MarginAccount{}, errorf(ErrInsufficientFunds, "the account owes %s %s and the spot balance has %s available", total.Neg(), cur, avail)
			}
		}
		for _, o := range e.ordersOf(ma) {
			e.unlink(o)
			e.finalize(o, Canceled, now, true)
		}
		// Every order released its hold, so the cash is all available.
		cash = e.led.Balance(ma.ledgerID, cur)
		if err := e.led.Apply(
			ledger.Delta{Account: ma.ledgerID, Currency: cur, Available: cash.Available.Neg(), MayOverdraw: true},
			ledger.Delta{Account: account, Currency: cur, Available: cash.Available},
		); err != nil {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "closing the margin account: %v", err)
		}
		delete(e.margin, ma.ledgerID)
		created := ma.created
		e.drain(now)
		return e.closedView(m, instr, cur, created, now), nil
	}
	opened := ma == nil
	if opened {
		ma = &marginAcct{user: account, mode: m, instr: instr, ledgerID: marginLedgerID(account, m, instr), cur: cur,
			pos: map[int]*position{}, created: now}
	}
	delta := amount.Sub(e.marginBalance(ma))
	switch {
	case delta.IsPositive():
		if avail := e.led.Balance(account, cur).Available; avail.LessThan(delta) {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "insufficient funds: raising the margin balance to %s needs %s %s, the spot balance has %s available", amount, delta, cur, avail)
		}
	case delta.IsNegative():
		if free := e.freeMargin(ma); free.LessThan(delta.Neg()) {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "insufficient margin: lowering the margin balance to %s takes %s %s, %s is free", amount, delta.Neg(), cur, free)
		}
	}
	if err := e.led.Apply(
		ledger.Delta{Account: account, Currency: cur, Available: delta.Neg()},
		ledger.Delta{Account: ma.ledgerID, Currency: cur, Available: delta, MayOverdraw: true},
	); err != nil {
		return MarginAccount{}, errorf(ErrInsufficientFunds, "insufficient funds: %v", err)
	}
	ma.updated = now
	if opened {
		e.margin[ma.ledgerID] = ma
	}
	return e.accountView(ma), nil
}

// ordersOf lists the active orders trading on a margin account, by ID.
func (e *Engine) ordersOf(ma *marginAcct) []*order {
	var out []*order
	if a := e.accounts[MarginKey(ma.user)]; a != nil {
		for _, o := range a.active {
			if o.mg != nil && o.mg.acct == ma {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(x, y *order) int { return int(x.id - y.id) })
	return out
}

// userMargins lists a trader's open margin accounts: isolated by symbol,
// then cross by currency.
func (e *Engine) userMargins(account string) []*marginAcct {
	var out []*marginAcct
	for _, ma := range e.margin {
		if ma.user == account {
			out = append(out, ma)
		}
	}
	slices.SortFunc(out, func(a, b *marginAcct) int {
		if a.mode != b.mode {
			return strings.Compare(string(b.mode), string(a.mode)) // isolated before cross
		}
		return strings.Compare(a.instr, b.instr)
	})
	return out
}

// MarginAccounts answers a trader's open margin accounts (GET
// /margin/account): isolated by symbol, then cross by currency.
func (e *Engine) MarginAccounts(account string) []MarginAccount {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now()
	out := []MarginAccount{}
	for _, ma := range e.userMargins(account) {
		out = append(out, e.accountView(ma))
	}
	return out
}

// MarginAccountOf answers one margin account (GET
// /margin/account/isolated/{symbol}, /margin/account/cross/{currency});
// one that is not open is a validation error (10001): the spec gives no
// code for it.
func (e *Engine) MarginAccountOf(account, mode, instrument string) (MarginAccount, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now()
	m, _, err := e.resolveMargin(mode, instrument)
	if err != nil {
		return MarginAccount{}, err
	}
	ma := e.margin[marginLedgerID(account, m, instrument)]
	if ma == nil {
		return MarginAccount{}, errorf(ErrValidation, "no %s margin account for %s", m, instrument)
	}
	return e.accountView(ma), nil
}

// MarginFundsOf answers, by currency, what a trader holds in margin
// accounts (spot balance: reserved_margin and cross_margin_reserved).
func (e *Engine) MarginFundsOf(account string) map[string]MarginFunds {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]MarginFunds{}
	for _, ma := range e.userMargins(account) {
		f := out[ma.cur]
		if ma.mode == margin.Cross {
			f.Cross = f.Cross.Add(e.marginBalance(ma))
		} else {
			f.Isolated = f.Isolated.Add(e.marginBalance(ma))
		}
		out[ma.cur] = f
	}
	return out
}

// ClosePosition closes a position (DELETE
// /margin/position/{margin_mode}/{symbol}) with a reduce-only order for
// its whole size: a limit GTC order at price when given, else a market
// IOC order (which closes what the book can take). It answers the
// position as it stood when the close was asked (none: an empty list).
// strict is strict_validate for price.
func (e *Engine) ClosePosition(account, mode, symbol string, price *decimal.Decimal, strict bool) ([]Position, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	bk := e.books[symbol]
	if bk == nil {
		return nil, errorf(ErrSymbolNotFound, "symbol %q not found", symbol)
	}
	m := margin.Mode(mode)
	if m != margin.Isolated && m != margin.Cross {
		return nil, errorf(ErrValidation, "margin_mode %q must be isolated or cross", mode)
	}
	var ticks int64
	if price != nil {
		n, err := e.units(bk.tick, "price", price, strict)
		if err != nil {
			return nil, err
		}
		ticks = n
	}
	ma := e.margin[marginLedgerID(account, m, marginInstrument(bk, m))]
	if ma == nil {
		if _, _, err := e.resolveMargin(mode, marginInstrument(bk, m)); err != nil {
			return nil, err
		}
		return nil, errorf(ErrValidation, "no %s margin account for %s", m, marginInstrument(bk, m))
	}
	out := []Position{}
	if p := ma.pos[bk.idx]; p != nil {
		out = append(out, e.positionView(ma, p, e.marginBalance(ma)))
		e.closeWith(ma, p, price != nil, ticks, now)
	}
	e.drain(now)
	return out, nil
}

// CloseAllPositions closes every open position of the trader (DELETE
// /margin/position) with market IOC orders, and answers the positions as
// they stood.
func (e *Engine) CloseAllPositions(account string) []Position {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	out := []Position{}
	type job struct {
		ma *marginAcct
		p  *position
	}
	var jobs []job
	for _, ma := range e.userMargins(account) {
		mb := e.marginBalance(ma)
		for _, pv := range e.positionsOf(ma, mb) {
			out = append(out, pv)
			jobs = append(jobs, job{ma, ma.pos[e.books[pv.Symbol].idx]})
		}
	}
	for _, j := range jobs {
		if j.p.lots != 0 && j.ma.pos[j.p.bk.idx] == j.p {
			e.closeWith(j.ma, j.p, false, 0, now)
		}
		e.drain(now)
	}
	return out
}

// closeWith places the order that closes position p: reduce-only, for its
// whole size, limit GTC at ticks or market IOC. It holds only its fee and
// is never refused for margin: closing must always be possible.
func (e *Engine) closeWith(ma *marginAcct, p *position, limit bool, ticks int64, now int64) {
	if e.faults.On("V3-MARGIN-POSITION-CLOSE") {
		return
	}
	bk := p.bk
	a := e.account(MarginKey(ma.user))
	o := &order{acct: a, bk: bk, side: Sell, typ: Market, tif: IOC, fees: &bk.fees,
		mg: &marginOrder{mode: ma.mode, acct: ma, reduceOnly: true}}
	if p.lots < 0 {
		o.side = Buy
	}
	o.setQty(max(p.lots, -p.lots))
	if limit {
		o.typ, o.tif = Limit, GTC
		o.setPrice(ticks)
	}
	o.cloid = e.genClientOrderID(a)
	if err := e.reserveMargin(o); err != nil {
		// A reducing order is never refused for margin; only a ledger
		// changed behind the engine's back gets here.
		panic(fmt.Sprintf("engine: closing position %d: %v", p.id, err))
	}
	o.created, o.updated = now, now
	o.deadline = e.deadlineOf(o, now)
	e.register(o)
	e.admit(o, now, nil, ReportNew)
}

// MarginTradeQuery selects margin trades (GET /margin/history/trade).
type MarginTradeQuery struct {
	Account string
	OrderID int64    // 0: all
	Symbols []string // empty: all
	SortAsc bool     // default DESC
	// ByTimestamp filters From and Till on the trade time; otherwise
	// FromID and TillID bound the trade ID (From and Till still apply
	// when given).
	ByTimestamp    bool
	From, Till     *time.Time
	FromID, TillID *int64
	Limit, Offset  int // Limit <= 0 means 100
}

// MarginTrade is one execution of a margin order (spec: Resources, Margin
// trade history record).
type MarginTrade struct {
	ID, OrderID   int64
	ClientOrderID string
	Symbol        string
	Side          Side
	Quantity      decimal.Decimal
	Price         decimal.Decimal
	Fee           decimal.Decimal
	Timestamp     time.Time
	Taker         bool
	PositionID    int64            // 0: none
	PnL           *decimal.Decimal // realized, when the trade reduced the position
	Margin        bool             // the order was a margin order
}

// MarginTrades answers a trader's margin trades.
func (e *Engine) MarginTrades(q MarginTradeQuery) []MarginTrade {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now()
	var sel []tradeRec
	if a := e.accounts[MarginKey(q.Account)]; a != nil {
		sel = selectTrades(a, q, sel)
	}
	return e.shapeTrades(q, sel)
}

// selectTrades appends the trades of a that q selects, oldest first.
func selectTrades(a *account, q MarginTradeQuery, sel []tradeRec) []tradeRec {
	n := len(a.trades)
	for i := 0; i < n; i++ {
		// Oldest first: the ring starts at tradeNext once full.
		t := a.trades[(a.tradeNext+i)%n]
		switch {
		case q.OrderID != 0 && t.o.id != q.OrderID,
			len(q.Symbols) > 0 && !slices.Contains(q.Symbols, t.o.bk.sym.Code),
			q.From != nil && t.at < q.From.UnixNano(),
			q.Till != nil && t.at > q.Till.UnixNano(),
			q.FromID != nil && t.id < *q.FromID,
			q.TillID != nil && t.id > *q.TillID:
			continue
		}
		sel = append(sel, t)
	}
	return sel
}

// shapeTrades sorts, pages and shapes selected trades (oldest first by ID).
func (e *Engine) shapeTrades(q MarginTradeQuery, sel []tradeRec) []MarginTrade {
	out := []MarginTrade{}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultTradesLimit
	}
	slices.SortStableFunc(sel, func(x, y tradeRec) int {
		if q.ByTimestamp {
			if c := cmp.Compare(x.at, y.at); c != 0 {
				return c
			}
		}
		return cmp.Compare(x.id, y.id)
	})
	if !q.SortAsc {
		slices.Reverse(sel)
	}
	if q.Offset >= len(sel) {
		return out
	}
	sel = sel[q.Offset:]
	if len(sel) > limit {
		sel = sel[:limit]
	}
	for _, t := range sel {
		bk := t.o.bk
		out = append(out, MarginTrade{ID: t.id, OrderID: t.o.id, ClientOrderID: t.o.cloid, Symbol: bk.sym.Code, Side: t.o.side,
			Quantity: bk.step.decimal(t.qty), Price: bk.tick.decimal(t.price), Fee: t.fee, Timestamp: nanoTime(t.at),
			Taker: t.taker, PositionID: t.posID, PnL: t.pnl, Margin: t.o.mg != nil})
	}
	return out
}

// Margin selections of UserTrades (the v2 margin parameter).
const (
	MarginInclude = "include"
	MarginOnly    = "only"
	MarginIgnore  = "ignore"
)

// UserTrades answers a trader's trades, spot and margin together as margin
// says (MarginInclude, MarginOnly, MarginIgnore; "" is include): the
// account-wide trade history of API v2. Sorting, bounds and paging are
// those of MarginTrades, over the union.
func (e *Engine) UserTrades(q MarginTradeQuery, marginSel string) []MarginTrade {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now()
	var sel []tradeRec
	if a := e.accounts[q.Account]; a != nil && marginSel != MarginOnly {
		sel = selectTrades(a, q, sel)
	}
	if a := e.accounts[MarginKey(q.Account)]; a != nil && marginSel != MarginIgnore {
		sel = selectTrades(a, q, sel)
	}
	return e.shapeTrades(q, sel)
}
