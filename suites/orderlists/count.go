package orderlists

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// countAllowed is the Limits and order list tables: 2 or 3 orders, exactly 3
// for oneTriggerOneCancelOther.
func countAllowed(typ string, n int) bool {
	if typ == otoco {
		return n == 3
	}
	return n == 2 || n == 3
}

// countEntries crosses 0 to 4 orders with every contingency type of both
// venues.
func countEntries() []TableEntry {
	var out []TableEntry
	for _, v := range []trading.Venue{trading.Spot, trading.Margin} {
		types := spotTypes
		if v == trading.Margin {
			types = marginTypes
		}
		for _, typ := range types {
			for n := 0; n <= 4; n++ {
				desc := fmt.Sprintf("%s %s with %d orders is accepted", v, typ, n)
				if !countAllowed(typ, n) {
					// The list is otherwise valid, so a target checking the
					// count late would have created orders.
					desc = fmt.Sprintf("%s %s with %d orders is refused, creating nothing", v, typ, n)
					out = append(out, Entry(desc, framework.Checks("V3-LIST-ATOMIC"), v, typ, n))
					continue
				}
				out = append(out, Entry(desc, v, typ, n))
			}
		}
	}
	return out
}

var _ = framework.AreaDescribe("Order lists: size", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-COUNT", func() {
		DescribeTable("accepts 2 or 3 orders (exactly 3 for oneTriggerOneCancelOther) and refuses any other count with 10001",
			func(ctx SpecContext, v trading.Venue, typ string, n int) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, typ, n)
				if countAllowed(typ, n) {
					t.listOK(ctx, v, l)
					return
				}
				t.listRefused(ctx, v, l, refuse10001, fmt.Sprintf("a %s list of %d orders", typ, n))
			},
			countEntries(),
		)
	})
})
