package fixed

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/conform-harness/conform/internal/race"
)

// randDec makes decimals of every size: small and fast, and some too long
// or too precise for the fixed representation.
func randDec(r *rand.Rand) decimal.Decimal {
	switch r.IntN(10) {
	case 0:
		return decimal.New(r.Int64()-r.Int64(), int32(r.IntN(60)-40)) // often out of range
	case 1:
		return decimal.Decimal{}
	default:
		return decimal.New(r.Int64N(1e12)-r.Int64N(1e12), int32(-r.IntN(19)))
	}
}

// TestAgainstDecimal checks every operation against shopspring decimals on
// random operands, including ones that overflow the fast representation.
func TestAgainstDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < race.Depth(200000); i++ {
		x, y := randDec(r), randDec(r)
		a, b := FromDecimal(x), FromDecimal(y)
		check := func(op string, got Amount, want decimal.Decimal) {
			t.Helper()
			if !got.Decimal().Equal(want) {
				t.Fatalf("%s(%s, %s) = %s, want %s", op, x, y, got.Decimal(), want)
			}
		}
		check("from", a, x)
		check("add", a.Add(b), x.Add(y))
		check("sub", a.Sub(b), x.Sub(y))
		check("neg", a.Neg(), x.Neg())
		if a.Cmp(b) != x.Cmp(y) || a.Sign() != x.Sign() {
			t.Fatalf("cmp(%s, %s) = %d, want %d", x, y, a.Cmp(b), x.Cmp(y))
		}
		f := NewFactor(y)
		check("mul", a.Mul(f), x.Mul(y))
		n, m := r.Int64N(1<<40)-r.Int64N(1<<40), r.Int64N(1<<40)
		check("times", f.Times(n), decimal.New(n, 0).Mul(y))
		check("timesProduct", f.TimesProduct(n, m), decimal.New(n, 0).Mul(decimal.New(m, 0)).Mul(y))
	}
}

// TestOverflowIsNotWrapped adds past the 128-bit range and back.
func TestOverflowIsNotWrapped(t *testing.T) {
	big := FromDecimal(decimal.RequireFromString("100000000000000000000")) // 1e20, fast
	sum := big
	for i := 0; i < 5; i++ {
		sum = sum.Add(big)
	}
	if want := decimal.RequireFromString("600000000000000000000"); !sum.Decimal().Equal(want) {
		t.Fatalf("6 × 1e20 = %s", sum.Decimal())
	}
	back := sum.Sub(big.Mul(NewFactor(decimal.New(5, 0))))
	if !back.Decimal().Equal(big.Decimal()) || back.slow != nil {
		t.Fatalf("back in range: %s (slow %v)", back.Decimal(), back.slow != nil)
	}
}

func TestDecimalIsShortest(t *testing.T) {
	for in, want := range map[string]string{"1.50": "1.5", "0.0025": "0.0025", "-3": "-3", "0": "0", "1e-18": "0.000000000000000001"} {
		if got := FromDecimal(decimal.RequireFromString(in)).String(); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// TestSignedOverflowEdges adds and subtracts at the edges of the 128-bit
// range, where the sign of the result is what tells an overflow.
func TestSignedOverflowEdges(t *testing.T) {
	for _, c := range []struct{ x, y string }{
		{"150000000000000000000", "150000000000000000000"},
		{"-150000000000000000000", "-150000000000000000000"},
		{"150000000000000000000", "-150000000000000000000"},
		{"-150000000000000000000", "150000000000000000000"},
		{"170141183460469231731.687303715884105727", "0.000000000000000001"},
		{"-170141183460469231731.687303715884105728", "0.000000000000000001"},
		{"-170141183460469231731.687303715884105728", "-0.000000000000000001"},
	} {
		x, y := decimal.RequireFromString(c.x), decimal.RequireFromString(c.y)
		a, b := FromDecimal(x), FromDecimal(y)
		if got, want := a.Add(b).Decimal(), x.Add(y); !got.Equal(want) {
			t.Errorf("%s + %s = %s, want %s", x, y, got, want)
		}
		if got, want := a.Sub(b).Decimal(), x.Sub(y); !got.Equal(want) {
			t.Errorf("%s - %s = %s, want %s", x, y, got, want)
		}
	}
}

// TestDivPow10 checks each constant divisor against division by the table.
func TestDivPow10(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 19; k++ {
		for _, l := range []uint64{0, 1, pow10[k] - 1, pow10[k], pow10[k] + 1, ^uint64(0), r.Uint64(), r.Uint64() >> 20} {
			q, m := divPow10(l, k)
			if q != l/pow10[k] || m != l%pow10[k] {
				t.Fatalf("divPow10(%d, %d) = %d, %d; want %d, %d", l, k, q, m, l/pow10[k], l%pow10[k])
			}
		}
	}
}
