package margin

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Margin order history: the order without sort", func() {
	framework.ConformanceIt("V3-MARGIN-HISTORY-SORT-DEFAULT", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := fundable(ctx, t, 1)[0]
		t.openIsolated(ctx, s)
		var ids []string
		for range 2 {
			p := restingBuy(s, 3)
			t.PlaceOK(ctx, p)
			t.CancelOK(ctx, p["client_order_id"])
			ids = append(ids, p["client_order_id"])
		}
		recs := t.History(ctx, params{"symbol": s.Code, "limit": "1000"}.Form())
		var order []string
		for _, r := range recs {
			if id, _ := r["client_order_id"].(string); id == ids[0] || id == ids[1] {
				order = append(order, id)
			}
		}
		Expect(order).To(HaveLen(2), "GET /margin/history/order lists both orders just canceled: %v", trading.CloidsOf(recs))
		how := "newest first (DESC, as the spot history's default)"
		if order[0] == ids[0] {
			how = "oldest first (ASC)"
		}
		framework.Observe("V3-MARGIN-HISTORY-SORT-DEFAULT", "without sort, GET /margin/history/order listed two orders %s", how)
	})
})
