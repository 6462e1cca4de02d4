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

// Margin orders: they need a margin account, carry margin_mode and
// reduce_only, and have the spot order endpoints' life cycle.
var _ = framework.AreaDescribe("Margin orders", func() {
	var (
		t *trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = fundable(ctx, t, 1)[0]
	})

	framework.ConformanceContext("V3-MARGIN-ORDER-NEEDS-ACCOUNT", func() {
		// The spec gives no code for this refusal: the spec asserts a
		// documented error and records the code for the report.
		It("refuses a margin order on a symbol without a margin account, and accepts it once the account exists", func(ctx SpecContext) {
			for _, a := range t.accounts(ctx) {
				if a["symbol"] == s.Code || (a["type"] == cross && currencyOf(a, s.Quote) != nil) {
					Skip("the " + t.Role + " account already holds a margin account for " + s.Code + ": the suite cannot show an order without one")
				}
			}
			p := restingBuy(s, 3)
			ex := t.Place(ctx, p)
			trading.ExpectRefusal(ex, "a margin order on "+s.Code+", where the account has no margin account")
			framework.Record("V3-MARGIN-ORDER-NEEDS-ACCOUNT", "a margin order without a margin account was refused: %s", trading.Outcome(ex))
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a refused margin order is not active")

			t.openIsolated(ctx, s)
			t.PlaceOK(ctx, p.With("client_order_id", cloids.New()))
		})
		It("refuses a margin order on a symbol when the isolated account is on another symbol", func(ctx SpecContext) {
			other := otherFundable(ctx, t, s)
			for _, a := range t.accounts(ctx) {
				if a["symbol"] == other.Code || (a["type"] == cross && currencyOf(a, other.Quote) != nil) {
					Skip("the " + t.Role + " account already holds a margin account for " + other.Code)
				}
			}
			t.openIsolated(ctx, s)
			p := restingBuy(other, 3)
			ex := t.Place(ctx, p)
			trading.ExpectRefusal(ex, "a margin order on "+other.Code+", where the only margin account is the isolated one on "+s.Code)
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a refused margin order is not active")
		})
	})

	framework.ConformanceContext("V3-MARGIN-ORDER-MODE", func() {
		// Both an isolated account on the symbol and a cross account in its
		// quote exist, so either mode has an account to trade on.
		DescribeTable("margin_mode is isolated or cross, isolated by default",
			func(ctx SpecContext, sent, want string) {
				t.openIsolated(ctx, s)
				t.open(ctx, cross, s.Quote, t.collateral(ctx, s.Quote))
				p := restingBuy(s, 3)
				if sent != "" {
					p = p.With("margin_mode", sent)
				}
				if want == "" {
					ex := t.Place(ctx, p)
					Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "margin_mode %q", sent)
					Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a refused margin order is not active")
					return
				}
				o := t.PlaceOK(ctx, p)
				Expect(o).To(HaveKeyWithValue("margin_mode", want), "the create answer of a margin order sent with margin_mode %q", sent)
				got := t.OrderOf(ctx, p["client_order_id"])
				Expect(got).To(HaveKeyWithValue("margin_mode", want), "the margin order read back")
			},
			Entry("omitted: isolated", "", isolated),
			Entry("isolated", isolated, isolated),
			Entry("cross", cross, cross),
			Entry("another value is refused with 10001", "spot", ""),
		)
	})

	// "as spot create plus ...": the Create order parameters' rules hold.
	framework.ConformanceContext("V3-MARGIN-ORDER-PARAMS", func() {
		DescribeTable("refuses a margin order breaking a create parameter rule with 10001",
			func(ctx SpecContext, change func(params) params) {
				t.openIsolated(ctx, s)
				t.PlaceRefused(ctx, change(restingBuy(s, 3)), http.StatusBadRequest, []int{10001}, "a margin order")
			},
			Entry("without symbol", func(p params) params { return p.Without("symbol") }),
			Entry("without side", func(p params) params { return p.Without("side") }),
			Entry("without quantity", func(p params) params { return p.Without("quantity") }),
			Entry("side hold", func(p params) params { return p.With("side", "hold") }),
			Entry("type stop", func(p params) params { return p.With("type", "stop") }),
			Entry("type LIMIT", func(p params) params { return p.With("type", "LIMIT") }),
			Entry("time_in_force GTT", func(p params) params { return p.With("time_in_force", "GTT") }),
			Entry("client_order_id of 7 characters", func(p params) params { return p.With("client_order_id", cloids.OfLen(7)) }),
			Entry("client_order_id with a dot", func(p params) params { return p.With("client_order_id", cloids.OfLen(10)+"."+cloids.OfLen(10)[3:]) }),
		)
	})
})

var _ = framework.AreaDescribe("Margin orders", func() {
	var (
		t *trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = fundable(ctx, t, 1)[0]
	})

	framework.ConformanceIt("V3-MARGIN-REPLACE-STRICT", func(ctx SpecContext) {
		t.openIsolated(ctx, s)
		p := restingBuy(s, 3)
		before := t.PlaceOK(ctx, p)
		off := s.Low(4).Add(s.Tick.Div(decimal.NewFromInt(2)))
		next := cloids.New()
		t.CancelAtEnd(next)
		ex := t.Do(ctx, http.MethodPatch, "/margin/order/"+p["client_order_id"], params{
			"new_client_order_id": next, "quantity": s.Qty(20).String(), "price": off.String(), "strict_validate": "true"})
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a margin replace at %s, half a tick off, with strict_validate true", off)
		after := t.GetOK(ctx, p["client_order_id"])
		for _, k := range []string{"id", "status", "quantity", "price"} {
			Expect(after[k]).To(Equal(before[k]), "field %s of the margin order is unchanged by the refused replace", k)
		}
	})

	framework.ConformanceContext("V3-MARGIN-ORDERS", func() {
		BeforeEach(func(ctx SpecContext) { t.openIsolated(ctx, s) })

		It("creates a margin order carrying reduce_only and margin_mode, and reads it back", func(ctx SpecContext) {
			p := restingBuy(s, 3)
			o := t.PlaceOK(ctx, p)
			Expect(o).To(framework.MatchSchema(trading.MarginOrderSchema), "the create answer of a margin order")
			Expect(o).To(HaveKeyWithValue("status", "new"), "a margin buy at a few ticks rests")
			Expect(o).To(HaveKeyWithValue("reduce_only", false), "reduce_only of an order sent without it")
			for k, v := range map[string]string{"client_order_id": p["client_order_id"], "symbol": s.Code, "side": "buy", "type": "limit"} {
				Expect(o).To(HaveKeyWithValue(k, v), "field %s of the created margin order", k)
			}
			ex := t.Do(ctx, http.MethodGet, "/margin/order/"+p["client_order_id"], nil)
			Expect(ex).To(framework.BeOK(), "GET /margin/order/{client_order_id} of an active margin order")
			got := framework.ObjectOf(ex)
			Expect(got).To(framework.MatchSchema(trading.MarginOrderSchema), "GET /margin/order/{client_order_id}")
			Expect(got["id"]).To(Equal(o["id"]), "GET /margin/order/%s answers the created order", p["client_order_id"])
		})

		It("lists the active margin orders, by symbol when asked", func(ctx SpecContext) {
			other := otherFundable(ctx, t, s)
			t.openIsolated(ctx, other)
			mine, theirs := restingBuy(s, 3), restingBuy(other, 3)
			t.PlaceOK(ctx, mine)
			t.PlaceOK(ctx, theirs)
			all := t.Active(ctx, "")
			for _, o := range all {
				Expect(o).To(framework.MatchSchema(trading.MarginOrderSchema), "an element of GET /margin/order")
			}
			Expect(trading.FindOrder(all, mine["client_order_id"])).NotTo(BeNil(), "GET /margin/order lists the order on %s; listed %v", s, trading.CloidsOf(all))
			Expect(trading.FindOrder(all, theirs["client_order_id"])).NotTo(BeNil(), "GET /margin/order lists the order on %s; listed %v", other, trading.CloidsOf(all))
			bySym := t.Active(ctx, s.Code)
			Expect(trading.FindOrder(bySym, mine["client_order_id"])).NotTo(BeNil(), "GET /margin/order?symbol=%s lists the order on it; listed %v", s, trading.CloidsOf(bySym))
			for _, o := range bySym {
				Expect(o).To(HaveKeyWithValue("symbol", s.Code), "GET /margin/order?symbol=%s lists that symbol's orders only", s)
			}
		})

		It("replaces a margin order with PATCH", func(ctx SpecContext) {
			p := restingBuy(s, 3)
			t.PlaceOK(ctx, p)
			next := cloids.New()
			t.CancelAtEnd(next)
			ex := t.Do(ctx, http.MethodPatch, "/margin/order/"+p["client_order_id"], params{
				"new_client_order_id": next, "quantity": s.Qty(20).String(), "price": s.Low(4).String()})
			Expect(ex).To(framework.BeOK(), "PATCH /margin/order/%s", p["client_order_id"])
			o := framework.ObjectOf(ex)
			Expect(o).To(framework.MatchSchema(trading.MarginOrderSchema), "the PATCH answer")
			Expect(o).To(HaveKeyWithValue("client_order_id", next), "the replacing order carries new_client_order_id")
			Expect(o).To(HaveKeyWithValue("original_client_order_id", p["client_order_id"]), "the replacing order names the order it replaced")
			Expect(o["quantity"]).To(trading.DecEqual(s.Qty(20)), "the replacing order's quantity")
			Expect(o["price"]).To(trading.DecEqual(s.Low(4)), "the replacing order's price")
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "the replaced order is no longer active")
			Expect(t.IsActive(ctx, next)).To(BeTrue(), "the replacing order is active")
		})

		It("cancels a margin order with DELETE /margin/order/{client_order_id}", func(ctx SpecContext) {
			p := restingBuy(s, 3)
			created := t.PlaceOK(ctx, p)
			ex := t.Do(ctx, http.MethodDelete, "/margin/order/"+p["client_order_id"], nil)
			Expect(ex).To(framework.BeOK(), "DELETE /margin/order/%s", p["client_order_id"])
			o := framework.ObjectOf(ex)
			Expect(o).To(HaveKeyWithValue("status", "canceled"), "the cancel answer")
			Expect(o["id"]).To(Equal(created["id"]), "the cancel answers the order canceled")
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a canceled margin order is no longer active")
		})

		// Serial: canceling every margin order of the account must not reach
		// another process's orders where processes share an account.
		It("cancels the margin orders of a symbol, then all, with DELETE /margin/order", func(ctx SpecContext) {
			other := otherFundable(ctx, t, s)
			t.openIsolated(ctx, other)
			onS := []params{restingBuy(s, 3), restingBuy(s, 4)}
			onOther := restingBuy(other, 3)
			for _, p := range append(onS, onOther) {
				t.PlaceOK(ctx, p)
			}
			ex := t.Do(ctx, http.MethodDelete, "/margin/order", params{"symbol": s.Code})
			Expect(ex).To(framework.BeOK(), "DELETE /margin/order?symbol=%s", s)
			got := trading.Objects(ex)
			for _, p := range onS {
				o := trading.FindOrder(got, p["client_order_id"])
				Expect(o).NotTo(BeNil(), "DELETE /margin/order?symbol=%s answers order %s; answered %v", s, p["client_order_id"], trading.CloidsOf(got))
				Expect(o).To(HaveKeyWithValue("status", "canceled"), "a canceled order in the answer")
			}
			for _, o := range got {
				Expect(o).To(HaveKeyWithValue("symbol", s.Code), "DELETE /margin/order?symbol=%s cancels that symbol's orders only", s)
			}
			Expect(t.IsActive(ctx, onOther["client_order_id"])).To(BeTrue(), "the margin order on %s survives canceling those on %s", other, s)

			ex = t.Do(ctx, http.MethodDelete, "/margin/order", nil)
			Expect(ex).To(framework.BeOK(), "DELETE /margin/order")
			Expect(trading.FindOrder(trading.Objects(ex), onOther["client_order_id"])).NotTo(BeNil(), "DELETE /margin/order answers every canceled order")
			Expect(t.Active(ctx, "")).To(BeEmpty(), "DELETE /margin/order leaves no active margin order")
		})
	})
})
