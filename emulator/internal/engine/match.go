package engine

import (
	"fmt"
	"slices"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// admit starts a registered order's life: a stop or take-profit order is
// parked until its trigger, anything else executes at once. trades collects
// the order's own executions (nil: not wanted).
func (e *Engine) admit(o *order, now int64, trades *[]execution, r ReportType) {
	if isStop(o.typ) && !o.triggered {
		o.status = cSuspended
		o.bk.park(o)
		if r == ReportNew {
			r = ReportSuspended
		}
		e.emitOrder(o, r, nil)
	} else {
		e.execute(o, now, trades, r)
	}
	if o.deadline != 0 && o.active() {
		e.expiries.push(deadline{at: o.deadline, o: o})
	}
}

// execute runs an order as taker, then rests what is left or expires it as
// its type and time in force say.
func (e *Engine) execute(o *order, now int64, trades *[]execution, r ReportType) {
	o.status = cNew
	e.emitOrder(o, r, nil)
	market := o.marketNow()
	opp := o.bk.opposite(o.side)
	if o.reducing() && e.fillCap(o) == 0 {
		// A reduce-only order that would open or increase a position
		// expires (the emulator's reading: the spec does not say).
		e.finalize(o, cExpired, now, true)
		return
	}
	if o.postOnly && opp.crossable(o.price, market) && !e.faults.On("V3-SPOT-POST-ONLY") {
		e.finalize(o, cExpired, now, true)
		return
	}
	if o.tif == cFOK && (!opp.fillable(o.price, market, o.remaining()) || e.fillCap(o) < o.remaining()) && !e.faults.On("V3-SPOT-FOK") {
		e.finalize(o, cExpired, now, true)
		return
	}
	e.match(o, now, trades)
	if o.doomed {
		// Its order list canceled it when it (or a sibling) executed.
		e.finalize(o, cCanceled, now, true)
		return
	}
	if o.remaining() == 0 {
		e.finalize(o, cFilled, now, true)
		return
	}
	// A market order has no price to rest at; IOC and FOK never rest; a
	// reduce-only order whose position is gone has nothing left to reduce.
	rest := !market && o.tif != cIOC && o.tif != cFOK
	if !market && o.tif == cIOC && e.faults.On("V3-SPOT-IOC") {
		rest = true
	}
	if rest && o.reducing() && e.fillCap(o) == 0 {
		rest = false
	}
	if !rest {
		e.finalize(o, cExpired, now, true)
		return
	}
	if o.filled > 0 {
		o.status = cPartiallyFilled
		if ds := e.trim(nil, o); len(ds) > 0 {
			if err := e.lh.ApplyMoves(ds...); err != nil {
				panic(fmt.Sprintf("engine: releasing the surplus of order %d: %v", o.id, err))
			}
		}
	}
	o.bk.sideOf(o.side).add(o)
	e.emitLevel(o.bk, o.side, o.price)
}

// match trades taker t against the opposite side in price-time priority,
// each trade at the resting order's price.
//
// A reduce-only order (taker or maker) trades no more than closes its
// position; an order that an order list canceled during this matching
// (doomed) trades no more: a doomed maker leaves the book as it is reached,
// a doomed taker stops.
func (e *Engine) match(t *order, now int64, trades *[]execution) {
	opp := t.bk.opposite(t.side)
	market := t.marketNow()
	for capT := e.fillCap(t); capT > 0 && !t.doomed; capT = e.fillCap(t) {
		lv := opp.best()
		if lv == nil || (!market && !opp.crosses(lv.ticks, t.price)) {
			return
		}
		ticks := lv.ticks
		for m := lv.head; m != nil && capT > 0 && !t.doomed; {
			next := m.next
			capM := e.fillCap(m)
			if m.doomed || capM == 0 {
				opp.remove(m)
				e.emitLevel(t.bk, m.side, ticks)
				if m.doomed {
					e.finalize(m, cCanceled, now, true)
				} else {
					e.finalize(m, cExpired, now, true) // reduce-only with nothing left to reduce
				}
				m = next
				continue
			}
			fill := min(capT, capM)
			e.settle(t, m, lv, fill, now, trades)
			lv.lots -= fill
			if m.remaining() == 0 {
				opp.remove(m)
				e.finalize(m, cFilled, now, true)
			} else {
				m.status = cPartiallyFilled
			}
			e.emitLevel(t.bk, m.side, ticks)
			capT = e.fillCap(t)
			m = next
		}
	}
}

// settle books one trade of lots increments at level lv's price between
// taker t and maker m: both sides' funds and fees move in a single ledger
// step, in fixed point (decimals are made only for the answer), and the
// taker's view of the trade is appended to trades (nil: not wanted).
func (e *Engine) settle(t, m *order, lv *level, lots int64, now int64, trades *[]execution) {
	bk := t.bk
	ticks := lv.ticks
	q, notional := bk.stepF.Times(lots), bk.notionalF.TimesProduct(ticks, lots)
	takeV, makeV := t.fees.takeV, m.fees.makeV
	if e.faults.On("V3-SPOT-FEE-CURRENCY") {
		makeV = m.fees.takeV
	}
	if m.fees.make.IsNegative() && e.faults.On("V3-SPOT-FEE-REBATE") {
		makeV = fixed.NewFactor(makeV.Decimal().Neg())
	}
	takerFee, makerFee := bk.fee(takeV, ticks, lots), bk.fee(makeV, ticks, lots)

	t.filled += lots
	m.filled += lots
	if !e.settleSpot(t, m, q, notional, takerFee, makerFee) {
		n := e.legs(e.moves[:0], t, q, notional, takerFee)
		n = e.legs(n, m, q, notional, makerFee)
		n = e.trim(n, m) // the taker is trimmed once, if it comes to rest
		if err := e.lh.ApplyMoves(n...); err != nil {
			// Reservations always cover a trade; failing here means the ledger
			// was changed behind the engine's back (e.g. reset on its own).
			panic(fmt.Sprintf("engine: settling trade of %s %s at %s: %v", q, bk.sym.Code, lv.price, err))
		}
		e.moves = n[:0]
	}

	e.lastTradeID++
	id := e.lastTradeID
	t.addExecution(ticks, lots)
	m.addExecution(ticks, lots)
	t.updated, m.updated = now, now
	tr := tradeRec{id: id, oid: t.id, cloid: t.cloid, gen: t.genOf(), bk: bk, side: t.side, margin: t.mg != nil, qty: lots, price: ticks, fee: takerFee, taker: true, at: now}
	mr := tradeRec{id: id, oid: m.id, cloid: m.cloid, gen: m.genOf(), bk: bk, side: m.side, margin: m.mg != nil, qty: lots, price: ticks, fee: makerFee, at: now}
	if t.mg != nil {
		tr.posID, tr.pnl = e.movePosition(t, lots, q.Decimal(), lv.price, takerFee.Decimal(), now)
	}
	if m.mg != nil {
		mr.posID, mr.pnl = e.movePosition(m, lots, q.Decimal(), lv.price, makerFee.Decimal(), now)
	}
	t.acct.addTrade(tr)
	m.acct.addTrade(mr)
	bk.noteTrade(ticks)
	if trades != nil {
		// The answer keeps integers; decimals are made where it is written.
		*trades = append(*trades, execution{id: id, lots: lots, ticks: ticks, at: now, fee: takerFee, taker: true})
	}
	if e.obs != nil {
		// Decimals for the feed, which reads them.
		var qd decimal.Decimal
		switch {
		case t.filled == lots && lots == t.qty:
			qd = t.qtyDec
		case m.filled == lots && lots == m.qty:
			qd = m.qtyDec
		default:
			qd = bk.step.decimal(lots)
		}
		p := lv.price
		e.emitPrint(bk, id, p, qd, t.side, now)
		if e.wants(OrderEvent) {
			at := nanoTime(now)
			mt := Trade{ID: id, Quantity: qd, Price: p, Fee: makerFee.Decimal(), Timestamp: at}
			e.emitOrder(m, ReportTrade, &mt)
			tt := Trade{ID: id, Quantity: qd, Price: p, Fee: bk.feeDecimal(takerFee), Taker: true, Timestamp: at}
			e.emitOrder(t, ReportTrade, &tt)
		}
	}
	// The maker first: it was there first, so when a list order meets its
	// own sibling, the resting one's execution cancels the newcomer.
	if m.list != nil {
		e.noteExecution(m)
	}
	if t.list != nil {
		e.noteExecution(t)
	}
}

// settleSpot is settle's ledger step in the common case: two spot orders,
// fees not negative, each side paying within its reservation. Five
// balances change (each side's spend and proceeds, the fee account) in one
// ledger.Settle, with the maker's surplus released (trim) in the same
// step. It changes nothing and reports false otherwise, and settle takes
// the general path, which covers rebates, margin and the fault paths.
func (e *Engine) settleSpot(t, m *order, q, notional, takerFee, makerFee fixed.Amount) bool {
	if t.mg != nil || m.mg != nil || takerFee.IsNegative() || makerFee.IsNegative() {
		return false
	}
	tResv, mResv := t.resv, m.resv
	// The legs live on the stack: in a slice kept by the engine, every
	// pointer stored (the handle, and each amount's) paid a write barrier
	// while the collector ran, and the stores showed in the profile.
	var g [5]ledger.Leg
	ok := spotLeg(g[0:2], t, q, notional, takerFee) && spotLeg(g[2:4], m, q, notional, makerFee)
	if !ok {
		t.resv, m.resv = tResv, mResv
		return false
	}
	if m.remaining() > 0 && isLimitKind(m.typ) {
		// trim: g[2] is the maker's spend balance, which holds its reservation.
		if surplus := m.resv.Sub(e.reservation(m)); surplus.IsPositive() {
			m.resv = m.resv.Sub(surplus)
			g[2].Reserved, g[2].Available = g[2].Reserved.Sub(surplus), surplus
		}
	}
	g[4] = ledger.Leg{Ref: t.bk.feeRef, Available: takerFee.Add(makerFee)}
	if !e.lh.Settle(g[:]) {
		t.resv, m.resv = tResv, mResv
		return false
	}
	return true
}

// spotLeg writes a spot order's two balances in a trade into g (see
// legs): its spend currency leaves its reservation, fee included when the
// fee is in that currency, and its proceeds arrive less the fee otherwise.
// It reports false when the reservation does not cover it or the fee
// exceeds the proceeds (only fault paths get there).
func spotLeg(g []ledger.Leg, o *order, q, notional, fee fixed.Amount) bool {
	bk := o.bk
	refs := o.acct.bookRefs(bk)
	spendRef, getRef := refs.quote, refs.base
	spend, get, feeInSpend := notional, q, bk.feeInQuote
	if o.side == cSell {
		spendRef, getRef = getRef, spendRef
		spend, get, feeInSpend = q, notional, bk.feeInBase
	}
	if feeInSpend {
		spend = spend.Add(fee)
	} else {
		get = get.Sub(fee)
	}
	if spend.Cmp(o.resv) > 0 || get.IsNegative() {
		return false
	}
	o.resv = o.resv.Sub(spend)
	g[0] = ledger.Leg{Ref: spendRef, Reserved: spend.Neg()}
	g[1] = ledger.Leg{Ref: getRef, Available: get}
	return true
}

// legs appends one order's side of a trade: what it pays out of its
// reservation, what it receives, and its fee to (or rebate from) the fee
// account, in the symbol's fee currency.
func (e *Engine) legs(ds []ledger.Move, o *order, q, notional, fee fixed.Amount) []ledger.Move {
	if o.mg != nil {
		return e.marginLegs(ds, o, q, notional, fee)
	}
	bk := o.bk
	spendCur := bk.sym.Quote
	spendRef, getRef := o.acct.ref(bk, false), o.acct.ref(bk, true)
	spend, get := notional, q
	if o.side == cSell {
		spendCur = bk.sym.Base
		spendRef, getRef = getRef, spendRef
		spend, get = q, notional
	}
	var rebate fixed.Amount
	switch {
	case bk.sym.FeeCurrency == spendCur && fee.IsPositive():
		spend = spend.Add(fee) // paid out of the reservation
	case bk.sym.FeeCurrency == spendCur:
		if fee.IsNegative() {
			rebate = fee.Neg() // paid from the fee account
		}
	default:
		get = get.Sub(fee) // taken from (or, negative, added to) the proceeds
	}
	fromResv, overdraw := spend, false
	if spend.Cmp(o.resv) > 0 {
		// Only the fault paths get here (a fee above the rates reserved
		// for): the rest comes out of available.
		fromResv, overdraw = o.resv, true
		rebate = rebate.Sub(spend.Sub(o.resv))
	}
	o.resv = o.resv.Sub(fromResv)
	ds = append(ds,
		ledger.Move{Ref: spendRef, Reserved: fromResv.Neg(), Available: rebate, MayOverdraw: overdraw},
		ledger.Move{Ref: getRef, Available: get},
		ledger.Move{Ref: bk.feeRef, Available: fee, MayOverdraw: true},
	)
	return ds
}

// trim appends the release of what a partly filled limit order holds beyond
// what its remaining quantity may cost: a better price than its own, or a
// fee below the highest rate, leaves a surplus that should not stay locked.
func (e *Engine) trim(ds []ledger.Move, o *order) []ledger.Move {
	if o.remaining() == 0 || !isLimitKind(o.typ) {
		return ds // final (released whole) or a market order (reserved exactly)
	}
	surplus := o.resv.Sub(e.reservation(o))
	if !surplus.IsPositive() {
		return ds
	}
	o.resv = o.resv.Sub(surplus)
	return append(ds, ledger.Move{Account: o.resvAccount(), Currency: o.resvCurrency(), Ref: o.resvRef(), Available: surplus, Reserved: surplus.Neg()})
}

// runTriggers fires the stop and take-profit orders of bk that the trades
// since the last check reached, oldest first, and keeps going while the
// fired orders trade. It ends: every round takes orders off the stop lists.
func (e *Engine) runTriggers(bk *book, now int64) {
	for bk.traded {
		bk.traded = false
		fired := bk.takeFired(e.fired[:0], bk.lo, bk.hi)
		slices.SortFunc(fired, func(a, b *order) int { return int(a.id - b.id) })
		for _, o := range fired {
			e.trigger(o, now)
		}
		clear(fired)
		e.fired = fired[:0]
	}
}

// trigger moves a suspended order into matching as a limit or market order
// with its time in force.
func (e *Engine) trigger(o *order, now int64) {
	o.triggered = true
	o.updated = now
	if o.doomed {
		// Its order list canceled it earlier in this round; it has already
		// left the stop list.
		e.finalize(o, cCanceled, now, true)
		return
	}
	if e.ready(o, now) {
		e.execute(o, now, nil, ReportTriggered)
	}
}

// ready prepares an order that starts executing later than it was placed
// (a triggered stop, an activated list secondary), or ends it: a
// close_position order takes the position's current size, and is canceled
// when there is none; a market order's reservation, made at its stop price
// or at the book of its creation, is topped up to what the book now costs,
// and the order expires when funds fall short.
func (e *Engine) ready(o *order, now int64) bool {
	if o.mg != nil && o.mg.closePos {
		n := e.closeSize(o)
		switch {
		case n > 0:
			o.setQty(n)
		case e.faults.On("V3-MARGIN-CLOSE-POSITION-CANCELED") && !o.mg.fut && o.qty > 0:
			// The fault forgets the order closes a position: it executes
			// as a plain order of the size it had when placed, opening a
			// position on the other side.
			o.mg.closePos = false
		default:
			// Its position is gone: "closes the position or is canceled".
			e.finalize(o, cCanceled, now, true)
			return false
		}
	}
	switch {
	case o.mg != nil:
		if more := e.marginNeed(o).Sub(o.resv.Decimal()); more.IsPositive() {
			if err := e.holdMargin(o, more); err != nil {
				e.finalize(o, cExpired, now, true)
				return false
			}
		}
	case o.side == cBuy && o.marketNow():
		need := e.withFee(o, o.bk.asks.cost(o.bk, o.remaining()))
		if more := need.Sub(o.resv); more.IsPositive() {
			if err := e.reserve(o, o.spendCurrency(), more, false, false); err != nil {
				e.finalize(o, cExpired, now, true)
				return false
			}
		}
	}
	return true
}
