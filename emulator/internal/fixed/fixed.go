// Package fixed holds exact amounts in fixed point: a 128-bit integer count
// of 10^-18, so that the engine and the ledger settle trades, fees and
// reservations with integer additions and multiplications instead of
// arbitrary-precision decimals (which allocate on every operation). A value
// that does not fit (more than 18 decimal places, or beyond about ±1.7e20)
// is kept as a decimal instead, so every amount stays exact: overflow is
// never wrapped, it moves the value to the slow representation.
package fixed

import (
	"math/big"
	"math/bits"

	"github.com/shopspring/decimal"
)

// Places is the number of decimal places of the fixed representation.
const Places = 18

// Amount is an exact decimal amount. The zero value is zero.
type Amount struct {
	hi   int64  // high word of the two's complement count of 10^-18
	lo   uint64 // low word
	slow *decimal.Decimal
}

// pow10 holds 10^0..10^19.
var pow10 = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// FromDecimal converts d exactly.
func FromDecimal(d decimal.Decimal) Amount {
	exp := int(d.Exponent()) + Places
	if d.NumDigits() <= 18 && exp >= -18 && exp <= 19 {
		c := d.CoefficientInt64()
		if a, ok := scale(c, exp); ok {
			return a
		}
	}
	if a, ok := fromBig(d.Coefficient(), exp); ok {
		return a
	}
	return Amount{slow: &d}
}

// scale is c × 10^exp as an Amount, when exact and in range.
func scale(c int64, exp int) (Amount, bool) {
	neg, m := c < 0, uint64(c)
	if neg {
		m = -m
	}
	var h, l uint64 = 0, m
	if exp >= 0 {
		h, l = bits.Mul64(m, pow10[exp])
	} else {
		var r uint64
		l, r = m/pow10[-exp], m%pow10[-exp]
		if r != 0 {
			return Amount{}, false
		}
	}
	return fromMag(neg, h, l)
}

func fromBig(c *big.Int, exp int) (Amount, bool) {
	c = new(big.Int).Set(c)
	if exp >= 0 {
		c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	} else {
		q, r := new(big.Int).QuoRem(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp)), nil), new(big.Int))
		if r.Sign() != 0 {
			return Amount{}, false
		}
		c = q
	}
	neg := c.Sign() < 0
	c.Abs(c)
	if c.BitLen() > 127 {
		return Amount{}, false
	}
	lo := new(big.Int).And(c, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(c, 64).Uint64()
	return fromMag(neg, hi, lo)
}

// fromMag makes a signed amount of magnitude h:l, when below 2^127.
func fromMag(neg bool, h, l uint64) (Amount, bool) {
	if h>>63 != 0 {
		return Amount{}, false
	}
	if neg {
		l, h = negate(h, l)
	}
	return Amount{hi: int64(h), lo: l}, true
}

func negate(h, l uint64) (uint64, uint64) {
	l2, c := bits.Sub64(0, l, 0)
	h2, _ := bits.Sub64(0, h, c)
	return l2, h2
}

// mag is the sign and magnitude of a fast amount.
func (a Amount) mag() (neg bool, h, l uint64) {
	if a.hi < 0 {
		l, h = negate(uint64(a.hi), a.lo)
		return true, h, l
	}
	return false, uint64(a.hi), a.lo
}

// Decimal returns the amount as a decimal, without trailing zeros.
func (a Amount) Decimal() decimal.Decimal {
	if a.slow != nil {
		return *a.slow
	}
	if a.hi == 0 && a.lo == 0 {
		return decimal.Decimal{}
	}
	if (a.hi == 0 && a.lo < 1<<63) || (a.hi == -1 && a.lo >= 1<<63) {
		n, e := int64(a.lo), int32(-Places)
		// Strip trailing zeros (at most 18), in binary steps: 16, 8, 4, 2, 1.
		for _, k := range [...]int32{16, 8, 4, 2, 1} {
			if p := int64(pow10[k]); e+k <= 0 && n%p == 0 {
				n, e = n/p, e+k
			}
		}
		return decimal.New(n, e)
	}
	neg, h, l := a.mag()
	c := new(big.Int).Lsh(new(big.Int).SetUint64(h), 64)
	c.Or(c, new(big.Int).SetUint64(l))
	if neg {
		c.Neg(c)
	}
	return decimal.NewFromBigInt(c, -Places)
}

// Hash is a hash of the amount's value (0 for values beyond the fixed
// range), for small caches keyed by amounts.
func (a Amount) Hash() uint64 {
	if a.slow != nil {
		return 0
	}
	return (a.lo ^ uint64(a.hi)) * 0x9e3779b97f4a7c15
}

// String formats the amount as its decimal does.
func (a Amount) String() string { return a.Decimal().String() }

// Add returns a + b.
func (a Amount) Add(b Amount) Amount {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi := a.hi + b.hi + int64(c)
	// Signed overflow: the result's sign differs from both operands'.
	if a.slow == nil && b.slow == nil && (a.hi^hi)&(b.hi^hi) >= 0 {
		return Amount{hi: hi, lo: lo}
	}
	return addSlow(a, b)
}

// addSlow is Add beyond the fixed range, apart so that Add inlines (it
// runs several times per trade).
//
//go:noinline
func addSlow(a, b Amount) Amount { return FromDecimal(a.Decimal().Add(b.Decimal())) }

// Neg returns -a.
func (a Amount) Neg() Amount {
	if a.slow == nil && !(a.hi == -1<<63 && a.lo == 0) {
		l, h := negate(uint64(a.hi), a.lo)
		return Amount{hi: int64(h), lo: l}
	}
	return FromDecimal(a.Decimal().Neg())
}

// Sub returns a - b.
func (a Amount) Sub(b Amount) Amount {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	hi := a.hi - b.hi - int64(c)
	// Signed overflow: operands of different signs, the result's sign not a's.
	if a.slow == nil && b.slow == nil && (a.hi^b.hi)&(a.hi^hi) >= 0 {
		return Amount{hi: hi, lo: lo}
	}
	return subSlow(a, b)
}

//go:noinline
func subSlow(a, b Amount) Amount { return FromDecimal(a.Decimal().Sub(b.Decimal())) }

// Sign is -1, 0 or 1.
func (a Amount) Sign() int {
	switch {
	case a.slow != nil:
		return a.slow.Sign()
	case a.hi < 0:
		return -1
	case a.hi == 0 && a.lo == 0:
		return 0
	}
	return 1
}

// IsZero, IsNegative and IsPositive test the sign.
func (a Amount) IsZero() bool     { return a.Sign() == 0 }
func (a Amount) IsNegative() bool { return a.Sign() < 0 }
func (a Amount) IsPositive() bool { return a.Sign() > 0 }

// Cmp is -1, 0 or 1 as a is less than, equal to or greater than b.
func (a Amount) Cmp(b Amount) int {
	if a.slow == nil && b.slow == nil {
		switch {
		case a.hi < b.hi:
			return -1
		case a.hi > b.hi:
			return 1
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	}
	return a.Decimal().Cmp(b.Decimal())
}

// LessThan reports a < b.
func (a Amount) LessThan(b Amount) bool { return a.Cmp(b) < 0 }

// Factor is an exact multiplier coef × 10^exp: a fee rate, a unit (tick
// size, quantity increment, or their product), 1 + a rate.
type Factor struct {
	coef int64
	exp  int32
	// unit is |coef| × 10^(exp+Places) when that is a whole number below
	// 2^64, 0 otherwise: Times and TimesProduct then make the count of
	// 10^-18 with one multiplication instead of one by coef and one by a
	// power of ten (the second was a fifth of settling a trade).
	unit uint64
	dec  decimal.Decimal
}

// NewFactor makes a factor of d; ok is false when its coefficient needs
// more than 63 bits (then Mul answers through decimals).
func NewFactor(d decimal.Decimal) Factor {
	c, e := new(big.Int).Set(d.Coefficient()), d.Exponent()
	ten, r := big.NewInt(10), new(big.Int)
	for c.Sign() != 0 {
		q, m := new(big.Int).QuoRem(c, ten, r)
		if m.Sign() != 0 {
			break
		}
		c, e = q, e+1
	}
	f := Factor{exp: e, dec: d}
	if c.IsInt64() {
		f.coef = c.Int64()
	} else {
		f.exp = 1 << 30 // never fast
		return f
	}
	if k := int(e) + Places; k >= 0 && k < len(pow10) {
		if h, l := bits.Mul64(abs64(f.coef), pow10[k]); h == 0 {
			f.unit = l
		}
	}
	return f
}

// Decimal is the factor as a decimal.
func (f Factor) Decimal() decimal.Decimal { return f.dec }

// Times returns n × f exactly (n a count of units or of ticks × lots).
func (f Factor) Times(n int64) Amount {
	if f.unit != 0 {
		h, l := bits.Mul64(abs64(n), f.unit)
		if a, ok := fromMag((n < 0) != (f.coef < 0), h, l); ok {
			return a
		}
	}
	if f.exp < 1<<30 {
		neg := (n < 0) != (f.coef < 0)
		h, l := bits.Mul64(abs64(n), abs64(f.coef))
		if a, ok := shift(neg, h, l, int(f.exp)+Places); ok {
			return a
		}
	}
	return FromDecimal(decimal.New(n, 0).Mul(f.dec))
}

// TimesProduct returns a × b × f exactly (a price in ticks times a
// quantity in lots, times the unit of their product).
func (f Factor) TimesProduct(a, b int64) Amount {
	if f.unit != 0 {
		h, l := bits.Mul64(abs64(a), abs64(b))
		if h, l, ok := mul128(h, l, f.unit); ok {
			if r, ok := fromMag(((a < 0) != (b < 0)) != (f.coef < 0), h, l); ok {
				return r
			}
		}
	}
	if f.exp < 1<<30 {
		neg := ((a < 0) != (b < 0)) != (f.coef < 0)
		h, l := bits.Mul64(abs64(a), abs64(b))
		if h, l, ok := mul128(h, l, abs64(f.coef)); ok {
			if r, ok := shift(neg, h, l, int(f.exp)+Places); ok {
				return r
			}
		}
	}
	return FromDecimal(decimal.New(a, 0).Mul(decimal.New(b, 0)).Mul(f.dec))
}

// Mul returns a × f exactly.
func (a Amount) Mul(f Factor) Amount {
	if a.slow == nil && f.exp < 1<<30 {
		neg, h, l := a.mag()
		neg = neg != (f.coef < 0)
		if h, l, ok := mul128(h, l, abs64(f.coef)); ok {
			if r, ok := shift(neg, h, l, int(f.exp)); ok {
				return r
			}
		}
	}
	return FromDecimal(a.Decimal().Mul(f.dec))
}

func abs64(n int64) uint64 {
	if n < 0 {
		return uint64(-n)
	}
	return uint64(n)
}

// mul128 is h:l × k, when it fits 128 bits.
func mul128(h, l, k uint64) (uint64, uint64, bool) {
	ph, pl := bits.Mul64(l, k)
	qh, ql := bits.Mul64(h, k)
	if qh != 0 {
		return 0, 0, false
	}
	hi, c := bits.Add64(ql, ph, 0)
	if c != 0 {
		return 0, 0, false
	}
	return hi, pl, true
}

// shift is the signed amount of magnitude h:l × 10^exp, when exact and in
// range.
func shift(neg bool, h, l uint64, exp int) (Amount, bool) {
	for exp > 0 {
		k := min(exp, 19)
		var ok bool
		if h, l, ok = mul128(h, l, pow10[k]); !ok {
			return Amount{}, false
		}
		exp -= k
	}
	if exp < 0 && exp >= -19 && h == 0 {
		// The common case (a fee: an amount times a rate): one word
		// divided by a constant power of ten, which compiles to a
		// multiplication where a division by a variable took two
		// hardware divisions.
		q, r := divPow10(l, -exp)
		if r != 0 {
			return Amount{}, false
		}
		return fromMag(neg, 0, q)
	}
	for exp < 0 {
		k := min(-exp, 19)
		d := pow10[k]
		qh, r := h/d, h%d
		ql, r := bits.Div64(r, l, d)
		if r != 0 {
			return Amount{}, false
		}
		h, l = qh, ql
		exp += k
	}
	return fromMag(neg, h, l)
}

// divPow10 is l / 10^k and l % 10^k for k in 1..19, each divisor a
// constant so that the compiler turns the division into a multiplication.
func divPow10(l uint64, k int) (uint64, uint64) {
	switch k {
	case 1:
		return l / 1e1, l % 1e1
	case 2:
		return l / 1e2, l % 1e2
	case 3:
		return l / 1e3, l % 1e3
	case 4:
		return l / 1e4, l % 1e4
	case 5:
		return l / 1e5, l % 1e5
	case 6:
		return l / 1e6, l % 1e6
	case 7:
		return l / 1e7, l % 1e7
	case 8:
		return l / 1e8, l % 1e8
	case 9:
		return l / 1e9, l % 1e9
	case 10:
		return l / 1e10, l % 1e10
	case 11:
		return l / 1e11, l % 1e11
	case 12:
		return l / 1e12, l % 1e12
	case 13:
		return l / 1e13, l % 1e13
	case 14:
		return l / 1e14, l % 1e14
	case 15:
		return l / 1e15, l % 1e15
	case 16:
		return l / 1e16, l % 1e16
	case 17:
		return l / 1e17, l % 1e17
	case 18:
		return l / 1e18, l % 1e18
	case 19:
		return l / 1e19, l % 1e19
	}
	return l / pow10[k], l % pow10[k]
}
