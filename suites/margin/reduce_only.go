package margin

import (
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The spec lists reduce_only without saying what becomes of a reduce-only
// order that would increase the position: the spec records what the target
// does with a reduce-only buy on an account without a position.
var _ = framework.AreaDescribe("Margin orders: reduce_only", func() {
	framework.ConformanceIt("V3-MARGIN-REDUCE-ONLY", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := fundable(ctx, t, 1)[0]
		t.openIsolated(ctx, s)
		Expect(t.positionQty(ctx, s).IsZero()).To(BeTrue(), "the spec starts without a position on %s", s)
		p := restingBuy(s, 3).With("reduce_only", "true")
		ex := t.Place(ctx, p)
		if ex.Status != http.StatusOK {
			trading.ExpectRefusal(ex, "a refused reduce-only order")
			framework.Observe("V3-MARGIN-REDUCE-ONLY", "a reduce-only buy without a position (it would open one) is refused: %s", trading.Outcome(ex))
			return
		}
		o := framework.ObjectOf(ex)
		Expect(o).To(HaveKeyWithValue("reduce_only", true), "an accepted order sent reduce_only carries it")
		now := t.OrderOf(ctx, p["client_order_id"])
		framework.Observe("V3-MARGIN-REDUCE-ONLY", "a reduce-only buy without a position (it would open one) is accepted with status %v; read back: status %v, active %v",
			o["status"], now["status"], fmt.Sprint(t.IsActive(ctx, p["client_order_id"])))
	})
})
