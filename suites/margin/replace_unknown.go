package margin

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

var _ = framework.AreaDescribe("Margin: replace of an unknown order", func() {
	framework.ConformanceIt("V3-MARGIN-REPLACE-UNKNOWN", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		newID := cloids.New()
		ex := t.ReplaceUnknown(ctx, cloids.New(), newID)
		trading.ExpectRefusal(ex, "a replace of an unknown margin client_order_id")
		trading.ExpectRefusal(t.Get(ctx, newID), "the new_client_order_id of a refused replace names no margin order")
	})
})
