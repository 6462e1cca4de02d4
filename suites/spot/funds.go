package spot

import (
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = Describe("Rules for orders: funds", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = restingSymbol(ctx, t)
	})

	framework.ConformanceContext("V3-SPOT-FUNDS", func() {
		It("refuses a buy whose cost exceeds the available quote balance with 20001", func(ctx SpecContext) {
			avail := t.Balance(ctx, s.Quote).Avail
			price := s.Low(10)
			// Enough quantity steps at a few ticks to cost twice the balance.
			qty := avail.Mul(decimal.NewFromInt(2)).Div(price).Div(s.Step).Ceil().Add(decimal.NewFromInt(1)).Mul(s.Step)
			p := restingBuy(s, 10).With("quantity", qty.String())
			t.PlaceRefused(ctx, p, framework.StatusClass4xx, []int{20001},
				"a buy of "+qty.String()+" at "+price.String()+" against "+avail.String()+" "+s.Quote+" available")
		})
		It("refuses a sell of more than the available base balance with 20001", func(ctx SpecContext) {
			avail := t.Balance(ctx, s.Base).Avail
			qty := avail.Div(s.Step).Floor().Add(decimal.NewFromInt(1)).Mul(s.Step)
			p := restingSell(s).With("quantity", qty.String())
			t.PlaceRefused(ctx, p, framework.StatusClass4xx, []int{20001},
				"a sell of "+qty.String()+" against "+avail.String()+" "+s.Base+" available")
		})
		// Exact balances need the control plane.
		It("counts fees: a balance of exactly price x quantity cannot cover a buy, one covering the fee can", Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
			if !s.MaxRate().IsPositive() {
				Skip("the symbol " + s.Code + " charges no positive fee, so a balance without fees is not short")
			}
			p := restingBuy(s, 10).With("quantity", s.Qty(1000).String())
			cost := s.Low(10).Mul(s.Qty(1000))
			setAvailable(ctx, t, s.Quote, cost)
			t.PlaceRefused(ctx, p, framework.StatusClass4xx, []int{20001},
				"a buy costing "+cost.String()+" "+s.Quote+" before fees, with exactly that available")
			// Twice the larger rate leaves no doubt that the fee is covered.
			setAvailable(ctx, t, s.Quote, cost.Mul(decimal.NewFromInt(1).Add(s.MaxRate().Mul(decimal.NewFromInt(2)))))
			t.PlaceOK(ctx, p.With("client_order_id", cloids.New()))
		})
	})

	framework.ConformanceContext("V3-SPOT-RESERVE", func() {
		DescribeTable("moves an active order's funds from available to reserved and back on cancel",
			func(ctx SpecContext, side string) {
				p, cur, least := restingBuy(s, 10), s.Quote, s.Low(10).Mul(s.Qty(10))
				if side == "sell" {
					p, cur, least = restingSell(s), s.Base, s.Qty(10)
				}
				before := t.Balance(ctx, cur)
				t.PlaceOK(ctx, p)
				during := t.Balance(ctx, cur)
				moved := during.Reserved.Sub(before.Reserved)
				Expect(moved.GreaterThanOrEqual(least)).To(BeTrue(), "%s reserved grows by at least the order's funds %s, grew by %s (before %v, during %v)", cur, least, moved, before, during)
				Expect(before.Avail.Sub(during.Avail)).To(trading.DecEqual(moved), "available %s falls by what is reserved (before %v, during %v)", cur, before, during)
				t.CancelOK(ctx, p["client_order_id"])
				after := t.Balance(ctx, cur)
				Expect(after.Avail).To(trading.DecEqual(before.Avail), "available %s is back after the cancel", cur)
				Expect(after.Reserved).To(trading.DecEqual(before.Reserved), "reserved %s is back after the cancel", cur)
			},
			Entry("a buy reserves quote", "buy"),
			Entry("a sell reserves base", "sell"),
		)
		// Expiry needs the emulator clock: Serial, since moving it affects
		// every process's orders.
		It("returns the funds of a GTD order when it expires", Serial, Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
			framework.Current().RequireEmulator()
			before := t.Balance(ctx, s.Quote)
			exp := trading.EmulatorNow(ctx).Add(time.Hour)
			p := restingBuy(s, 10).With("time_in_force", "GTD", "expire_time", exp.Format(time.RFC3339Nano))
			t.PlaceOK(ctx, p)
			Expect(t.Balance(ctx, s.Quote).Reserved.GreaterThan(before.Reserved)).To(BeTrue(), "the GTD order reserves %s", s.Quote)
			advance(ctx, 2*time.Hour)
			t.EventuallyStatus(ctx, p["client_order_id"], "expired", "a GTD order two hours after a one-hour expire_time")
			after := t.Balance(ctx, s.Quote)
			Expect(after.Avail).To(trading.DecEqual(before.Avail), "available %s is back after the expiry", s.Quote)
			Expect(after.Reserved).To(trading.DecEqual(before.Reserved), "reserved %s is back after the expiry", s.Quote)
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
		m.Trade(ctx, cp, t, "sell", 1, 0)
		m.Rest(ctx, cp, m.Limit("sell", 1, 0))
		threshold := m.Mid.Mul(m.Q).Mul(decimal.NewFromInt(1).Add(m.Sym.MaxRate()))
		mkt := params{"symbol": m.Sym.Code, "side": "buy", "type": "market", "quantity": m.Q.String()}

		setAvailable(ctx, t, m.Sym.Quote, threshold)
		ex := t.Place(ctx, mkt.With("client_order_id", cloids.New()))
		Expect(ex).To(framework.BeAPIError(framework.StatusClass4xx, 20001),
			"a market buy of %s at %s with exactly price x quantity x (1 + max(take_rate %s, make_rate %s)) = %s %s available: it must exceed that",
			m.Q, m.Mid, m.Sym.TakeRate, m.Sym.MakeRate, threshold, m.Sym.Quote)

		setAvailable(ctx, t, m.Sym.Quote, threshold.Add(threshold.Div(decimal.NewFromInt(1000))))
		o := t.PlaceOK(ctx, mkt.With("client_order_id", cloids.New()))
		Expect(o["status"]).To(Equal("filled"), "a market buy with a little more than %s %s available fills against the resting sell\norder: %v", threshold, m.Sym.Quote, o)
	})
})
