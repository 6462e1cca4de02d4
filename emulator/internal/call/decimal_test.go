package call

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestFormatDecimalAgainstString checks FormatDecimal against
// decimal.String on decimals of every size and exponent, the long ones it
// hands to decimal.String included.
func TestFormatDecimalAgainstString(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ds := []decimal.Decimal{{}, decimal.New(0, -5), decimal.New(0, 7), decimal.New(-1, -30), decimal.New(120, 3),
		decimal.New(999999999999999999, -9), decimal.New(-999999999999999999, 0), decimal.New(1<<62, -4),
		decimal.RequireFromString("-0.000100"), decimal.RequireFromString("123456789012345678901234567890.5")}
	for i := 0; i < 100000; i++ {
		var c int64
		switch r.IntN(3) {
		case 0:
			c = r.Int64() - r.Int64()
		case 1:
			c = r.Int64N(1e6) - r.Int64N(1e6)
		default:
			c = r.Int64N(10) * 1000
		}
		ds = append(ds, decimal.New(c, int32(r.IntN(50)-35)))
	}
	for _, d := range ds {
		if got, want := FormatDecimal(d), d.String(); got != want {
			t.Fatalf("FormatDecimal(%s e %d) = %q, want %q", d.Coefficient(), d.Exponent(), got, want)
		}
	}
}
