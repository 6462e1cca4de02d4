package orderlists

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// distinctEntries repeat one client_order_id in every type of both venues,
// between the first two orders and, in three-order lists, the last two.
func distinctEntries() []TableEntry {
	var out []TableEntry
	for _, v := range []trading.Venue{trading.Spot, trading.Margin} {
		types := spotTypes
		if v == trading.Margin {
			types = marginTypes
		}
		for _, typ := range types {
			out = append(out, Entry(fmt.Sprintf("%s %s: the second order repeats the first's", v, typ), v, typ, 3, 0, 1))
			out = append(out, Entry(fmt.Sprintf("%s %s: the third order repeats the second's", v, typ), v, typ, 3, 1, 2))
		}
	}
	return out
}

var _ = framework.AreaDescribe("Order lists: client_order_id", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	// The spec gives no code for this refusal: any documented error will do,
	// but nothing may be created.
	framework.ConformanceContext("V3-LIST-CLOID-DISTINCT", framework.Checks("V3-LIST-ATOMIC"), func() {
		DescribeTable("refuses a list repeating a client_order_id, creating nothing",
			func(ctx SpecContext, v trading.Venue, typ string, n, from, to int) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, typ, n)
				l.orders[to] = l.orders[to].With("client_order_id", l.orders[from]["client_order_id"])
				t.listRefused(ctx, v, l, nil, fmt.Sprintf("orders %d and %d of the list share client_order_id %s", from+1, to+1, l.orders[from]["client_order_id"]))
			},
			distinctEntries(),
		)
	})

	// Limits, Other limits 5: client_order_id length 8 to 32, for list
	// orders too.
	framework.ConformanceContext("V3-SPOT-CLOID-LEN-OTHER", func() {
		DescribeTable("refuses a list whose order has a client_order_id outside 8 to 32 characters, creating nothing",
			func(ctx SpecContext, v trading.Venue, n int) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oco, 2)
				l.orders[1] = l.orders[1].With("client_order_id", cloids.OfLen(n))
				t.listRefused(ctx, v, l, []int{10001}, fmt.Sprintf("the second order's client_order_id has %d characters", n))
			},
			Entry(nil, trading.Spot, 7), Entry(nil, trading.Spot, 33), Entry(nil, trading.Margin, 7),
		)
	})
})
