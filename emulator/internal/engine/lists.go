package engine

import (
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// Order lists (spec: Endpoints, Order lists; States and transitions).
//
// A list is validated whole — its own rules, then every order by the
// single-order rules — and funded whole: every order's reservation,
// inactive secondaries included, is checked against the balances together
// and made in one ledger step, so a refused list creates and reserves
// nothing. Then its orders are registered (consecutive IDs, in request
// order) and started as their contingency type says:
//
//   - allOrNone: every order is checked against its book first; when all
//     can fill completely they execute one after the other within the same
//     engine step (one transaction: nothing else happens in between), else
//     they all expire.
//   - oneCancelOther: the orders are placed in turn; on the first execution
//     of any of them (a partial fill counts) the others are canceled.
//   - oneTriggerOther: the secondaries wait, inactive, until the primary is
//     filled, then are placed independently of each other.
//   - oneTriggerOneCancelOther: likewise, with inactive true; once placed
//     the two secondaries form a oneCancelOther pair.
//
// When the primary ends without filling (canceled, expired), its inactive
// secondaries are canceled: nothing can activate them any more. A list
// order is otherwise an order like any other: it can be read, replaced (the
// replacement takes its place in the list) and canceled on its own.

// ContingencyType is the kind of an order list.
type ContingencyType string

// Contingency types.
const (
	AllOrNone                ContingencyType = "allOrNone"
	OneCancelOther           ContingencyType = "oneCancelOther"
	OneTriggerOther          ContingencyType = "oneTriggerOther"
	OneTriggerOneCancelOther ContingencyType = "oneTriggerOneCancelOther"
)

// ListRequest is a new order list as a client asked for it.
type ListRequest struct {
	Account string
	// Margin makes it a margin list (POST /margin/order/list): every order
	// is a margin order (its Margin fields default to isolated).
	Margin bool
	// OrderListID is nil when not sent.
	OrderListID *string
	// ContingencyType is the raw value sent ("" when not sent).
	ContingencyType string
	Orders          []PlaceRequest
}

// orderList ties the orders of one list.
type orderList struct {
	id     string
	typ    ContingencyType
	orders []*order // request order; [0] is the primary of OTO and OTOCO
	// fired: the oneCancelOther rule has canceled the others already.
	fired bool
}

// PlaceList validates and places an order list (POST /spot/order/list,
// POST /margin/order/list) and answers its orders as they stand when the
// request completes, without trades. Refusals are *Error; nothing changes
// on a refusal.
func (e *Engine) PlaceList(req ListRequest) ([]Order, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	ct, err := e.contingency(req)
	if err != nil {
		return nil, err
	}
	if err := e.checkCount(ct, len(req.Orders)); err != nil {
		return nil, err
	}
	reqs := make([]PlaceRequest, len(req.Orders))
	copy(reqs, req.Orders)
	if req.OrderListID != nil && reqs[0].ClientOrderID == nil {
		// The list ID is the first order's client_order_id: one names the other.
		id := *req.OrderListID
		reqs[0].ClientOrderID = &id
	}
	for i := range reqs {
		r := &reqs[i]
		r.Account = req.Account
		if r.Type == nil {
			t := Limit
			if e.faults.On("V3-LIST-ORDER-RULES") {
				t = Market
			}
			r.Type = &t
		}
		switch {
		case !req.Margin:
			r.Margin = nil
		case r.Margin == nil:
			r.Margin = &MarginParams{}
		default:
			mp := *r.Margin
			r.Margin = &mp
		}
	}
	key := req.Account
	if req.Margin {
		key = MarginKey(req.Account)
	}
	lp := &listPlacement{e: e, ct: ct, reqs: reqs, listID: req.OrderListID, now: now, a: e.account(key)}
	if e.faults.On("V3-LIST-ATOMIC") {
		return lp.oneByOne()
	}
	for i := range reqs {
		if err := lp.prepare(i); err != nil {
			return nil, err
		}
	}
	if err := lp.checkLimits(); err != nil {
		return nil, err
	}
	if err := lp.reserveAll(); err != nil {
		return nil, err
	}
	for i := range lp.os {
		lp.register(i)
	}
	if ct == AllOrNone {
		e.allOrNone(lp.os, now)
	} else {
		for i := range lp.os {
			lp.start(i)
		}
	}
	e.drain(now)
	return lp.answer(), nil
}

// contingency checks contingency_type: all four on spot, the last three on
// margin.
func (e *Engine) contingency(req ListRequest) (ContingencyType, *Error) {
	ct := ContingencyType(req.ContingencyType)
	switch ct {
	case OneCancelOther, OneTriggerOther, OneTriggerOneCancelOther:
		return ct, nil
	case AllOrNone:
		if !req.Margin {
			return ct, nil
		}
	}
	if e.faults.On("V3-LIST-CONTINGENCY") {
		if ct == AllOrNone {
			return ct, nil
		}
		return OneCancelOther, nil
	}
	if req.ContingencyType == "" {
		return "", errorf(ErrValidation, "contingency_type is required")
	}
	allowed := "allOrNone, oneCancelOther, oneTriggerOther or oneTriggerOneCancelOther"
	if req.Margin {
		allowed = "oneCancelOther, oneTriggerOther or oneTriggerOneCancelOther on margin"
	}
	return "", errorf(ErrValidation, "contingency_type %q must be %s", req.ContingencyType, allowed)
}

// checkCount enforces the list sizes: 2 or 3 orders, exactly 3 for
// oneTriggerOneCancelOther.
func (e *Engine) checkCount(ct ContingencyType, n int) *Error {
	ok := n == 2 || n == 3
	if ct == OneTriggerOneCancelOther {
		ok = n == 3
	}
	if n == 0 {
		return errorf(ErrValidation, "orders is required: a list has 2 or 3 orders")
	}
	if !ok && !e.faults.On("V3-LIST-COUNT") {
		if ct == OneTriggerOneCancelOther {
			return errorf(ErrValidation, "a %s list has exactly 3 orders, not %d", ct, n)
		}
		return errorf(ErrValidation, "a %s list has 2 or 3 orders, not %d", ct, n)
	}
	return nil
}

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
		o.cloid = e.genClientOrderID(lp.a)
	} else if old := lp.a.byCloid[o.cloid]; old != nil {
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
		if o.typ != Limit && o.typ != Market {
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
	case Limit, StopLimit, StopMarket, TakeProfitLimit, TakeProfitMarket:
	default:
		return errorf(ErrValidation, "orders[%d]: a %s order is limit, stopLimit, stopMarket, takeProfitLimit or takeProfitMarket, not %s", i, lp.ct, o.typ)
	}
	if o.typ == Limit && (o.tif == IOC || o.tif == FOK) {
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
func (e *Engine) need(o *order) (amt decimal.Decimal, exceed bool) {
	switch {
	case o.mg != nil:
		return e.marginNeed(o), false
	case o.side == Buy && o.marketNow():
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
		amt    decimal.Decimal
		exceed bool
		ma     *marginAcct
		free   bool // reducing margin orders need no free margin
	}
	sums := map[key]*sum{}
	var keys []key
	amts := make([]decimal.Decimal, len(lp.os))
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
	var ds []ledger.Delta
	for _, k := range keys {
		s := sums[k]
		have := e.led.Balance(k.acct, k.cur).Available
		what := "available"
		if s.ma != nil {
			have, what = e.freeMargin(s.ma), "free margin"
		}
		if c := have.Cmp(s.amt); c < 0 || (s.exceed && c == 0) {
			return errorf(ErrInsufficientFunds, "insufficient funds: the list needs %s %s, %s is %s", s.amt, k.cur, what, have)
		}
	}
	for i, o := range lp.os {
		if amts[i].IsPositive() {
			ds = append(ds, ledger.Delta{Account: o.resvAccount(), Currency: o.resvCurrency(), Available: amts[i].Neg(), Reserved: amts[i], MayOverdraw: o.mg != nil})
		}
	}
	if err := e.led.Apply(ds...); err != nil {
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
		id := lp.os[0].cloid
		if lp.listID != nil {
			id = *lp.listID
		}
		lp.l = &orderList{id: id, typ: lp.ct}
	}
	lp.l.orders = append(lp.l.orders, o)
	o.list, o.listIdx, o.inactive = lp.l, i, lp.inactive(i)
	o.status = StatusNew // until started: an inactive order stays new
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
		e.finalize(o, Canceled, now, true) // a sibling executed before its turn
	case o.inactive:
		e.emitOrder(o, ReportNew, nil)
		if o.deadline != 0 {
			e.expiries.push(deadline{at: o.deadline, o: o})
		}
	case o.mg != nil && o.mg.closePos && o.qty == 0:
		e.finalize(o, Canceled, now, true) // no position to close
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
			rerr = e.holdMargin(o, amt)
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

// allOrNone executes the orders of an allOrNone list when every one of
// them can fill completely now, and expires them all otherwise. They are
// FOK orders on distinct books, so each fills whole.
func (e *Engine) allOrNone(os []*order, now int64) {
	all := true
	for _, o := range os {
		opp := o.bk.opposite(o.side)
		market := o.marketNow()
		switch {
		case o.postOnly && opp.crossable(o.price, market),
			!opp.fillable(o.price, market, o.remaining()),
			e.fillCap(o) < o.remaining():
			all = false
		}
	}
	if !all && !e.faults.On("V3-LIST-AON") {
		for _, o := range os {
			e.finalize(o, Expired, now, true)
		}
		return
	}
	for _, o := range os {
		e.admit(o, now, nil, ReportNew)
	}
}

// noteExecution applies the oneCancelOther rule when a list order
// executes: the first execution of an OCO order (a partial fill counts)
// cancels the other orders of its list, and of an activated OTOCO
// secondary the other secondary. The canceled orders are marked doomed
// and leave at once where they can, else when the matching in progress
// ends (drain).
func (e *Engine) noteExecution(o *order) {
	l := o.list
	switch {
	case l.fired:
		return
	case l.typ == OneCancelOther:
		if e.faults.On("V3-LIST-OCO") {
			return
		}
	case l.typ == OneTriggerOneCancelOther && o.listIdx > 0:
	default:
		return
	}
	l.fired = true
	for _, s := range l.orders {
		switch {
		case s == o || !s.active() || s.doomed:
		case l.typ == OneTriggerOneCancelOther && s.listIdx == 0:
			// The primary: filled already, or the pair would not be active.
		default:
			s.doomed = true
			e.doomed = append(e.doomed, s)
		}
	}
}

// listEnded applies the trigger rules when a list order ends: a filled
// primary of OTO or OTOCO activates its waiting secondaries (after the
// matching in progress, see drain); a primary ending otherwise cancels them.
func (e *Engine) listEnded(o *order) {
	l := o.list
	if o.listIdx != 0 || (l.typ != OneTriggerOther && l.typ != OneTriggerOneCancelOther) {
		return
	}
	for _, s := range l.orders[1:] {
		if !s.inactive || !s.active() {
			continue
		}
		switch {
		case o.status != Filled:
			if !s.doomed {
				s.doomed = true
				e.doomed = append(e.doomed, s)
			}
		case l.typ == OneTriggerOther && e.faults.On("V3-LIST-OTO"):
			// The broken rule: the secondaries never activate.
		default:
			e.activations = append(e.activations, s)
		}
	}
}

// activate places a secondary whose primary filled.
func (e *Engine) activate(o *order, now int64) {
	o.inactive = false
	o.updated = now
	if isStop(o.typ) && !o.triggered {
		if o.mg != nil && o.mg.closePos {
			if n := e.closeSize(o); n > 0 {
				o.setQty(n) // sized now; resized again when it fires
			}
		}
		o.status = Suspended
		o.bk.park(o)
		e.emitOrder(o, ReportActivated, nil)
		return
	}
	if e.ready(o, now) {
		e.execute(o, now, nil, ReportActivated)
	}
}

// drain runs what matching left for later, until nothing is left: orders
// an order list canceled, the stop orders that trades reached (on every
// book: a list spans several), and secondaries a primary activated — last,
// so that a stop secondary fires on trades after its activation only, as
// any stop fires on trades after its creation.
func (e *Engine) drain(now int64) {
	for {
		if len(e.doomed) > 0 {
			o := e.doomed[0]
			e.doomed[0] = nil
			e.doomed = e.doomed[1:]
			if o.active() {
				e.unlink(o)
				e.finalize(o, Canceled, now, true)
			}
			continue
		}
		fired := false
		for _, bk := range e.bookList {
			if bk.traded {
				e.runTriggers(bk, now)
				fired = true
			}
		}
		if fired {
			continue
		}
		if len(e.activations) == 0 {
			e.doomed, e.activations = nil, nil
			return
		}
		o := e.activations[0]
		e.activations[0] = nil
		e.activations = e.activations[1:]
		if o.inactive && o.active() && !o.doomed {
			e.activate(o, now)
		}
	}
}
