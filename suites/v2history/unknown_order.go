package v2history

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

var _ = framework.AreaDescribe("v2 history: the trades of an unknown order", func() {
	framework.ConformanceIt("V2-HISTORY-ORDER-TRADES-UNKNOWN", func(ctx SpecContext) {
		ex, _ := framework.Current().V2Signed(target.RoleFull).Get(ctx, "/history/order/987654321987/trades", nil)
		framework.Observe("V2-HISTORY-ORDER-TRADES-UNKNOWN", "GET /history/order/<unknown>/trades was answered %s %.60s", trading.Outcome(ex), ex.Body)
	})
})
