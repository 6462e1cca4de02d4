package spot

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// stepCase is a value described relative to a step (tick_size or
// quantity_increment): base is a multiple of the step. sent is what the
// client writes (always exponent-free, as decimal.String writes it) and
// rounded what half-down rounding to the step gives.
type stepCase struct {
	sent    func(base, step decimal.Decimal) string
	rounded func(base, step decimal.Decimal) decimal.Decimal
}

func frac(step decimal.Decimal, num, den int64) decimal.Decimal {
	return step.Mul(decimal.NewFromInt(num)).Div(decimal.NewFromInt(den))
}

var (
	exactMultiple = stepCase{
		sent:    func(b, _ decimal.Decimal) string { return b.String() },
		rounded: func(b, _ decimal.Decimal) decimal.Decimal { return b },
	}
	trailingZeros = stepCase{
		sent:    func(b, _ decimal.Decimal) string { return b.StringFixed(b.Exponent()*-1 + 4) },
		rounded: func(b, _ decimal.Decimal) decimal.Decimal { return b },
	}
	moreDecimalsBelowHalf = stepCase{
		sent:    func(b, s decimal.Decimal) string { return b.Add(frac(s, 3, 10)).String() },
		rounded: func(b, _ decimal.Decimal) decimal.Decimal { return b },
	}
	exactlyHalf = stepCase{
		sent:    func(b, s decimal.Decimal) string { return b.Add(frac(s, 1, 2)).String() },
		rounded: func(b, _ decimal.Decimal) decimal.Decimal { return b },
	}
	justOverHalf = stepCase{
		sent:    func(b, s decimal.Decimal) string { return b.Add(frac(s, 501, 1000)).String() },
		rounded: func(b, s decimal.Decimal) decimal.Decimal { return b.Add(s) },
	}
	justUnderStep = stepCase{
		sent:    func(b, s decimal.Decimal) string { return b.Add(frac(s, 999, 1000)).String() },
		rounded: func(b, s decimal.Decimal) decimal.Decimal { return b.Add(s) },
	}
)

var _ = framework.AreaDescribe("Rules for orders: steps", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	// A price is tried on a buy resting at a few ticks, a quantity on a sell
	// resting far above the market, so neither trades whatever the rounding.
	priceOrder := func(c stepCase) (params, decimal.Decimal) {
		base := s.Low(7)
		return restingBuy(s, 7).With("price", c.sent(base, s.Tick)), c.rounded(base, s.Tick)
	}
	quantityOrder := func(c stepCase) (params, decimal.Decimal) {
		base := s.Qty(13)
		return restingSell(s).With("quantity", c.sent(base, s.Step)), c.rounded(base, s.Step)
	}

	framework.ConformanceContext("V3-SPOT-ROUNDING", func() {
		DescribeTable("rounds half down to the step without strict_validate",
			func(ctx SpecContext, field string, c stepCase, strict string) {
				p, want := priceOrder(c)
				if field == "quantity" {
					p, want = quantityOrder(c)
				}
				if strict != "" {
					p = p.With("strict_validate", strict)
				}
				o := t.PlaceOK(ctx, p)
				Expect(o[field]).To(trading.DecEqual(want), "%s %s rounded half down to the step (tick_size %s, quantity_increment %s)\norder: %v",
					field, p[field], s.Tick, s.Step, o)
				Expect(t.GetOK(ctx, p["client_order_id"])[field]).To(trading.DecEqual(want), "the stored %s of an order sent with %s", field, p[field])
			},
			Entry("price: an exact multiple of tick_size is kept", "price", exactMultiple, ""),
			Entry("price: an exact multiple written with trailing zeros is kept", "price", trailingZeros, ""),
			Entry("price: more decimals than the step, below half a step, rounds down", "price", moreDecimalsBelowHalf, ""),
			Entry("price: exactly half a step above a multiple rounds down (half down)", "price", exactlyHalf, ""),
			Entry("price: just over half a step above a multiple rounds up", "price", justOverHalf, ""),
			Entry("price: just under a whole step above a multiple rounds up", "price", justUnderStep, ""),
			Entry("price: exactly half a step with strict_validate false rounds down", "price", exactlyHalf, "false"),
			Entry("quantity: an exact multiple of quantity_increment is kept", "quantity", exactMultiple, ""),
			Entry("quantity: an exact multiple written with trailing zeros is kept", "quantity", trailingZeros, ""),
			Entry("quantity: more decimals than the step, below half a step, rounds down", "quantity", moreDecimalsBelowHalf, ""),
			Entry("quantity: exactly half a step above a multiple rounds down (half down)", "quantity", exactlyHalf, ""),
			Entry("quantity: just over half a step above a multiple rounds up", "quantity", justOverHalf, ""),
			Entry("quantity: just under a whole step above a multiple rounds up", "quantity", justUnderStep, ""),
			Entry("quantity: exactly half a step with strict_validate false rounds down", "quantity", exactlyHalf, "false"),
		)
	})

	framework.ConformanceContext("V3-SPOT-STRICT-VALIDATE", func() {
		DescribeTable("with strict_validate true",
			func(ctx SpecContext, field string, c stepCase, accepted bool) {
				p, want := priceOrder(c)
				if field == "quantity" {
					p, want = quantityOrder(c)
				}
				p = p.With("strict_validate", "true")
				if !accepted {
					t.PlaceRefused(ctx, p, http.StatusBadRequest, []int{10001}, field+" "+p[field]+" is not divisible by its step")
					return
				}
				o := t.PlaceOK(ctx, p)
				Expect(o[field]).To(trading.DecEqual(want), "a divisible %s is accepted unchanged\norder: %v", field, o)
			},
			Entry("refuses a price half a step above a multiple of tick_size", "price", exactlyHalf, false),
			Entry("refuses a price with more decimals than tick_size", "price", moreDecimalsBelowHalf, false),
			Entry("refuses a price just under a whole step above a multiple", "price", justUnderStep, false),
			Entry("accepts a price that is an exact multiple", "price", exactMultiple, true),
			Entry("accepts a price that is an exact multiple written with trailing zeros", "price", trailingZeros, true),
			Entry("refuses a quantity half a step above a multiple of quantity_increment", "quantity", exactlyHalf, false),
			Entry("refuses a quantity with more decimals than quantity_increment", "quantity", moreDecimalsBelowHalf, false),
			Entry("refuses a quantity just under a whole step above a multiple", "quantity", justUnderStep, false),
			Entry("accepts a quantity that is an exact multiple", "quantity", exactMultiple, true),
			Entry("accepts a quantity that is an exact multiple written with trailing zeros", "quantity", trailingZeros, true),
		)
	})
})
