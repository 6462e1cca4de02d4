package engine

import (
	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// Placing a list: every order is checked and its funds reserved before
// any of them is registered, so a refusal changes nothing.

// listPlacement is one PlaceList in progress.
type listPlacement struct {
	e      *Engine
	ct     ContingencyType
	reqs   []PlaceRequest
	listID *string
	now    int64
	a      *account
	os     []*order
	l      *orderList
}

// inactive reports whether order i waits for its primary.
func (lp *listPlacement) inactive(i int) bool {
	switch lp.ct {
	case OneTriggerOther:
		return i > 0
	case OneTriggerOneCancelOther:
		return i > 0 && !lp.e.faults.On("V3-LIST-OTOCO")
	}
	return false
}

// prepare validates order i against the single-order rules, the list's
// rules and the orders before it, and binds it to its account.
func (lp *listPlacement) prepare(i int) *Error {
	e, r := lp.e, lp.reqs[i]
	o, err := e.parse(r, lp.now)
	if err != nil {
		return errorf(err.Kind, "orders[%d]: %s", i, err.Msg)
	}
	if err := lp.checkRules(i, o); err != nil {
		return err
	}
	if r.ClientOrderID != nil {
		for j, p := range lp.os {
			if lp.reqs[j].ClientOrderID != nil && p.cloid == o.cloid && !e.faults.On("V3-LIST-CLOID-DISTINCT") {
				return errorf(ErrValidation, "orders[%d]: client_order_id %q repeats orders[%d]'s: they must be distinct within a list", i, o.cloid, j)
			}
		}
	}
	if i == 0 && lp.listID != nil && *lp.listID != o.cloid && !e.faults.On("V3-LIST-ID") {
		return errorf(ErrValidation, "order_list_id %q must equal the client_order_id of the first order, %q", *lp.listID, o.cloid)
	}
	o.acct = lp.a
	if r.ClientOrderID == nil {
		// Distinct from the list's other generated IDs too: the generator
		// never repeats a value.
		e.genID(o)
	} else if old := lp.a.lookup(o.cloid); old != nil {
		return errorf(ErrDuplicateClientID, "orders[%d]: client_order_id %q is already used by order %d", i, o.cloid, old.id)
	}
	if o.mg != nil {
		if err := e.bindMargin(o, r.Account, lp.now); err != nil {
			return errorf(err.Kind, "orders[%d]: %s", i, err.Msg)
		}
		if o.mg.closePos && lp.inactive(i) {
			// It closes the position as it is when the primary fills.
			o.setQty(0)
		}
	}
	lp.os = append(lp.os, o)
	return nil
}

// checkRules enforces the constraints of the contingency type on order i.
func (lp *listPlacement) checkRules(i int, o *order) *Error {
	e, r := lp.e, lp.reqs[i]
	switch lp.ct {
	case AllOrNone:
		if e.faults.On("V3-LIST-AON-CONSTRAINTS") {
			return nil
		}
		if o.typ != cLimit && o.typ != cMarket {
			return errorf(ErrValidation, "orders[%d]: an allOrNone order is limit or market, not %s", i, o.typ)
		}
		if r.TimeInForce == nil || *r.TimeInForce != FOK {
			return errorf(ErrValidation, "orders[%d]: an allOrNone order requires time_in_force FOK", i)
		}
		for j, p := range lp.os {
			if p.bk == o.bk {
				return errorf(ErrValidation, "orders[%d]: symbol %s repeats orders[%d]'s: allOrNone symbols are unique", i, o.bk.sym.Code, j)
			}
		}
	case OneCancelOther:
		return lp.checkSecondary(i, o)
	case OneTriggerOneCancelOther:
		if i == 0 {
			return nil // the primary: any type (market included) and time in force
		}
		if o.bk != lp.os[0].bk && !e.faults.On("V3-LIST-OTOCO-CONSTRAINTS") {
			return errorf(ErrValidation, "orders[%d]: symbol %s differs from the primary's %s: a %s list has one symbol", i, o.bk.sym.Code, lp.os[0].bk.sym.Code, lp.ct)
		}
		return lp.checkSecondary(i, o)
	}
	return nil
}

// checkSecondary enforces the types and times in force of oneCancelOther
// orders and of oneTriggerOneCancelOther secondaries.
func (lp *listPlacement) checkSecondary(i int, o *order) *Error {
	if lp.e.faults.On("V3-LIST-OCO-CONSTRAINTS") {
		return nil
	}
	switch o.typ {
	case cLimit, cStopLimit, cStopMarket, cTakeProfitLimit, cTakeProfitMarket:
	default:
		return errorf(ErrValidation, "orders[%d]: a %s order is limit, stopLimit, stopMarket, takeProfitLimit or takeProfitMarket, not %s", i, lp.ct, o.typ)
	}
	if o.typ == cLimit && (o.tif == cIOC || o.tif == cFOK) {
		return errorf(ErrValidation, "orders[%d]: a limit order of a %s list takes GTC, Day or GTD, not %s", i, lp.ct, o.tif)
	}
	return nil
}

// checkLimits enforces the active-order limits for the whole list.
func (lp *listPlacement) checkLimits() *Error {
	e := lp.e
	perSym, perUser := e.opts.MaxActivePerSymbol, e.opts.MaxActivePerUser
	adds := map[int]int{}
	for _, o := range lp.os {
		adds[o.bk.idx]++
		if n := lp.a.perSym[o.bk.idx] + adds[o.bk.idx]; n > perSym {
			return errorf(ErrOrderLimit, "the list would make %d active orders in %s: the limit is %d per symbol", n, o.bk.sym.Code, perSym)
		}
	}
	if n := len(lp.a.active) + len(lp.os); n > perUser {
		return errorf(ErrOrderLimit, "the list would make %d active orders: the limit is %d per user", n, perUser)
	}
	return nil
}

// need is what order o reserves at creation, in which balance, and whether
// the available amount must exceed it (a market buy).
func (e *Engine) need(o *order) (amt fixed.Amount, exceed bool) {
	switch {
	case o.mg != nil:
		return fixed.FromDecimal(e.marginNeed(o)), false
	case o.side == cBuy && o.marketNow():
		cost := o.bk.asks.cost(o.bk, o.qty)
		return e.withFee(o, cost), cost.IsPositive()
	}
	return e.reservation(o), false
}

// reserveAll checks every order's reservation against the balances
// together, then makes them all in one ledger step.
func (lp *listPlacement) reserveAll() *Error {
	e := lp.e
	type key struct{ acct, cur string }
	type sum struct {
		amt    fixed.Amount
		exceed bool
		ma     *marginAcct
		free   bool // reducing margin orders need no free margin
	}
	sums := map[key]*sum{}
	var keys []key
	amts := make([]fixed.Amount, len(lp.os))
	for i, o := range lp.os {
		amt, exceed := e.need(o)
		amts[i] = amt
		k := key{o.resvAccount(), o.resvCurrency()}
		s := sums[k]
		if s == nil {
			s = &sum{}
			if o.mg != nil {
				s.ma = o.mg.acct
			}
			sums[k] = s
			keys = append(keys, k)
		}
		if o.mg == nil || (!o.reducing() && !o.mg.force) {
			s.amt = s.amt.Add(amt)
			s.exceed = s.exceed || exceed
		}
	}
	var ds []ledger.Move
	for _, k := range keys {
		s := sums[k]
		have := fixed.FromDecimal(e.lh.Balance(k.acct, k.cur).Available)
		what := "available"
		if s.ma != nil {
			have, what = fixed.FromDecimal(e.freeMargin(s.ma)), "free margin"
		}
		if c := have.Cmp(s.amt); c < 0 || (s.exceed && c == 0) {
			return errorf(ErrInsufficientFunds, "insufficient funds: the list needs %s %s, %s is %s", s.amt, k.cur, what, have)
		}
	}
	for i, o := range lp.os {
		if amts[i].IsPositive() {
			ds = append(ds, ledger.Move{Account: o.resvAccount(), Currency: o.resvCurrency(), Available: amts[i].Neg(), Reserved: amts[i], MayOverdraw: o.mg != nil})
		}
	}
	if err := e.lh.ApplyMoves(ds...); err != nil {
		return errorf(ErrInsufficientFunds, "insufficient funds: %v", err)
	}
	for i, o := range lp.os {
		o.resv = amts[i]
	}
	return nil
}

// register gives order i its ID and its place in the list.
func (lp *listPlacement) register(i int) {
	e, o := lp.e, lp.os[i]
	if lp.l == nil {
		id := lp.os[0].clientID()
		if lp.listID != nil {
			id = *lp.listID
		}
		lp.l = &orderList{id: id, typ: lp.ct}
	}
	lp.l.orders = append(lp.l.orders, o)
	o.list, o.inactive = lp.l, lp.inactive(i)
	if i != 0 {
		o.extra().listIdx = i
	}
	o.status = cNew // until started: an inactive order stays new
	o.created, o.updated = lp.now, lp.now
	o.deadline = e.deadlineOf(o, lp.now)
	e.register(o)
}

// start begins the life of order i of a list other than allOrNone.
func (lp *listPlacement) start(i int) {
	e, o, now := lp.e, lp.os[i], lp.now
	switch {
	case !o.active():
	case o.doomed:
		e.finalize(o, cCanceled, now, true) // a sibling executed before its turn
	case o.inactive:
		e.emitOrder(o, ReportNew, nil)
		if o.deadline != 0 {
			e.expiries.push(deadline{at: o.deadline, o: o})
		}
	case o.mg != nil && o.mg.closePos && o.qty == 0:
		e.finalize(o, cCanceled, now, true) // no position to close
	default:
		e.admit(o, now, nil, ReportNew)
	}
}

func (lp *listPlacement) answer() []Order {
	out := make([]Order, 0, len(lp.os))
	for _, o := range lp.os {
		out = append(out, o.snapshot())
	}
	return out
}

// oneByOne is the V3-LIST-ATOMIC fault: each order is validated, funded
// and placed before the next is read, so a refusal leaves the orders
// before it in place.
func (lp *listPlacement) oneByOne() ([]Order, error) {
	e := lp.e
	for i := range lp.reqs {
		if err := lp.prepare(i); err != nil {
			e.drain(lp.now)
			return nil, err
		}
		o := lp.os[i]
		amt, exceed := e.need(o)
		var rerr *Error
		if o.mg != nil {
			rerr = e.holdMargin(o, amt.Decimal())
		} else {
			rerr = e.reserve(o, o.resvCurrency(), amt, exceed, false)
		}
		if rerr != nil {
			e.drain(lp.now)
			return nil, rerr
		}
		lp.register(i)
		if lp.ct == AllOrNone {
			e.admit(o, lp.now, nil, ReportNew)
		} else {
			lp.start(i)
		}
	}
	e.drain(lp.now)
	return lp.answer(), nil
}
