package orderlists

import (
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Order history record: "Fields of Order plus ... order_list_id
// (optional), contingency_type (optional)", which the Order table gives
// for order list requests.
var _ = framework.AreaDescribe("Order lists: history records", func() {
	framework.ConformanceContext("V3-HISTORY-LIST-FIELDS", func() {
		DescribeTable("a history record of an order placed in a list carries its order_list_id and contingency_type",
			func(ctx SpecContext, v trading.Venue, typ string, n int) {
				framework.Current().RequireTrading()
				t := newTrader(target.RoleFull)
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, typ, n)
				l.id = l.orders[0]["client_order_id"]
				t.listOK(ctx, v, l)
				for _, id := range l.cloids() {
					recs := t.On(v).History(ctx, url.Values{"client_order_id": {id}})
					Expect(recs).NotTo(BeEmpty(), "%s history by client_order_id %s of an order of a %s list", v, id, typ)
					for _, r := range recs {
						Expect(r).To(HaveKeyWithValue("order_list_id", l.id), "the %s history record of %s", v, id)
						Expect(r).To(HaveKeyWithValue("contingency_type", typ), "the %s history record of %s", v, id)
					}
				}
			},
			Entry(nil, trading.Spot, oco, 2), Entry(nil, trading.Spot, otoco, 3), Entry(nil, trading.Margin, oto, 2),
		)
	})
})
