package margin

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Spot and margin orders of one account on one symbol: each venue's list
// and cancel-all reach its own orders only. The cancel-all names the
// symbol first, then none (every symbol of the account: Serial).
var _ = framework.AreaDescribe("Spot and margin orders apart", func() {
	var (
		t                *trader
		spot             *trading.Trader
		s                trading.Symbol
		spotID, marginID string
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		spot = t.On(trading.Spot)
		s = fundable(ctx, t, 1)[0]
		t.openIsolated(ctx, s)
		mp, sp := restingBuy(s, 3), restingBuy(s, 3)
		marginID, spotID = mp["client_order_id"], sp["client_order_id"]
		t.PlaceOK(ctx, mp)
		spot.PlaceOK(ctx, sp)
	})

	// Beside other specs: DELETE .../order reaches no other process's
	// orders, since processes that may place orders never share an account
	// (target.Config.ForProcess).
	framework.ConformanceIt("V3-MARGIN-SPOT-SEPARATE", func(ctx SpecContext) {
		listed := t.Active(ctx, "")
		Expect(trading.FindOrder(listed, marginID)).NotTo(BeNil(), "GET /margin/order lists the margin order %s; listed %v", marginID, trading.CloidsOf(listed))
		Expect(trading.FindOrder(listed, spotID)).To(BeNil(), "GET /margin/order lists the spot order %s; listed %v", spotID, trading.CloidsOf(listed))
		ex := t.Do(ctx, http.MethodDelete, "/margin/order", params{"symbol": s.Code})
		Expect(ex).To(framework.BeOK(), "DELETE /margin/order?symbol=%s", s)
		got := trading.Objects(ex)
		Expect(trading.FindOrder(got, spotID)).To(BeNil(), "DELETE /margin/order?symbol=%s answers the spot order %s as canceled; answered %v", s, spotID, trading.CloidsOf(got))
		Expect(spot.IsActive(ctx, spotID)).To(BeTrue(), "the spot order %s stays active after DELETE /margin/order?symbol=%s", spotID, s)
		Expect(t.Do(ctx, http.MethodDelete, "/margin/order", nil)).To(framework.BeOK(), "DELETE /margin/order")
		Expect(spot.IsActive(ctx, spotID)).To(BeTrue(), "the spot order %s stays active after DELETE /margin/order (every symbol)", spotID)
	})

	framework.ConformanceIt("V3-MARGIN-HISTORY-SEPARATE", func(ctx SpecContext) {
		t.CancelOK(ctx, marginID)
		spot.CancelOK(ctx, spotID)
		Expect(t.History(ctx, params{"client_order_id": marginID}.Form())).NotTo(BeEmpty(), "GET /margin/history/order?client_order_id=%s finds the margin order", marginID)
		Expect(spot.History(ctx, params{"client_order_id": spotID}.Form())).NotTo(BeEmpty(), "GET /spot/history/order?client_order_id=%s finds the spot order", spotID)
		Expect(t.History(ctx, params{"client_order_id": spotID}.Form())).To(BeEmpty(), "GET /margin/history/order?client_order_id=%s (a spot order's) answers no record", spotID)
		Expect(spot.History(ctx, params{"client_order_id": marginID}.Form())).To(BeEmpty(), "GET /spot/history/order?client_order_id=%s (a margin order's) answers no record", marginID)
	})

	framework.ConformanceIt("V3-SPOT-MARGIN-SEPARATE", func(ctx SpecContext) {
		listed := spot.Active(ctx, "")
		Expect(trading.FindOrder(listed, spotID)).NotTo(BeNil(), "GET /spot/order lists the spot order %s; listed %v", spotID, trading.CloidsOf(listed))
		Expect(trading.FindOrder(listed, marginID)).To(BeNil(), "GET /spot/order lists the margin order %s; listed %v", marginID, trading.CloidsOf(listed))
		ex := spot.Do(ctx, http.MethodDelete, "/spot/order", params{"symbol": s.Code})
		Expect(ex).To(framework.BeOK(), "DELETE /spot/order?symbol=%s", s)
		got := trading.Objects(ex)
		Expect(trading.FindOrder(got, marginID)).To(BeNil(), "DELETE /spot/order?symbol=%s answers the margin order %s as canceled; answered %v", s, marginID, trading.CloidsOf(got))
		Expect(t.IsActive(ctx, marginID)).To(BeTrue(), "the margin order %s stays active after DELETE /spot/order?symbol=%s", marginID, s)
		Expect(spot.Do(ctx, http.MethodDelete, "/spot/order", nil)).To(framework.BeOK(), "DELETE /spot/order")
		Expect(t.IsActive(ctx, marginID)).To(BeTrue(), "the margin order %s stays active after DELETE /spot/order (every symbol)", marginID)
	})
})
