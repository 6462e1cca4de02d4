package call

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// FormatDecimal is d.String(), the form every decimal of an answer takes.
// A coefficient of up to 18 digits is written here from its int64: the
// package's own conversion goes through big.Int's and allocates for every
// field of every order answer.
func FormatDecimal(d decimal.Decimal) string {
	var buf [48]byte
	b, ok := appendDecimal(buf[:0], d)
	if !ok {
		return d.String()
	}
	return string(b)
}

// appendDecimal appends d.String() to b, or answers false (and b) where it
// leaves it to d.String(): a long coefficient, or the package's output
// switched from its defaults.
func appendDecimal(b []byte, d decimal.Decimal) ([]byte, bool) {
	if !decimal.TrimTrailingZeros || decimal.UseScientificNotation || d.NumDigits() > 18 {
		return b, false
	}
	c, exp := d.CoefficientInt64(), int(d.Exponent())
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	var dig [20]byte
	s := strconv.AppendInt(dig[:0], c, 10)
	switch {
	case exp == 0:
		return append(b, s...), true
	case exp > 0: // an integer: the coefficient, then exp zeros
		b = append(b, s...)
		for i := 0; c != 0 && i < exp; i++ {
			b = append(b, '0')
		}
		return b, true
	}
	n := -exp
	intPart, lead, frac := []byte("0"), 0, s
	if len(s) > n {
		intPart, frac = s[:len(s)-n], s[len(s)-n:]
	} else {
		lead = n - len(s)
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	b = append(b, intPart...)
	if len(frac) == 0 {
		return b, true
	}
	b = append(b, '.')
	for range lead {
		b = append(b, '0')
	}
	return append(b, frac...), true
}
