package spot

import (
	"fmt"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = framework.AreaDescribe("Rules for orders: funds", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

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
		// On the emulator the control plane sets the balance to exactly
		// price x quantity, then to what covers twice the larger rate;
		// elsewhere the balance is moved into windows around those (see
		// availableIn): at least price x quantity but short of any positive
		// fee, then past twice the larger rate.
		It("counts fees: a balance of exactly price x quantity cannot cover a buy, one covering the fee can", func(ctx SpecContext) {
			s := s
			minRate := decimal.Min(s.TakeRate, s.MakeRate)
			if !framework.Current().Config.Emulator && !minRate.IsPositive() {
				// A balance a little above price x quantity may cover a fee
				// at a rate of zero or below: a symbol with both rates
				// positive, if there is one.
				for _, o := range restable(ctx, t) {
					if decimal.Min(o.TakeRate, o.MakeRate).IsPositive() {
						s, minRate = o, decimal.Min(o.TakeRate, o.MakeRate)
						break
					}
				}
				if !minRate.IsPositive() {
					Skip(fmt.Sprintf("every symbol the account can rest orders on has a rate of zero or below (%s: %s): a balance a little above price x quantity may cover its fee, and only the emulator's control plane sets one to exactly price x quantity", s.Code, minRate))
				}
			}
			if !s.MaxRate().IsPositive() {
				Skip("the symbol " + s.Code + " charges no positive fee, so a balance without fees is not short")
			}
			steps := int64(1000)
			if !framework.Current().Config.Emulator {
				// The window below the fee must hold a few steps of the
				// quote's precision_transfer, in which balances move.
				least := trading.TransferPrecision(ctx, s.Quote).Mul(decimal.NewFromInt(4)).Div(minRate)
				steps = max(steps, least.Div(s.Low(10).Mul(s.Step)).Ceil().IntPart())
			}
			p := restingBuy(s, 10).With("quantity", s.Qty(steps).String())
			cost := s.Low(10).Mul(s.Qty(steps))
			short := availableIn(ctx, t, s.Quote, cost, cost.Mul(decimal.NewFromInt(1).Add(minRate.Div(decimal.NewFromInt(2)))))
			t.PlaceRefused(ctx, p, framework.StatusClass4xx, []int{20001},
				"a buy costing "+cost.String()+" "+s.Quote+" before fees, with "+short.String()+" available")
			// Twice the larger rate leaves no doubt that the fee is covered.
			enough := cost.Mul(decimal.NewFromInt(1).Add(s.MaxRate().Mul(decimal.NewFromInt(2))))
			availableIn(ctx, t, s.Quote, enough, enough.Mul(decimal.RequireFromString("1.001")))
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
		// In real time (see gtdSoon): any target.
		It("returns the funds of a GTD order when it expires", func(ctx SpecContext) {
			before := t.Balance(ctx, s.Quote)
			p, exp := gtdSoon(ctx, t, s)
			Expect(t.Balance(ctx, s.Quote).Reserved.GreaterThan(before.Reserved)).To(BeTrue(), "the GTD order reserves %s", s.Quote)
			t.EventuallyStatusWithin(ctx, p["client_order_id"], "expired", time.Until(exp)+gtdGrace, "a GTD order after its expire_time "+exp.Format(time.RFC3339))
			after := t.Balance(ctx, s.Quote)
			Expect(after.Avail).To(trading.DecEqual(before.Avail), "available %s is back after the expiry", s.Quote)
			Expect(after.Reserved).To(trading.DecEqual(before.Reserved), "reserved %s is back after the expiry", s.Quote)
		})
	})

	// The market buy rule needs a price to execute at (a resting sell of the
	// counterparty) and balances on either side of the threshold: exact on
	// the emulator (its control plane), in windows elsewhere (availableIn).
	// Serial: it trades.
	framework.ConformanceIt("V3-SPOT-MARKET-BUY-FUNDS", Serial, func(ctx SpecContext) {
		cp := newTrader(target.RoleCounterparty)
		m := fillMarket(ctx, cp, t, 2, nil)
		// A first trade at mid makes mid the last price too, so "price" in
		// the rule means the same under every reading.
		m.Trade(ctx, cp, t, "sell", 1, 0)
		m.Rest(ctx, cp, m.Limit("sell", 1, 0))
		cost := m.Mid.Mul(m.Q)
		threshold := cost.Mul(decimal.NewFromInt(1).Add(m.Sym.MaxRate()))
		mkt := params{"symbol": m.Sym.Code, "side": "buy", "type": "market", "quantity": m.Q.String()}

		// At the threshold on the emulator; elsewhere between price x
		// quantity plus half the fee and the threshold.
		below := availableIn(ctx, t, m.Sym.Quote, cost.Add(threshold.Sub(cost).Div(decimal.NewFromInt(2))), threshold)
		ex := m.Send(ctx, t, mkt.With("client_order_id", cloids.New()))
		Expect(ex).To(framework.BeAPIError(framework.StatusClass4xx, 20001),
			"a market buy of %s at %s with %s %s available, at or below price x quantity x (1 + max(take_rate %s, make_rate %s)) = %s: it must exceed that",
			m.Q, m.Mid, below, m.Sym.Quote, m.Sym.TakeRate, m.Sym.MakeRate, threshold)

		above := availableIn(ctx, t, m.Sym.Quote, threshold.Add(threshold.Div(decimal.NewFromInt(2000))), threshold.Add(threshold.Div(decimal.NewFromInt(1000))))
		o := m.Take(ctx, t, mkt.With("client_order_id", cloids.New()))
		Expect(o["status"]).To(Equal("filled"), "a market buy with %s %s available, above %s, fills against the resting sell\norder: %v", above, m.Sym.Quote, threshold, o)
	})
})
