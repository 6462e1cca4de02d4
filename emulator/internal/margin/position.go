package margin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Scale is the number of decimal places margin amounts that need a
// division (initial margin, the cost basis of a partly closed position)
// are rounded to. Exact decimals elsewhere.
const Scale = 12

// Position is a position's quantity (signed: negative when short) and cost
// basis (signed like the quantity: what was paid for a long, what was
// received for a short).
type Position struct {
	Qty  decimal.Decimal
	Cost decimal.Decimal
}

// Trade applies an execution of dq (signed: positive for a buy) at price
// and returns the position after it and the profit or loss it realized.
// Increasing a position adds dq × price to the cost basis; reducing it
// takes off the reduced fraction of the basis, the difference with what the
// execution paid or received being realized; going through zero closes the
// position and opens the other side at price.
func (p Position) Trade(dq, price decimal.Decimal) (Position, decimal.Decimal) {
	if p.Qty.IsZero() || p.Qty.Sign() == dq.Sign() {
		return Position{Qty: p.Qty.Add(dq), Cost: p.Cost.Add(dq.Mul(price))}, decimal.Decimal{}
	}
	held := p.Qty.Abs()
	closing := decimal.Min(dq.Abs(), held)
	basis := p.Cost // the whole basis when the position closes entirely: exact
	if closing.LessThan(held) {
		basis = p.Cost.Mul(closing).DivRound(held, Scale)
	}
	// A long sells closing at price, a short buys it back.
	realized := closing.Mul(price).Mul(decimal.New(int64(p.Qty.Sign()), 0)).Sub(basis)
	next := Position{Qty: p.Qty.Add(dq), Cost: p.Cost.Sub(basis)}
	if next.Qty.Sign() == dq.Sign() { // went through zero: the rest opens at price
		next.Cost = next.Qty.Mul(price)
	}
	return next, realized
}

// Entry is the average entry price, rounded to places decimals (zero when
// flat).
func (p Position) Entry(places int32) decimal.Decimal {
	if p.Qty.IsZero() {
		return decimal.Decimal{}
	}
	return p.Cost.DivRound(p.Qty, places)
}

// PnL is the unrealized profit or loss at price last.
func (p Position) PnL(last decimal.Decimal) decimal.Decimal {
	return p.Qty.Mul(last).Sub(p.Cost)
}

// Initial is the initial margin of a notional at leverage: |notional| /
// leverage, rounded up to Scale places so that what is held never falls
// short.
func Initial(notional, leverage decimal.Decimal) decimal.Decimal {
	if leverage.IsZero() {
		return notional.Abs()
	}
	q := notional.Abs().DivRound(leverage, Scale+1)
	if r := q.RoundUp(Scale); !r.Equal(q) {
		return r
	}
	return q.Round(Scale)
}

// TriggerPrice is the price at which the position, backed by balance
// (margin_balance), reaches the leverage limit leverage × mul:
//
//	long:  P = K (cost − balance) / (q (K − 1))
//	short: P = K (balance − cost) / (|q| (K + 1))
//
// with K = leverage × mul, from |q| P / (balance + q (P − entry)) = K. A
// position that cannot reach it (a long fully paid for) gets zero. The
// price is rounded to places decimals.
func TriggerPrice(p Position, balance, leverage, mul decimal.Decimal, places int32) decimal.Decimal {
	if p.Qty.IsZero() {
		return decimal.Decimal{}
	}
	k := leverage.Mul(mul)
	one := decimal.New(1, 0)
	var num, den decimal.Decimal
	if p.Qty.IsPositive() {
		num, den = k.Mul(p.Cost.Sub(balance)), p.Qty.Mul(k.Sub(one))
	} else {
		num, den = k.Mul(balance.Sub(p.Cost)), p.Qty.Abs().Mul(k.Add(one))
	}
	if !den.IsPositive() || !num.IsPositive() {
		return decimal.Decimal{}
	}
	return num.DivRound(den, places)
}

// ErrBalance is wrapped by ParseBalance's refusals.
var ErrBalance = errors.New("margin: invalid margin_balance")

// ParseBalance reads a margin_balance for a currency whose precision (its
// precision_transfer, the smallest amount it moves in) is precision. With
// strict it refuses an exponent form and more decimals than precision
// allows; without, it accepts both and rounds down to the precision, so
// that no more than asked is ever moved. Negative amounts and values of
// more than 64 characters are refused.
func ParseBalance(s string, precision decimal.Decimal, strict bool) (decimal.Decimal, error) {
	if s == "" || len(s) > 64 {
		return decimal.Decimal{}, fmt.Errorf("%w: %q is empty or longer than 64 characters", ErrBalance, s)
	}
	exp := strings.ContainsAny(s, "eE")
	if exp && strict {
		return decimal.Decimal{}, fmt.Errorf("%w: %q is in exponential format", ErrBalance, s)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%w: %q is not a decimal", ErrBalance, s)
	}
	if exp && (d.Exponent() < -64 || d.Exponent() > 64) {
		return decimal.Decimal{}, fmt.Errorf("%w: %q is out of range", ErrBalance, s)
	}
	if d.IsNegative() {
		return decimal.Decimal{}, fmt.Errorf("%w: %q is negative", ErrBalance, s)
	}
	places := Places(precision)
	if r := d.RoundDown(places); !r.Equal(d) {
		if strict {
			return decimal.Decimal{}, fmt.Errorf("%w: %q has more decimals than the currency's precision %s", ErrBalance, s, precision)
		}
		d = r
	}
	return d, nil
}

// Places is the number of decimal places of a precision such as 0.000001
// (6); 0 for whole steps.
func Places(precision decimal.Decimal) int32 {
	if !precision.IsPositive() {
		return 0
	}
	// Strip trailing zeros: 0.010 has the places of 0.01.
	n := -precision.Exponent()
	for n > 0 && precision.Shift(n-1).IsInteger() {
		n--
	}
	return max(n, 0)
}
