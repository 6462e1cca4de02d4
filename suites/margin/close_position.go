package margin

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// close_position: a stop market order without quantity that closes the
// position when it triggers.
var _ = Describe("Margin orders: close_position", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-MARGIN-CLOSE-POSITION", func() {
		It("refuses close_position with a quantity with 10001", func(ctx SpecContext) {
			s := fundable(ctx, t, 1)[0]
			t.openIsolated(ctx, s)
			p := params{"client_order_id": cloids.New(), "symbol": s.Code, "side": "sell", "type": "stopMarket",
				"stop_price": s.Low(5).String(), "close_position": "true", "quantity": s.Qty(10).String()}
			ex := t.Place(ctx, p)
			Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "close_position requires quantity to be omitted\nrequest: %s", p)
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a refused margin order is not active")
		})

		// The account is long two quantities. The close order's stop sits 1
		// tick below mid; the trader's own sell of one quantity at 2 ticks
		// below triggers it, and it sells the remaining one into the
		// counterparty's bid: the position is closed, whatever its size was
		// when the order was placed.
		It("closes the position when it triggers", Serial, func(ctx SpecContext) {
			cp := newTrader(target.RoleCounterparty)
			m := marginMarkets(ctx, t, cp, 1)[0]
			m.open(ctx, t, cp, 2)
			t.eventuallyPosition(ctx, m.Sym, m.Qn(2), "a long position after buying")
			cp.PlaceOK(ctx, m.Limit("buy", 2, -2))

			closer := params{"client_order_id": cloids.New(), "symbol": m.Sym.Code, "side": "sell", "type": "stopMarket",
				"stop_price": m.At(-1).String(), "close_position": "true"}
			o := t.PlaceOK(ctx, closer)
			Expect(o).To(HaveKeyWithValue("status", "suspended"), "a close_position stop market order is parked until its trigger\norder: %v", o)

			sold := t.PlaceOK(ctx, m.Limit("sell", 1, -2))
			Expect(sold["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the trader's sell at %s meets the counterparty's bid\norder: %v", m.At(-2), sold)
			t.EventuallyStatus(ctx, closer["client_order_id"], Equal("filled"), "the close_position order after a trade at "+m.At(-2).String()+" crossed its stop "+m.At(-1).String())
			t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the close_position order executed")
			cp.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the counterparty's bid absorbed the close")
		})
	})
})
