package orderlists

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// order_list_id: generated when omitted, and when given equal to the first
// order's client_order_id. Each case runs on spot and on margin, on a parked
// oneCancelOther pair.
var _ = framework.AreaDescribe("Order lists: order_list_id", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-ID", func() {
		DescribeTable("generates order_list_id when it is omitted",
			func(ctx SpecContext, v trading.Venue) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				os := t.listOK(ctx, v, l)
				id, ok := os[0]["order_list_id"].(string)
				Expect(ok && id != "").To(BeTrue(), "a list sent without order_list_id gets one generated\norders: %v", os)
				for _, o := range os {
					Expect(o["order_list_id"]).To(Equal(id), "every order of the list carries the same generated order_list_id\norders: %v", os)
				}
			},
			Entry("spot", trading.Spot), Entry("margin", trading.Margin),
		)
		DescribeTable("accepts order_list_id equal to the first order's client_order_id",
			func(ctx SpecContext, v trading.Venue) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				l.id = l.orders[0]["client_order_id"]
				for _, o := range t.listOK(ctx, v, l) {
					Expect(o["order_list_id"]).To(Equal(l.id), "the order_list_id sent, on order %v", o["client_order_id"])
				}
			},
			Entry("spot", trading.Spot), Entry("margin", trading.Margin),
		)
		DescribeTable("refuses any other order_list_id with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, v trading.Venue, other func(l list) string) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				l.id = other(l)
				t.listRefused(ctx, v, l, refuse10001, "order_list_id "+l.id+" is not the first order's client_order_id "+l.orders[0]["client_order_id"])
			},
			Entry("spot: the second order's client_order_id", trading.Spot, func(l list) string { return l.orders[1]["client_order_id"] }),
			Entry("spot: an identifier of no order", trading.Spot, func(list) string { return cloids.New() }),
			Entry("margin: the second order's client_order_id", trading.Margin, func(l list) string { return l.orders[1]["client_order_id"] }),
			Entry("margin: an identifier of no order", trading.Margin, func(list) string { return cloids.New() }),
		)
	})
})
