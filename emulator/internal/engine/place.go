package engine

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// Place validates and places a new order (POST /spot/order). The answer
// carries the order's status when the request completes and the trades it
// made. Refusals are *Error; nothing changes on a refusal.
func (e *Engine) Place(req PlaceRequest) (out Order, _ error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	o, err := e.parse(req, now)
	if err != nil {
		return Order{}, err
	}
	key := req.Account
	switch {
	case o.mg != nil && o.mg.fut:
		key = FuturesKey(req.Account)
	case o.mg != nil:
		key = MarginKey(req.Account)
	}
	a := e.account(key)
	o.acct = a
	if req.ClientOrderID == nil {
		o.cloid = ""
		if !e.faults.On("V3-SPOT-CLOID-GENERATED") {
			e.genID(o)
		}
	} else if old := a.lookup(o.cloid); old != nil {
		if !e.faults.On("V3-SPOT-CLOID-DUPLICATE") {
			return Order{}, errorf(ErrDuplicateClientID, "client_order_id %q is already used by order %d", o.cloid, old.id)
		}
		if old.active() {
			e.unlink(old)
			e.finalize(old, cCanceled, now, true)
		}
	}
	if o.mg != nil {
		if err := e.bindMargin(o, req.Account, now); err != nil {
			return Order{}, err
		}
	}
	if err := e.checkLimits(a, o.bk); err != nil {
		return Order{}, err
	}
	if err := e.reserveNew(o); err != nil {
		return Order{}, err
	}
	o.created, o.updated = now, now
	o.deadline = e.deadlineOf(o, now)
	e.register(o)
	trades := e.answerTrades()
	if o.mg != nil && o.mg.closePos && o.qty == 0 {
		// Nothing to close: "closes the position or is canceled".
		e.finalize(o, cCanceled, now, true)
	} else {
		e.admit(o, now, &trades, ReportNew)
	}
	o.fill(&out)
	out.fills, out.fillsBk = e.keepTrades(trades), o.bk
	switch {
	case out.Status == Expired && o.tif == cIOC && o.filled == 0 && e.faults.On("V3-SPOT-IOC-FOK-FINAL"):
		out.Status = StatusNew
	case out.Status == Filled && e.faults.On("V3-SPOT-INSTANT-FILL"):
		out.Status = StatusNew
	case out.Status == StatusNew && o.typ == cLimit && e.faults.On("V3-SPOT-NEW"):
		out.Status = PartiallyFilled
	}
	e.drain(now)
	return out, nil
}

// tradeChunk is how many trades' room answerTrades takes at a time.
const tradeChunk = 256

// answerTrades is where an answer's trades are collected: the free tail of
// a chunk shared by the answers, so that keepTrades hands them out without
// an allocation and a copy per answer (together a twentieth of the
// engine's time). A sweep that outgrows the tail moves to a slice of its
// own, as append does.
func (e *Engine) answerTrades() []execution {
	if cap(e.tradeBuf) < tradeChunk/8 {
		e.tradeBuf = make([]execution, 0, tradeChunk)
	}
	return e.tradeBuf[:0]
}

// keepTrades ends the collection that answerTrades began: the trades
// become the answer's (nil when there are none), capped so that appending
// to them cannot reach the next answer's, and the chunk's room after them
// is the next answer's.
func (e *Engine) keepTrades(ts []execution) []execution {
	n := len(ts)
	if n == 0 {
		return nil
	}
	if n <= cap(e.tradeBuf) { // still in the chunk
		e.tradeBuf = e.tradeBuf[n:n]
	}
	return ts[:n:n]
}

// checkLimits enforces the active-order limits (spec: Limits, Other limits).
func (e *Engine) checkLimits(a *account, bk *book) *Error {
	perSym, perUser := e.opts.MaxActivePerSymbol, e.opts.MaxActivePerUser
	if e.faults.On("V3-SPOT-LIMIT-PER-SYMBOL") {
		perSym++
	}
	if e.faults.On("V3-SPOT-LIMIT-PER-USER") {
		perUser++
	}
	if a.perSym[bk.idx] >= perSym {
		return errorf(ErrOrderLimit, "%d active orders in %s: the limit is %d per symbol", a.perSym[bk.idx], bk.sym.Code, perSym)
	}
	if len(a.active) >= perUser {
		return errorf(ErrOrderLimit, "%d active orders: the limit is %d per user", len(a.active), perUser)
	}
	return nil
}

// parse validates a request, applies the documented defaults and rounding,
// and returns the order it describes (not yet registered).
func (e *Engine) parse(req PlaceRequest, now int64) (*order, *Error) {
	o := e.newOrder()
	var err *Error
	if req.ClientOrderID != nil {
		if !e.validClientOrderID(*req.ClientOrderID) {
			return nil, errorf(ErrValidation, "client_order_id %q must be 8 to 32 characters of Latin letters, digits, underscore and hyphen", *req.ClientOrderID)
		}
		o.cloid = *req.ClientOrderID
	}
	if req.Symbol == "" {
		return nil, errorf(ErrValidation, "symbol is required")
	}
	bk := e.books[req.Symbol]
	if bk != nil && bk.sym.Futures != (req.Margin != nil && req.Margin.Futures) {
		bk = nil // a futures contract trades only as futures, and only contracts do
	}
	if bk == nil {
		if e.faults.On("V3-SPOT-UNKNOWN-SYMBOL") {
			return nil, errorf(ErrValidation, "symbol %q is not valid", req.Symbol)
		}
		return nil, errorf(ErrSymbolNotFound, "symbol %q not found", req.Symbol)
	}
	if bk.sym.Status != "working" {
		return nil, errorf(ErrNotAllowed, "symbol %s is %s, not working", bk.sym.Code, bk.sym.Status)
	}
	o.bk = bk

	switch {
	case req.Side == nil:
		return nil, errorf(ErrValidation, "side is required")
	case *req.Side == Buy || *req.Side == Sell:
		o.side = sideCodeOf(*req.Side)
	case e.faults.On("V3-SPOT-SIDE"):
		o.side = cSell
	default:
		return nil, errorf(ErrValidation, "side %q must be buy or sell", *req.Side)
	}

	switch {
	case req.Type != nil:
		switch t := *req.Type; t {
		case Limit, Market, StopLimit, StopMarket, TakeProfitLimit, TakeProfitMarket:
			o.typ = typeCodeOf(t)
		default:
			return nil, errorf(ErrValidation, "type %q is not one of limit, market, stopLimit, stopMarket, takeProfitLimit, takeProfitMarket", t)
		}
	case req.Price != nil && e.faults.On("V3-SPOT-TYPE-DEFAULT"):
		o.typ = cMarket
	default:
		o.typ = cLimit
	}
	if req.Price == nil && o.typ == cLimit && e.faults.On("V3-SPOT-PRICE-REQUIRED") {
		o.typ = cMarket
	}
	if req.StopPrice == nil && o.typ == cStopLimit && e.faults.On("V3-SPOT-STOP-PRICE-REQUIRED") {
		o.typ = cLimit
	}

	closePos := false
	if req.Margin != nil {
		if o.mg, err = e.parseMargin(req); err != nil {
			return nil, err
		}
		closePos = o.mg.closePos
	}

	// Quantity, price and stop price, rounded to the symbol's steps. A
	// close_position order takes its quantity from the position later.
	if !closePos {
		qty := req.Quantity
		if qty == nil && e.faults.On("V3-SPOT-REQUIRED") {
			qty = &bk.step.dec
		}
		n, exact, err := e.unitsExact(bk.step, "quantity", qty, req.StrictValidate)
		if err != nil {
			return nil, err
		}
		o.setQtyFrom(n, qty, exact)
	} else {
		o.setQty(0)
	}
	if isLimitKind(o.typ) {
		if req.Price == nil {
			return nil, errorf(ErrValidation, "price is required for %s orders", o.typ)
		}
		n, exact, err := e.unitsExact(bk.tick, "price", req.Price, req.StrictValidate)
		if err != nil {
			return nil, err
		}
		o.setPriceFrom(n, req.Price, exact)
	}
	if isStop(o.typ) {
		if req.StopPrice == nil {
			return nil, errorf(ErrValidation, "stop_price is required for %s orders", o.typ)
		}
		if o.stop, err = e.units(bk.tick, "stop_price", req.StopPrice, req.StrictValidate); err != nil {
			return nil, err
		}
	}

	// Time in force.
	switch {
	case req.TimeInForce != nil:
		switch t := *req.TimeInForce; t {
		case GTC, IOC, FOK, Day, GTD:
			o.tif = tifCodeOf(t)
		default:
			return nil, errorf(ErrValidation, "time_in_force %q is not one of GTC, IOC, FOK, Day, GTD", t)
		}
		if o.typ == cMarket && o.tif != cIOC && o.tif != cFOK {
			return nil, errorf(ErrValidation, "a market order takes time_in_force IOC or FOK, not %s", o.tif)
		}
	case o.typ == cMarket && e.faults.On("V3-SPOT-TIF-DEFAULT"):
		o.tif = cGTC
	case isMarketKind(o.typ):
		o.tif = cFOK
	default:
		o.tif = cGTC
	}
	if o.tif == cGTD {
		switch {
		case req.ExpireTime != nil:
			if !req.ExpireTime.After(time.Unix(0, now)) {
				return nil, errorf(ErrValidation, "expire_time %s is not in the future", req.ExpireTime.UTC().Format(time.RFC3339))
			}
			o.extra().expire = req.ExpireTime.UnixNano()
		case e.faults.On("V3-SPOT-EXPIRE-REQUIRED"):
			o.tif = cGTC
		default:
			return nil, errorf(ErrValidation, "expire_time is required when time_in_force is GTD")
		}
	}

	if req.DisplayQuantity != nil {
		if *req.DisplayQuantity != "0" && !e.faults.On("V3-SPOT-DISPLAY-QTY") {
			return nil, errorf(ErrValidation, "display_quantity %q: the only valid value is \"0\"", *req.DisplayQuantity)
		}
		d := *req.DisplayQuantity
		o.extra().display = &d
	}
	o.postOnly = req.PostOnly

	o.fees = &bk.fees
	if req.TakeRate != nil || req.MakeRate != nil {
		take, err := e.rate("take_rate", bk.sym.TakeRate, req.TakeRate)
		if err != nil {
			return nil, err
		}
		mk, err := e.rate("make_rate", bk.sym.MakeRate, req.MakeRate)
		if err != nil {
			return nil, err
		}
		r := newRates(take, mk, bk.feeUnit())
		o.fees = &r
	}
	if isStop(o.typ) && e.faults.On("V3-SPOT-SUSPENDED") {
		o.triggered = true
	}
	return o, nil
}

// units validates a positive price or quantity and converts it to whole
// steps: rounded half down, or refused when strict and not a multiple.
func (e *Engine) units(u unit, name string, v *decimal.Decimal, strict bool) (int64, *Error) {
	n, _, err := e.unitsExact(u, name, v, strict)
	return n, err
}

// unitsExact is units, also reporting whether v was a whole number of
// steps (not rounded).
func (e *Engine) unitsExact(u unit, name string, v *decimal.Decimal, strict bool) (int64, bool, *Error) {
	if v == nil {
		return 0, false, errorf(ErrValidation, "%s is required", name)
	}
	if !v.IsPositive() {
		return 0, false, errorf(ErrValidation, "%s %s must be positive", name, v)
	}
	strict = strict && !e.faults.On("V3-SPOT-STRICT-VALIDATE")
	n, res := u.count(*v, strict, e.faults.On("V3-SPOT-ROUNDING"))
	switch {
	case res == roundInexact:
		return 0, false, errorf(ErrValidation, "%s %s is not a multiple of %s", name, v, u.dec)
	case res == roundOverflow:
		return 0, false, errorf(ErrValidation, "%s %s is too large", name, v)
	case n == 0:
		return 0, false, errorf(ErrValidation, "%s %s rounds to zero at step %s", name, v, u.dec)
	}
	return n, res == roundOK, nil
}

// rate is the effective fee rate: the symbol's plus the markup, which can
// only raise it (spec: "fee markup ... can only increase the fee").
func (e *Engine) rate(name string, base decimal.Decimal, markup *decimal.Decimal) (decimal.Decimal, *Error) {
	if markup == nil {
		return base, nil
	}
	if markup.IsNegative() {
		return decimal.Decimal{}, errorf(ErrValidation, "%s %s must not be negative: a markup can only increase the fee", name, markup)
	}
	r := base.Add(*markup)
	if name == "take_rate" && markup.LessThan(base) && e.faults.On("V3-SPOT-FEE-MARKUP") {
		r = *markup
	}
	if r.Cmp(decimal.New(1, 0)) >= 0 {
		return decimal.Decimal{}, errorf(ErrValidation, "%s %s makes the fee rate %s, not below 1", name, markup, r)
	}
	return r, nil
}

// Replace cancels an active order and places its replacement in one step
// (PATCH /spot/order/{client_order_id}). The replacement keeps the side,
// type, time in force and flags, takes the new quantity, price and stop
// price, and carries original_client_order_id. On a refusal the old order
// is untouched.
func (e *Engine) Replace(req ReplaceRequest) (Order, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	old, nf := e.activeOrder(req.Account, req.ClientOrderID)
	if nf != nil {
		return e.replaceUnknown(req, nf)
	}
	a, bk := old.acct, old.bk
	if old.mg != nil && old.mg.closePos {
		return Order{}, errorf(ErrValidation, "order %q closes a position: its quantity is the position's, so it cannot be replaced", old.clientID())
	}
	n := e.newOrder()
	*n = order{acct: a, bk: bk, side: old.side, typ: old.typ, tif: old.tif, postOnly: old.postOnly,
		triggered: old.triggered, stop: old.stop, fees: old.fees,
		x: &orderExtra{origCloid: old.clientID(), display: old.display(), expire: old.expire(), listIdx: old.listIdx()}}
	if old.mg != nil {
		mg := *old.mg
		mg.posID = 0
		n.mg = &mg
	}
	if e.faults.On("V3-SPOT-REPLACE") {
		n.x.origCloid = ""
	}
	if req.NewClientOrderID != nil {
		if !e.validClientOrderID(*req.NewClientOrderID) && !e.faults.On("V3-SPOT-CLOID-LEN-OTHER") {
			return Order{}, errorf(ErrValidation, "new_client_order_id %q must be 8 to 32 characters of Latin letters, digits, underscore and hyphen", *req.NewClientOrderID)
		}
		if used := a.lookup(*req.NewClientOrderID); used != nil {
			return Order{}, errorf(ErrDuplicateClientID, "new_client_order_id %q is already used by order %d", *req.NewClientOrderID, used.id)
		}
		n.cloid = *req.NewClientOrderID
	}
	units, exact, err := e.unitsExact(bk.step, "quantity", req.Quantity, req.StrictValidate)
	if err != nil {
		return Order{}, err
	}
	n.setQtyFrom(units, req.Quantity, exact)
	if isLimitKind(n.typ) {
		if req.Price == nil {
			return Order{}, errorf(ErrValidation, "price is required to replace a %s order", n.typ)
		}
		if units, exact, err = e.unitsExact(bk.tick, "price", req.Price, req.StrictValidate); err != nil {
			return Order{}, err
		}
		n.setPriceFrom(units, req.Price, exact)
	}
	if isStop(n.typ) && req.StopPrice != nil && !e.faults.On("V3-SPOT-REPLACE-STOP-PRICE") {
		if n.stop, err = e.units(bk.tick, "stop_price", req.StopPrice, req.StrictValidate); err != nil {
			return Order{}, err
		}
	}
	if n.cloid == "" {
		e.genID(n)
	}
	// Move the old reservation to the new order in one ledger step, so a
	// refusal leaves both untouched.
	cur := n.resvCurrency()
	amt := e.reservation(n)
	force := n.side == cBuy && e.faults.On("V3-SPOT-FUNDS")
	if n.mg != nil {
		// Margin accounts may go below zero (the borrowed part); what
		// bounds an order is the free margin, checked here.
		if !n.reducing() && !n.mg.force {
			if free := fixed.FromDecimal(e.freeMargin(n.mg.acct)).Add(old.resv); free.LessThan(amt) {
				return Order{}, errorf(ErrInsufficientFunds, "insufficient margin: the replacement needs %s %s, %s is free (the old order holds %s)", amt, cur, free, old.resv)
			}
		}
		force = true
	}
	if err := e.lh.ApplyMoves(ledger.Move{Account: n.resvAccount(), Currency: cur, Available: old.resv.Sub(amt), Reserved: amt.Sub(old.resv), MayOverdraw: force}); err != nil {
		return Order{}, errorf(ErrInsufficientFunds, "insufficient funds: the replacement needs %s %s (the old order holds %s): %v", amt, cur, old.resv, err)
	}
	n.resv, old.resv = amt, fixed.Amount{}
	if old.list != nil {
		// The replacement takes the old order's place in its list.
		n.list, n.inactive = old.list, old.inactive
		n.list.orders[n.listIdx()] = n
		old.replaced = true
	}
	old.superseded = true
	e.unlink(old)
	e.finalize(old, cCanceled, now, false)
	n.created, n.updated = now, now
	n.deadline = e.deadlineOf(n, now)
	e.register(n)
	trades := e.answerTrades()
	if n.inactive {
		n.status = cNew
		e.emitOrder(n, ReportReplaced, nil)
		if n.deadline != 0 {
			e.expiries.push(deadline{at: n.deadline, o: n})
		}
	} else {
		e.admit(n, now, &trades, ReportReplaced)
	}
	out := n.snapshot()
	out.fills, out.fillsBk = e.keepTrades(trades), n.bk
	e.drain(now)
	return out, nil
}
