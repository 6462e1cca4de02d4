package trading

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"github.com/shopspring/decimal"
)

// AsDecimal reads a decimal.Decimal, or a decimal carried as a plain
// decimal string (Conventions 2); anything else is not a decimal.
func AsDecimal(v any) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case decimal.Decimal:
		return x, true
	case string:
		if !framework.IsKind(x, framework.Decimal) {
			return decimal.Zero, false
		}
		d, err := decimal.NewFromString(x)
		return d, err == nil
	}
	return decimal.Zero, false
}

// DecEqual matches a decimal (or decimal string) equal in value to want, so
// that "0.10" and "0.1" are the same price or quantity.
func DecEqual(want decimal.Decimal) types.GomegaMatcher {
	shown := struct{ Want, Got string }{Want: want.String()}
	return gcustom.MakeMatcher(func(v any) (bool, error) {
		d, ok := AsDecimal(v)
		if !ok {
			shown.Got = fmt.Sprintf("%#v (not a decimal)", v)
			return false, nil
		}
		shown.Got = d.String()
		return d.Equal(want), nil
	}).WithTemplate("expected a decimal equal to {{.Data.Want}}, got {{.Data.Got}}", &shown)
}

// DecField returns the decimal string field k of o, failing the spec when it
// is missing or not a decimal string.
func DecField(o map[string]any, k string) decimal.Decimal {
	GinkgoHelper()
	v, ok := o[k]
	Expect(ok).To(BeTrue(), "field %s is missing from %v", k, o)
	Expect(v).To(framework.BeDecimalString(), "field %s of %v", k, o)
	d, err := decimal.NewFromString(v.(string))
	Expect(err).NotTo(HaveOccurred(), "field %s of %v", k, o)
	return d
}
