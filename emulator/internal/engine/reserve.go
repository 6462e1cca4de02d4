package engine

// Reservations: what an order holds of its trader's funds while it is
// active (spec: Rules for orders).

import (
	"errors"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// reserveNew reserves what a new order may spend (spec: Rules for orders,
// 2 and 4): a buy price × quantity plus the highest fee, a sell its
// quantity (plus fee when fees are charged in the base); a market buy what
// the book would cost, which the available balance must exceed.
func (e *Engine) reserveNew(o *order) *Error {
	if o.mg != nil {
		return e.reserveMargin(o)
	}
	force := o.side == cBuy && e.faults.On("V3-SPOT-FUNDS")
	cur := o.spendCurrency()
	if o.side == cBuy && o.marketNow() {
		cost := o.bk.asks.cost(o.bk, o.qty)
		if cost.IsZero() {
			return nil // nothing to match: the order expires with nothing reserved
		}
		amt := e.withFee(o, cost)
		if e.faults.On("V3-SPOT-MARKET-BUY-FUNDS") {
			// The broken check weighs the cost without fees, then reserves
			// whatever the fees take on top.
			if avail := fixed.FromDecimal(e.lh.Balance(o.acct.id, cur).Available); !force && avail.Cmp(cost) <= 0 {
				return errorf(ErrInsufficientFunds, "insufficient funds: %s %s available does not exceed %s", avail, cur, cost)
			}
			force = true
		}
		return e.reserve(o, cur, amt, true, force)
	}
	return e.reserve(o, cur, e.reservation(o), false, force)
}

// reservation is what a limit or suspended order may still spend at most,
// for its remaining quantity.
func (e *Engine) reservation(o *order) fixed.Amount {
	if o.mg != nil {
		return fixed.FromDecimal(e.marginNeed(o))
	}
	bk := o.bk
	if o.side == cSell {
		q := bk.stepF.Times(o.remaining())
		if !bk.feeInQuote {
			q = q.Mul(o.fees.onePlusF)
		}
		return q
	}
	price := o.price
	if !isLimitKind(o.typ) {
		price = o.stop // a suspended stopMarket buy is estimated at its stop price
	}
	return e.withFee(o, bk.notionalF.TimesProduct(price, o.remaining()))
}

// withFee adds the highest fee to a buy's quote amount when fees are
// charged in the quote currency.
func (e *Engine) withFee(o *order, quote fixed.Amount) fixed.Amount {
	if o.bk.feeInQuote {
		return quote.Mul(o.fees.onePlusF)
	}
	return quote
}

// reserve moves amt of cur from available to reserved for o; mustExceed
// and force are as for ledger.Reserve.
func (e *Engine) reserve(o *order, cur string, amt fixed.Amount, mustExceed, force bool) *Error {
	if amt.IsZero() {
		return nil
	}
	var err error
	if r := o.resvRef(); r != nil && r.Currency == cur {
		err = e.lh.ReserveRef(r, amt, mustExceed, force)
	} else {
		err = e.lh.ReserveAmount(o.acct.id, cur, amt, mustExceed, force)
	}
	if err != nil {
		if errors.Is(err, ledger.ErrInsufficient) {
			return errorf(ErrInsufficientFunds, "insufficient funds: the order needs %s %s: %v", amt, cur, err)
		}
		return errorf(ErrInsufficientFunds, "reserving %s %s: %v", amt, cur, err)
	}
	if o.resv.IsZero() {
		o.resv = amt
	} else {
		o.resv = o.resv.Add(amt)
	}
	return nil
}
