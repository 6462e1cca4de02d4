package marketdata

import (
	"fmt"
	"regexp"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Invariants between the fields of one record: what the document's
// sentences imply beyond each field's type.
var _ = framework.AreaDescribe("Invariants between fields of market data records", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceIt("V3-NETWORK-REGEX", func(ctx SpecContext) {
		seen := 0
		for code, cur := range currencies(ctx, pub) {
			for i, n := range networksOf(code, cur) {
				for _, field := range []string{"address_regex", "payment_id_regex"} {
					v, ok := n[field]
					if !ok || v == nil {
						continue
					}
					seen++
					where := fmt.Sprintf("currency %s networks[%d] (code %v): %s", code, i, n["code"], field)
					s, isString := v.(string)
					Expect(isString).To(BeTrue(), "%s is not a String but %#v", where, v)
					_, err := regexp.Compile(s)
					Expect(err).NotTo(HaveOccurred(), "%s %q is not a regular expression", where, s)
				}
			}
		}
		if seen == 0 {
			Skip("no network of the target carries address_regex or payment_id_regex")
		}
	})

	framework.ConformanceIt("V3-NETWORK-DEFAULT-ONE", func(ctx SpecContext) {
		seen := 0
		for code, cur := range currencies(ctx, pub) {
			var defaults []any
			for _, n := range networksOf(code, cur) {
				seen++
				if n["default"] == true {
					defaults = append(defaults, n["code"])
				}
			}
			Expect(len(defaults)).To(BeNumerically("<=", 1), "currency %s marks %d networks default (%v); default marks the one default network", code, len(defaults), defaults)
		}
		if seen == 0 {
			Skip("no currency of the target lists a network")
		}
	})

	framework.ConformanceIt("V3-SYMBOL-STEPS-POSITIVE", func(ctx SpecContext) {
		for code, s := range symbols(ctx, pub) {
			for _, field := range []string{"quantity_increment", "tick_size"} {
				expectPositive(s[field], fmt.Sprintf("symbol %s: %s", code, field))
			}
		}
	})

	framework.ConformanceIt("V3-FCANDLE-MINMAX", func(ctx SpecContext) {
		seen := 0
		for _, kind := range candleKinds {
			for _, ep := range endpoints {
				for contract, cs := range series(ctx, pub, kind, ep, nil) {
					for i, c := range cs {
						seen++
						expectWithin(c, "min", "max", []string{"open", "close"},
							fmt.Sprintf("%s %s endpoint, contract %s, candle %d (%v)", kind, ep, contract, i, c["timestamp"]))
					}
				}
			}
		}
		if seen == 0 {
			Skip("the target answers no futures candle")
		}
	})
})

// decimalOf parses a decimal string field, failing the spec otherwise.
func decimalOf(v any, where string) decimal.Decimal {
	GinkgoHelper()
	s, ok := v.(string)
	Expect(ok).To(BeTrue(), "%s is not a decimal string but %#v", where, v)
	d, err := decimal.NewFromString(s)
	Expect(err).NotTo(HaveOccurred(), "%s %q is not a decimal", where, s)
	return d
}

// expectPositive checks a decimal string field is greater than zero.
func expectPositive(v any, where string) {
	GinkgoHelper()
	Expect(decimalOf(v, where).IsPositive()).To(BeTrue(), "%s is %v; want greater than zero", where, v)
}

// expectWithin checks lo <= each of fields <= hi on one record.
func expectWithin(r record, lo, hi string, fields []string, where string) {
	GinkgoHelper()
	l, h := decimalOf(r[lo], where+": "+lo), decimalOf(r[hi], where+": "+hi)
	for _, f := range fields {
		v := decimalOf(r[f], where+": "+f)
		Expect(l.LessThanOrEqual(v) && v.LessThanOrEqual(h)).To(BeTrue(),
			"%s: want %s <= %s <= %s, got %s=%s %s=%s %s=%s", where, lo, f, hi, lo, l, f, v, hi, h)
	}
}
