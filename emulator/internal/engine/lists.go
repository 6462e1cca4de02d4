package engine

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
	// Futures makes it a futures list (POST /futures/order/list), with
	// Margin set too: every order is a futures order.
	Futures bool
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
	e.lock()
	defer e.unlock()
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
			r.Margin = &MarginParams{Futures: req.Futures}
		default:
			mp := *r.Margin
			mp.Futures = req.Futures
			r.Margin = &mp
		}
	}
	key := req.Account
	switch {
	case req.Futures:
		key = FuturesKey(req.Account)
	case req.Margin:
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
