package orderlists

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// expectListAnswer checks a list answer on venue v: an array of orders, one
// per order sent, each of the Order table as v's orders carry it (margin
// orders with reduce_only and margin_mode) with the table's enumerated
// values, carrying the list's
// order_list_id (when it was sent) and contingency_type, and none trades.
func expectListAnswer(v trading.Venue, os []order, l list) {
	GinkgoHelper()
	Expect(os).To(HaveLen(len(l.orders)), "one order per order sent\nanswer: %v", os)
	for _, id := range l.cloids() {
		Expect(trading.FindOrder(os, id)).NotTo(BeNil(), "order %s sent in the list is in the answer; answered %v", id, trading.CloidsOf(os))
	}
	for _, o := range os {
		Expect(o).To(framework.MatchSchema(trading.OrderSchemaOf(v)), "an order of the %s list answer", v)
		// The Order table enumerates side, status, type and time_in_force, and
		// margin_mode (isolated or cross) on margin orders.
		Expect(o).To(trading.HaveDocumentedEnums(), "an order of the %s list answer takes the Order table's values", v)
		if v == trading.Margin {
			Expect(o).To(HaveKeyWithValue("margin_mode", BeElementOf("isolated", "cross")), "a margin order of the list answer: margin_mode is isolated or cross (Order table)")
		}
		if l.id != "" {
			Expect(o).To(HaveKeyWithValue("order_list_id", l.id), "order %v of the list answer carries the list's order_list_id", o["client_order_id"])
		} else {
			Expect(o).To(HaveKeyWithValue("order_list_id", Not(BeEmpty())), "order %v of the list answer carries an order_list_id", o["client_order_id"])
		}
		Expect(o).To(HaveKeyWithValue("contingency_type", l.typ), "order %v of the list answer carries the contingency_type", o["client_order_id"])
		Expect(o).NotTo(HaveKey("trades"), "trades are never returned for an order list request (Order table)\norder: %v", o)
	}
}

var _ = framework.AreaDescribe("Order lists: the answer", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-RESPONSE", func() {
		DescribeTable("answers an array of orders with order_list_id and contingency_type and no trades",
			func(ctx SpecContext, v trading.Venue, typ string, n int) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, typ, n)
				l.id = l.orders[0]["client_order_id"]
				expectListAnswer(v, t.listOK(ctx, v, l), l)
			},
			Entry(nil, trading.Spot, aon, 2), Entry(nil, trading.Spot, aon, 3),
			Entry(nil, trading.Spot, oco, 2), Entry(nil, trading.Spot, oco, 3),
			Entry(nil, trading.Spot, oto, 2), Entry(nil, trading.Spot, oto, 3),
			Entry(nil, trading.Spot, otoco, 3),
			Entry(nil, trading.Margin, oco, 2), Entry(nil, trading.Margin, oto, 3), Entry(nil, trading.Margin, otoco, 3),
		)
		It("answers a list sent without order_list_id with orders carrying one", func(ctx SpecContext) {
			d := openDesk(ctx, t, trading.Spot)
			l := parkedList(ctx, t, d, oto, 2)
			expectListAnswer(trading.Spot, t.listOK(ctx, trading.Spot, l), l)
		})
	})
})
