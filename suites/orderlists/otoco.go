package orderlists

import (
	"context"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// notInactive matches an order that is not marked inactive (the field
// absent, or false).
func notInactive() OmegaMatcher {
	return Or(Not(HaveKey("inactive")), HaveKeyWithValue("inactive", false))
}

var _ = framework.AreaDescribe("Order lists: oneTriggerOneCancelOther", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-OTOCO", func() {
		DescribeTable("creates the secondaries with inactive true",
			func(ctx SpecContext, v trading.Venue) {
				d := openDesk(ctx, t, v)
				l := parkedList(ctx, t, d, otoco, 3)
				os := t.listOK(ctx, v, l)
				Expect(trading.FindOrder(os, l.orders[0]["client_order_id"])).To(notInactive(), "the primary order is not inactive\norders: %v", os)
				for _, p := range l.orders[1:] {
					Expect(trading.FindOrder(os, p["client_order_id"])).To(HaveKeyWithValue("inactive", true), "a secondary order at creation\norders: %v", os)
				}
			},
			Entry("spot", trading.Spot), Entry("margin", trading.Margin),
		)

		// The secondaries are a limit sell above mid and a stop-limit sell
		// below it; the primary buy executes at mid, then the counterparty
		// buys the limit sell. Serial: fills.
		DescribeTable("activates the secondaries as a oneCancelOther pair when the primary executes",
			func(ctx SpecContext, primaryType string) {
				cp := newTrader(target.RoleCounterparty)
				m := fillMarkets(ctx, cp, t, 1, 4)[0]
				primary := m.Limit("buy", 1, 0)
				if primaryType == "market" {
					m.rest(ctx, cp, "sell", 1, 0)
					primary = primary.With("type", "market").Without("price")
				}
				limitSell := m.Limit("sell", 1, 2)
				stopSell := m.Limit("sell", 1, -3).With("type", "stopLimit", "stop_price", m.At(-2).String())
				l := list{typ: otoco, orders: []params{primary, limitSell, stopSell}}
				os := t.listOK(ctx, trading.Spot, l)
				for _, o := range os {
					Expect(o).NotTo(HaveKey("trades"), "trades are never returned for an order list request\norder: %v", o)
				}
				if primaryType == "limit" {
					Expect(trading.FindOrder(os, primary["client_order_id"])).To(HaveKeyWithValue("status", "new"), "the primary buy rests at %s\norders: %v", m.Mid, os)
					Expect(m.probeIOC(ctx, cp, "buy", 1, 2)).To(trading.DecEqual(decimal.Zero), "an IOC buy at %s meets no secondary while the primary has not executed", m.At(2))
					seller := m.Take(ctx, cp.On(trading.Spot), m.Limit("sell", 1, 0))
					Expect(seller["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's sell at %s meets the primary\norder: %v", m.Mid, seller)
				}
				t.On(trading.Spot).EventuallyStatus(ctx, primary["client_order_id"], Equal("filled"), "the "+primaryType+" primary against the counterparty's sell")

				for _, p := range []params{limitSell, stopSell} {
					Eventually(ctx, func(ctx context.Context) order { return t.On(trading.Spot).OrderOf(ctx, p["client_order_id"]) }).
						WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
						Should(And(HaveKeyWithValue("status", BeElementOf("new", "suspended")), notInactive()),
							"the %s secondary once the primary executed: active (new or suspended) and no longer inactive", p["type"])
					Expect(t.On(trading.Spot).IsActive(ctx, p["client_order_id"])).To(BeTrue(), "an activated secondary is an active order")
				}

				taker := m.Take(ctx, cp.On(trading.Spot), m.Limit("buy", 1, 2))
				Expect(taker["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's buy at %s meets the limit secondary\norder: %v", m.At(2), taker)
				t.On(trading.Spot).EventuallyStatus(ctx, limitSell["client_order_id"], Equal("filled"), "the limit secondary")
				t.On(trading.Spot).EventuallyStatus(ctx, stopSell["client_order_id"], Equal("canceled"), "the stop-limit secondary once its oneCancelOther partner executed")
				Expect(t.On(trading.Spot).IsActive(ctx, stopSell["client_order_id"])).To(BeFalse(), "the canceled secondary is not active")
			},
			Entry("a limit primary", "limit"),
			Entry("a market primary", framework.Checks("V3-LIST-OTOCO-CONSTRAINTS", "V3-LIST-RESPONSE"), "market"),
		)
	})
})
