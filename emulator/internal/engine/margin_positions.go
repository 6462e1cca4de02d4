package engine

import (
	"slices"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// Margin positions: what an order may fill, the margin it holds, how a
// trade moves its position, and the views of accounts and positions.

// closeSize is how much of the position a reducing order may execute: the
// position's size when the order is on its other side, else zero.
func (e *Engine) closeSize(o *order) int64 {
	p := o.mg.acct.pos[o.bk.idx]
	switch {
	case p == nil:
		return 0
	case o.side == cSell && p.lots > 0:
		return p.lots
	case o.side == cBuy && p.lots < 0:
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
		notional = o.bk.opposite(o.side).cost(o.bk, o.remaining()).Decimal()
	case isLimitKind(o.typ):
		notional = o.priceDec.Mul(o.remainingDec())
	default:
		notional = o.bk.tick.decimal(o.stop).Mul(o.remainingDec())
	}
	fee := notional.Mul(o.fees.onePlus.Sub(decimal.New(1, 0)))
	if o.reducing() {
		return fee
	}
	return margin.Initial(notional, o.mg.acct.leverage(o.mg.cfg(o.bk))).Add(fee)
}

// cfg is the margin configuration the order trades under (never nil once
// bindMargin accepted the order).
func (mg *marginOrder) cfg(bk *book) *margin.Params {
	return bk.margin.params(mg.mode)
}

// freeMargin is what an account can still commit: margin_balance less
// reserved_orders and reserved_positions.
func (e *Engine) freeMargin(ma *marginAcct) decimal.Decimal {
	free := e.lh.Balance(ma.ledgerID, ma.cur).Available
	for _, p := range ma.pos {
		free = free.Add(p.cost).Sub(margin.Initial(p.cost, ma.leverage(p.cfg)))
	}
	return free
}

// marginBalance is the account's margin_balance.
func (e *Engine) marginBalance(ma *marginAcct) decimal.Decimal {
	b := e.lh.Balance(ma.ledgerID, ma.cur)
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
	if err := e.lh.Apply(ledger.Delta{Account: ma.ledgerID, Currency: ma.cur, Available: amt.Neg(), Reserved: amt, MayOverdraw: true}); err != nil {
		return errorf(ErrInsufficientFunds, "reserving %s %s: %v", amt, ma.cur, err)
	}
	o.resv = o.resv.Add(fixed.FromDecimal(amt))
	return nil
}

// marginLegs appends a margin order's side of a trade: the margin account
// pays or receives the quote and the base like a spot balance, below zero
// if need be, and pays its fee (always in the quote: margin.Load checks it)
// from its cash. The reservation is a hold, released by trim and finalize.
func (e *Engine) marginLegs(ds []ledger.Move, o *order, q, notional, fee fixed.Amount) []ledger.Move {
	ma, bk := o.mg.acct, o.bk
	cash, base := notional.Neg(), q
	if o.side == cSell {
		cash, base = notional, q.Neg()
	}
	return append(ds,
		ledger.Move{Account: ma.ledgerID, Currency: bk.sym.Quote, Available: cash.Sub(fee), MayOverdraw: true},
		ledger.Move{Account: ma.ledgerID, Currency: bk.sym.Base, Available: base, MayOverdraw: true},
		ledger.Move{Account: e.opts.FeeAccount, Currency: bk.sym.FeeCurrency, Available: fee, MayOverdraw: true},
	)
}

// movePosition books a margin order's trade of lots (q as a decimal) at
// price into its position, and answers the position's ID and, when the
// trade reduced it, the realized profit or loss.
func (e *Engine) movePosition(o *order, lots int64, q, price, fee decimal.Decimal, now int64) (int64, *decimal.Decimal) {
	ma, bk := o.mg.acct, o.bk
	dl, dq := lots, q
	if o.side == cSell {
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
	lev := ma.leverage(p.cfg)
	out := Position{ID: p.id, Symbol: bk.sym.Code, Quantity: mp.Qty, Leverage: lev, MarginMode: string(ma.mode),
		PriceEntry: mp.Entry(places + 8), FeeCumulative: p.fee, CreatedAt: nanoTime(p.created), UpdatedAt: nanoTime(p.updated),
		PriceMarginCall:  margin.TriggerPrice(mp, balance, lev, p.cfg.MarginCallMul, places),
		PriceLiquidation: margin.TriggerPrice(mp, balance, lev, p.cfg.LiquidationMul, places)}
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
	b := e.lh.Balance(ma.ledgerID, ma.cur)
	mb := e.marginBalance(ma)
	var rp decimal.Decimal
	for _, p := range ma.pos {
		rp = rp.Add(margin.Initial(p.cost, ma.leverage(p.cfg)))
	}
	out := MarginAccount{Symbol: ma.instr, Type: string(ma.mode), CreatedAt: nanoTime(ma.created), UpdatedAt: nanoTime(ma.updated),
		Currencies: []MarginCurrency{{Code: ma.cur, MarginBalance: mb, ReservedOrders: b.Reserved, ReservedPositions: rp}},
		Positions:  e.positionsOf(ma, mb)}
	if ma.mode == margin.Isolated {
		if p := e.marginCfg[ma.instr].params(margin.Isolated); p != nil {
			l := ma.leverage(p)
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
