package spot

import (
	"net/http"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = Describe("Rules for orders: funds", func() {
	var (
		t *trader
		s spotSymbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = restingSymbol(ctx, t)
	})

	framework.ConformanceContext("V3-SPOT-FUNDS", func() {
		It("refuses a buy whose cost exceeds the available quote balance with 20001", func(ctx SpecContext) {
			avail := t.balance(ctx, s.Quote).avail
			price := s.low(10)
			// Enough quantity steps at a few ticks to cost twice the balance.
			qty := avail.Mul(decimal.NewFromInt(2)).Div(price).Div(s.Step).Ceil().Add(decimal.NewFromInt(1)).Mul(s.Step)
			p := s.restingBuy(10).with("quantity", qty.String())
			t.placeRefused(ctx, p, http.StatusBadRequest, []int{20001},
				"a buy of "+qty.String()+" at "+price.String()+" against "+avail.String()+" "+s.Quote+" available")
		})
		It("refuses a sell of more than the available base balance with 20001", func(ctx SpecContext) {
			avail := t.balance(ctx, s.Base).avail
			qty := avail.Div(s.Step).Floor().Add(decimal.NewFromInt(1)).Mul(s.Step)
			p := s.restingSell().with("quantity", qty.String())
			t.placeRefused(ctx, p, http.StatusBadRequest, []int{20001},
				"a sell of "+qty.String()+" against "+avail.String()+" "+s.Base+" available")
		})
		// Exact balances need the control plane.
		It("counts fees: a balance of exactly price x quantity cannot cover a buy, one covering the fee can", Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
			if !s.maxRate().IsPositive() {
				Skip("the symbol " + s.Code + " charges no positive fee, so a balance without fees is not short")
			}
			p := s.restingBuy(10).with("quantity", s.qty(1000).String())
			cost := s.low(10).Mul(s.qty(1000))
			setAvailable(ctx, t, s.Quote, cost)
			t.placeRefused(ctx, p, http.StatusBadRequest, []int{20001},
				"a buy costing "+cost.String()+" "+s.Quote+" before fees, with exactly that available")
			// Twice the larger rate leaves no doubt that the fee is covered.
			setAvailable(ctx, t, s.Quote, cost.Mul(decimal.NewFromInt(1).Add(s.maxRate().Mul(decimal.NewFromInt(2)))))
			t.placeOK(ctx, p.with("client_order_id", newCloid()))
		})
	})

	framework.ConformanceContext("V3-SPOT-RESERVE", func() {
		DescribeTable("moves an active order's funds from available to reserved and back on cancel",
			func(ctx SpecContext, side string) {
				p, cur, least := s.restingBuy(10), s.Quote, s.low(10).Mul(s.qty(10))
				if side == "sell" {
					p, cur, least = s.restingSell(), s.Base, s.qty(10)
				}
				before := t.balance(ctx, cur)
				t.placeOK(ctx, p)
				during := t.balance(ctx, cur)
				moved := during.reserved.Sub(before.reserved)
				Expect(moved.GreaterThanOrEqual(least)).To(BeTrue(), "%s reserved grows by at least the order's funds %s, grew by %s (before %v, during %v)", cur, least, moved, before, during)
				Expect(before.avail.Sub(during.avail)).To(decEqual(moved), "available %s falls by what is reserved (before %v, during %v)", cur, before, during)
				t.cancelOK(ctx, p["client_order_id"])
				after := t.balance(ctx, cur)
				Expect(after.avail).To(decEqual(before.avail), "available %s is back after the cancel", cur)
				Expect(after.reserved).To(decEqual(before.reserved), "reserved %s is back after the cancel", cur)
			},
			Entry("a buy reserves quote", "buy"),
			Entry("a sell reserves base", "sell"),
		)
		// Expiry needs the emulator clock: Serial, since moving it affects
		// every process's orders.
		It("returns the funds of a GTD order when it expires", Serial, Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
			framework.Current().RequireEmulator()
			before := t.balance(ctx, s.Quote)
			exp := emulatorNow(ctx).Add(time.Hour)
			p := s.restingBuy(10).with("time_in_force", "GTD", "expire_time", exp.Format(time.RFC3339Nano))
			t.placeOK(ctx, p)
			Expect(t.balance(ctx, s.Quote).reserved.GreaterThan(before.reserved)).To(BeTrue(), "the GTD order reserves %s", s.Quote)
			advance(ctx, 2*time.Hour)
			t.eventuallyStatus(ctx, p["client_order_id"], "expired", "a GTD order two hours after a one-hour expire_time")
			after := t.balance(ctx, s.Quote)
			Expect(after.avail).To(decEqual(before.avail), "available %s is back after the expiry", s.Quote)
			Expect(after.reserved).To(decEqual(before.reserved), "reserved %s is back after the expiry", s.Quote)
		})
	})

	// The market buy rule needs a price to execute at (a resting sell of the
	// counterparty) and exact balances: Serial and emulator-only.
	framework.ConformanceIt("V3-SPOT-MARKET-BUY-FUNDS", Serial, Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
		framework.Current().RequireEmulator()
		cp := newTrader(target.RoleCounterparty)
		m := fillMarket(ctx, cp, t, 2, nil)
		// A first trade at mid makes mid the last price too, so "price" in
		// the rule means the same under every reading.
		m.trade(ctx, cp, t, "sell", 1, 0)
		cp.placeOK(ctx, m.limit("sell", 1, 0))
		threshold := m.mid.Mul(m.q).Mul(decimal.NewFromInt(1).Add(m.sym.maxRate()))
		mkt := params{"symbol": m.sym.Code, "side": "buy", "type": "market", "quantity": m.q.String()}

		setAvailable(ctx, t, m.sym.Quote, threshold)
		ex := t.place(ctx, mkt.with("client_order_id", newCloid()))
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 20001),
			"a market buy of %s at %s with exactly price x quantity x (1 + max(take_rate %s, make_rate %s)) = %s %s available: it must exceed that",
			m.q, m.mid, m.sym.TakeRate, m.sym.MakeRate, threshold, m.sym.Quote)

		setAvailable(ctx, t, m.sym.Quote, threshold.Add(threshold.Div(decimal.NewFromInt(1000))))
		o := t.placeOK(ctx, mkt.with("client_order_id", newCloid()))
		Expect(o["status"]).To(Equal("filled"), "a market buy with a little more than %s %s available fills against the resting sell\norder: %v", threshold, m.sym.Quote, o)
	})
})
