package orderlists

import (
	"context"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// contingency_type: four values on spot, the last three on margin.
var _ = framework.AreaDescribe("Order lists: contingency_type", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-CONTINGENCY", func() {
		DescribeTable("accepts every contingency type of the venue",
			func(ctx SpecContext, v trading.Venue, typ string) {
				d := openDesk(ctx, t, v)
				n := 2
				if typ == otoco {
					n = 3
				}
				for _, o := range t.listOK(ctx, v, parkedList(ctx, t, d, typ, n)) {
					Expect(o["contingency_type"]).To(Equal(typ), "the answer's contingency_type on order %v", o["client_order_id"])
				}
			},
			Entry(nil, trading.Spot, aon), Entry(nil, trading.Spot, oco), Entry(nil, trading.Spot, oto), Entry(nil, trading.Spot, otoco),
			Entry(nil, trading.Margin, oco), Entry(nil, trading.Margin, oto), Entry(nil, trading.Margin, otoco),
		)

		DescribeTable("refuses another contingency_type with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, v trading.Venue, typ string) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				l.typ = typ
				t.listRefused(ctx, v, l, refuse10001, "contingency_type "+typ+" on "+v.Name)
			},
			Entry("spot: oneCancelsOther (not a documented value)", trading.Spot, "oneCancelsOther"),
			Entry("spot: AON (an abbreviation)", trading.Spot, "AON"),
			Entry("spot: ONECANCELOTHER (another case)", trading.Spot, "ONECANCELOTHER"),
			Entry("margin: oneCancelsOther", trading.Margin, "oneCancelsOther"),
		)

		DescribeTable("refuses a list without contingency_type with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, v trading.Venue) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				l.typ = ""
				t.listRefused(ctx, v, l, refuse10001, "a list without contingency_type (a required field)")
			},
			Entry("spot", trading.Spot), Entry("margin", trading.Margin),
		)

		// The margin allOrNone list is otherwise valid: FOK limit buys on two
		// distinct margin symbols, each with a margin account, so the
		// contingency type is the only thing wrong with it.
		It("refuses allOrNone on margin with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"), func(ctx SpecContext) {
			l := marginAONList(ctx, t)
			t.listRefused(ctx, trading.Margin, l, refuse10001, "allOrNone is not a margin contingency type")
		})
	})
})

// marginAONList opens isolated accounts on two margin symbols and returns an
// allOrNone list of FOK buys at a few ticks on them.
func marginAONList(ctx context.Context, t *trader) list {
	GinkgoHelper()
	syms := parkable(ctx, t, func(s trading.Symbol) bool { return s.Margin })
	if len(syms) < 2 {
		Skip("needs two margin symbols on which the " + t.Role + " account holds base and quote")
	}
	l := list{typ: aon}
	for _, s := range syms[:2] {
		openIsolated(ctx, t, s)
		l.orders = append(l.orders, lowBuy(s, 3).With("time_in_force", "FOK"))
	}
	return l
}
