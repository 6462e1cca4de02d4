package margin

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Beside other specs: its fills are on a symbol of its own
// (trading.FillMarkets holds it across the run's processes).
var _ = framework.AreaDescribe("Margin trade history: position_id", func() {
	framework.ConformanceIt("V3-MARGIN-TRADE-POSITION-ID", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t, cp := newTrader(target.RoleFull), newTrader(target.RoleCounterparty)
		m := marginMarkets(ctx, t, cp, 1)[0]
		_, opened := m.Trade(ctx, cp.Trader, t.Trader, "sell", 1, 0) // t buys: opens a position
		_, closed := m.Trade(ctx, cp.Trader, t.Trader, "buy", 1, 1)  // t sells back: closes it
		var seen []string
		for what, o := range map[string]order{"opening": opened, "closing": closed} {
			recs := t.trades(ctx, params{"order_id": fmt.Sprint(o["id"])})
			Expect(recs).NotTo(BeEmpty(), "the %s trade (order %v) is in the margin trade history", what, o["id"])
			v, has := recs[0]["position_id"]
			seen = append(seen, fmt.Sprintf("the %s trade: position_id present %t (%v)", what, has, v))
		}
		framework.Observe("V3-MARGIN-TRADE-POSITION-ID", "%v", seen)
	})
})
