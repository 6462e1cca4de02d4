package errors

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var cloids = trading.Cloids("err")

var _ = framework.AreaDescribe("Errors: the success status", func() {
	framework.ConformanceIt("V3-ERR-200", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := trading.NewTrader(target.RoleFull, trading.Spot)
		p := trading.WorkingSymbols(ctx)[0].RestingBuy(cloids.New(), 3)
		ex := t.Place(ctx, p)
		Expect(ex.Status).To(Equal(http.StatusOK), "POST /spot/order that creates an order is answered 200 (success), not another 2xx\nexchange: %s", ex)
		ex = t.Cancel(ctx, p["client_order_id"])
		Expect(ex.Status).To(Equal(http.StatusOK), "DELETE /spot/order/{client_order_id} of the order is answered 200\nexchange: %s", ex)
	})
})
