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
// position when it triggers, or is canceled when there is none to close.
var _ = framework.AreaDescribe("Margin orders: close_position", func() {
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
		It("closes the position when it triggers", func(ctx SpecContext) {
			cp := newTrader(target.RoleCounterparty)
			m := marginMarkets(ctx, t, cp, 1)[0]
			m.open(ctx, t, cp, 2)
			t.eventuallyPosition(ctx, m.Sym, m.Qn(2), "a long position after buying")
			m.Rest(ctx, cp.Trader, m.Limit("buy", 2, -2))

			closer := params{"client_order_id": cloids.New(), "symbol": m.Sym.Code, "side": "sell", "type": "stopMarket",
				"stop_price": m.At(-1).String(), "close_position": "true"}
			o := t.PlaceOK(ctx, closer)
			Expect(o).To(HaveKeyWithValue("status", "suspended"), "a close_position stop market order is parked until its trigger\norder: %v", o)

			sold := m.Take(ctx, t.Trader, m.Limit("sell", 1, -2))
			Expect(sold["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the trader's sell at %s meets the counterparty's bid\norder: %v", m.At(-2), sold)
			t.EventuallyStatus(ctx, closer["client_order_id"], Equal("filled"), "the close_position order after a trade at "+m.At(-2).String()+" crossed its stop "+m.At(-1).String())
			t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the close_position order executed")
			cp.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the counterparty's bid absorbed the close")
		})
	})

	// "stop market order closes the position or is canceled": with its
	// position gone there is nothing to close, so the order must end
	// canceled, not sell. The account is long two quantities with a close
	// order whose stop sits 1 tick below mid. The position is closed by
	// other means, DELETE /margin/position at market into the
	// counterparty's bid of three quantities 2 ticks below mid, and that
	// very trade crosses the stop. A target may cancel the order when the
	// position closes or when it triggers and finds none; either way it
	// executes nothing, and the bid's third quantity is left for it to
	// sell into, which would open a short.
	framework.ConformanceIt("V3-MARGIN-CLOSE-POSITION-CANCELED", func(ctx SpecContext) {
		cp := newTrader(target.RoleCounterparty)
		m := marginMarkets(ctx, t, cp, 1)[0]
		m.open(ctx, t, cp, 2)
		t.eventuallyPosition(ctx, m.Sym, m.Qn(2), "a long position after buying")

		closer := params{"client_order_id": cloids.New(), "symbol": m.Sym.Code, "side": "sell", "type": "stopMarket",
			"stop_price": m.At(-1).String(), "close_position": "true"}
		o := t.PlaceOK(ctx, closer)
		Expect(o).To(HaveKeyWithValue("status", "suspended"), "a close_position stop market order is parked until its trigger\norder: %v", o)
		bid := m.Limit("buy", 3, -2)
		m.Rest(ctx, cp.Trader, bid)

		ex := t.Do(ctx, http.MethodDelete, "/margin/position/isolated/"+m.Sym.Code, nil)
		Expect(ex).To(framework.BeOK(), "closing the position at market with DELETE /margin/position/isolated/%s", m.Sym)
		t.EventuallyStatus(ctx, closer["client_order_id"], Equal("canceled"),
			"the close_position order after its position was closed and a trade at "+m.At(-2).String()+" crossed its stop "+m.At(-1).String())
		final := t.OrderOf(ctx, closer["client_order_id"])
		Expect(final["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "a canceled close_position order executed nothing\norder: %v", final)
		Expect(cp.OrderOf(ctx, bid["client_order_id"])["quantity_cumulative"]).To(trading.DecEqual(m.Qn(2)),
			"only the position's close (%s) sold into the counterparty's bid of %s", m.Qn(2), m.Qn(3))
		t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "no position after the close, none opened by the close_position order")
		cp.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the counterparty's bid absorbed the close")
	})
})
