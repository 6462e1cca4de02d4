package engine

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/shopspring/decimal"
)

// maxUnits bounds prices in ticks and quantities in increments, so that the
// book can keep them as int64 and sum them without overflow.
const maxUnits = 1 << 60

// unit is a positive step (a tick_size or a quantity_increment) written as
// coef × 10^exp. The book counts prices and quantities in whole units, which
// keeps matching on integers; decimals are made only to settle and to answer.
type unit struct {
	coef int64
	exp  int32
	dec  decimal.Decimal
}

func newUnit(d decimal.Decimal) (unit, error) {
	if !d.IsPositive() {
		return unit{}, fmt.Errorf("step %s is not positive", d)
	}
	// Strip trailing zeros so that coef is as small as it can be.
	c, e := new(big.Int).Set(d.Coefficient()), d.Exponent()
	ten, r := big.NewInt(10), new(big.Int)
	for {
		q, m := new(big.Int).QuoRem(c, ten, r)
		if m.Sign() != 0 {
			break
		}
		c, e = q, e+1
	}
	if !c.IsInt64() || c.Int64() >= maxUnits {
		return unit{}, fmt.Errorf("step %s is too large", d)
	}
	return unit{coef: c.Int64(), exp: e, dec: decimal.New(c.Int64(), e)}, nil
}

// pow10 holds 10^0..10^18.
var pow10 = func() [19]uint64 {
	var p [19]uint64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// roundResult says how count treated its input.
type roundResult int

const (
	roundOK       roundResult = iota
	roundInexact              // not a multiple of the unit, and strict
	roundOverflow             // too many units to keep
	roundRounded              // not a multiple of the unit, rounded to the nearer one
)

// count returns x / u as a whole number of units (x > 0). A value between two
// multiples is rounded to the nearer one, a tie toward zero ("half down"), or
// away from zero when halfUp; when strict it is refused instead.
func (u unit) count(x decimal.Decimal, strict, halfUp bool) (int64, roundResult) {
	xe, ue := x.Exponent(), u.exp
	if x.NumDigits() <= 18 && xe-ue <= 18 && ue-xe <= 18 {
		num, den := uint64(x.CoefficientInt64()), uint64(u.coef)
		ok := true
		if xe >= ue {
			hi, lo := bits.Mul64(num, pow10[xe-ue])
			num, ok = lo, hi == 0 && lo < 1<<63
		} else {
			hi, lo := bits.Mul64(den, pow10[ue-xe])
			den, ok = lo, hi == 0 && lo < 1<<63
		}
		if ok && den == 1 {
			// A step of one unit at the value's scale (0.01 for 1.25): no
			// division (a hardware one per price and per quantity showed).
			return finishCount(num, false, false, strict)
		}
		if ok {
			q, r := num/den, num%den
			return finishCount(q, r != 0, 2*r > den || (halfUp && 2*r == den), strict)
		}
	}
	num, den := x.Coefficient(), big.NewInt(u.coef)
	if xe >= ue {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(xe-ue)), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ue-xe)), nil))
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if !q.IsUint64() {
		return 0, roundOverflow
	}
	c := new(big.Int).Lsh(r, 1).Cmp(den)
	return finishCount(q.Uint64(), r.Sign() != 0, c > 0 || (halfUp && c == 0), strict)
}

func finishCount(q uint64, inexact, up, strict bool) (int64, roundResult) {
	if inexact && strict {
		return 0, roundInexact
	}
	if inexact && up {
		q++
	}
	if q >= maxUnits {
		return 0, roundOverflow
	}
	if inexact {
		return int64(q), roundRounded
	}
	return int64(q), roundOK
}

// decimal returns n units as a decimal.
func (u unit) decimal(n int64) decimal.Decimal {
	if u.coef == 1 {
		return decimal.New(n, u.exp)
	}
	hi, lo := bits.Mul64(uint64(n), uint64(u.coef))
	if hi == 0 && lo < 1<<63 {
		return decimal.New(int64(lo), u.exp)
	}
	return decimal.NewFromBigInt(new(big.Int).Mul(big.NewInt(n), big.NewInt(u.coef)), u.exp)
}
