package orderlists

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// List orders default to limit, and price, stop_price and expire_time are
// required as for a single order.
var _ = framework.AreaDescribe("Order lists: list orders", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-ORDER-RULES", func() {
		DescribeTable("creates a list order sent without type as a limit order",
			func(ctx SpecContext, v trading.Venue, typ string) {
				d := openDesk(ctx, t, v)
				n := 2
				if typ == otoco {
					n = 3
				}
				l := parkedList(ctx, t, d, typ, n)
				l.orders[0] = l.orders[0].Without("type")
				os := t.listOK(ctx, v, l)
				Expect(trading.FindOrder(os, l.orders[0]["client_order_id"])).To(HaveKeyWithValue("type", "limit"), "an order sent with a price and no type\norders: %v", os)
			},
			Entry(nil, trading.Spot, aon), Entry(nil, trading.Spot, oco), Entry(nil, trading.Spot, oto), Entry(nil, trading.Spot, otoco),
			Entry(nil, trading.Margin, oco), Entry(nil, trading.Margin, oto), Entry(nil, trading.Margin, otoco),
		)

		// Each refused list is a parked oneTriggerOther list (whose orders
		// may be of any type) changed in one order.
		DescribeTable("refuses a list order lacking a field its type requires with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, v trading.Venue, at int, typ, drop string) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, oto, 2)
				o := l.orders[at]
				switch typ {
				case "":
					o = o.Without("type")
				case "limit":
				case "GTD":
					o = o.With("time_in_force", "GTD")
				default:
					o = parked(d.s, typ)
				}
				l.orders[at] = o.Without(drop)
				t.listRefused(ctx, v, l, refuse10001, fmt.Sprintf("order %d of the list (%s) has no %s", at+1, l.orders[at], drop))
			},
			func(v trading.Venue, at int, typ, drop string) string {
				kind := typ
				switch typ {
				case "":
					kind = "an order without type (limit by default)"
				case "GTD":
					kind = "a GTD limit order"
				}
				return fmt.Sprintf("%s: %s without %s (order %d)", v, kind, drop, at+1)
			},
			requiredEntries(),
		)
	})
})

func requiredEntries() []TableEntry {
	cases := []struct {
		at        int
		typ, drop string
	}{
		{0, "limit", "price"},
		{1, "limit", "price"},
		{1, "", "price"},
		{1, "stopLimit", "price"},
		{1, "takeProfitLimit", "price"},
		{1, "stopLimit", "stop_price"},
		{1, "stopMarket", "stop_price"},
		{1, "takeProfitLimit", "stop_price"},
		{1, "takeProfitMarket", "stop_price"},
		{1, "GTD", "expire_time"},
	}
	var out []TableEntry
	for _, v := range []trading.Venue{trading.Spot, trading.Margin} {
		for _, c := range cases {
			out = append(out, Entry(nil, v, c.at, c.typ, c.drop))
		}
	}
	return out
}
