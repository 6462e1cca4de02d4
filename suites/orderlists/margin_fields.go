package orderlists

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Order lists: margin list order fields", func() {
	// "List order fields: ...; margin lists add reduce_only, close_position,
	// display_quantity." close_position needs quantity omitted and closes a
	// position (V3-MARGIN-CLOSE-POSITION); the other two are sent on parked
	// orders, with display_quantity at its only valid value.
	framework.ConformanceIt("V3-LIST-MARGIN-FIELDS", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		d := openDesk(ctx, t, trading.Margin)
		l := parkedList(ctx, t, d, oco, 2)
		for i := range l.orders {
			l.orders[i] = l.orders[i].With("display_quantity", "0", "reduce_only", "false")
		}
		os := t.listOK(ctx, trading.Margin, l)
		for _, o := range os {
			Expect(o).To(HaveKeyWithValue("display_quantity", "0"), "a margin list order sent with display_quantity \"0\" carries it\norder: %v", o)
			Expect(o).To(HaveKeyWithValue("reduce_only", false), "a margin list order sent with reduce_only false carries it\norder: %v", o)
		}
	})
})
