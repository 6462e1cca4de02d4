package spot

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// States and transitions of one order, and the time-in-force definitions
// that need no clock. Orders that must not trade rest at a few ticks; the
// ones that meet the counterparty trade on a symbol of their own
// (trading.FillMarkets).
var _ = framework.AreaDescribe("Order states", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	framework.ConformanceContext("V3-SPOT-IOC-FOK-FINAL", func() {
		DescribeTable("answers an order with nothing to meet with its final status",
			func(ctx SpecContext, tif string) {
				o := t.PlaceOK(ctx, restingBuy(s, 3).With("time_in_force", tif))
				Expect(o["status"]).To(Equal("expired"), "a %s buy at a few ticks meets nothing: the create answer is final\norder: %v", tif, o)
				Expect(o["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "nothing executed")
			},
			Entry(nil, "IOC"), Entry(nil, "FOK"),
		)
		DescribeTable("answers an order that meets a resting order with its final status",
			func(ctx SpecContext, tif string, n int64, want string) {
				cp, m := fillsWith(ctx, t)
				m.Rest(ctx, cp, m.Limit("sell", 1, 0))
				o := m.Take(ctx, t, m.Limit("buy", n, 0).With("time_in_force", tif))
				Expect(o["status"]).To(Equal(want), "%s buy of %d against 1 resting: the create answer is final (filled or expired)\norder: %v", tif, n, o)
			},
			Entry("IOC filled completely", "IOC", int64(1), "filled"),
			Entry("FOK filled completely", "FOK", int64(1), "filled"),
			Entry("IOC filled in part, the rest expired", "IOC", int64(2), "expired"),
			Entry("FOK that cannot fill completely", "FOK", int64(2), "expired"),
		)
	})

	framework.ConformanceContext("V3-SPOT-INSTANT-FILL", func() {
		It("answers an order filled at once with filled", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			_, o := m.Trade(ctx, cp, t, "sell", 1, 0)
			Expect(o["status"]).To(Equal("filled"), "the create answer of an order that met a resting order of its size\norder: %v", o)
		})
		It("answers an order filled in part at once with partiallyFilled", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			m.Rest(ctx, cp, m.Limit("sell", 1, 0))
			o := m.Take(ctx, t, m.Limit("buy", 2, 0))
			Expect(o["status"]).To(Equal("partiallyFilled"), "the create answer of a GTC buy of 2 against 1 resting\norder: %v", o)
			Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Q), "one of two executed")
		})
	})

	framework.ConformanceIt("V3-ORDER-PRICE-AVERAGE", func(ctx SpecContext) {
		cp, m := fillsWith(ctx, t)
		// One trade quantity rests at mid and one a tick above; a buy of two
		// up to a tick above takes both.
		m.Rest(ctx, cp, m.Limit("sell", 1, 0))
		m.Rest(ctx, cp, m.Limit("sell", 1, 1))
		p := m.Limit("buy", 2, 1)
		o := m.Take(ctx, t, p)
		Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Qn(2)), "the buy takes both resting sells\norder: %v", o)
		want := m.At(0).Add(m.At(1)).Div(decimal.NewFromInt(2))
		Expect(o["price_average"]).To(trading.DecEqual(want), "price_average of a buy filled %s at %s and %s at %s\norder: %v", m.Q, m.At(0), m.Q, m.At(1), o)
		recs := t.History(ctx, url.Values{"client_order_id": {p["client_order_id"]}})
		Expect(recs).NotTo(BeEmpty(), "the filled order's history record")
		Expect(recs[0]["price_average"]).To(trading.DecEqual(want), "price_average of the history record")
	})

	framework.ConformanceIt("V3-SPOT-NEW", func(ctx SpecContext) {
		p := restingBuy(s, 3)
		Expect(t.PlaceOK(ctx, p)["status"]).To(Equal("new"), "a limit buy at a few ticks rests")
		Expect(t.GetOK(ctx, p["client_order_id"])["status"]).To(Equal("new"), "the resting order read back")
	})

	framework.ConformanceContext("V3-SPOT-SUSPENDED", func() {
		DescribeTable("creates stop and take-profit orders suspended",
			func(ctx SpecContext, typ string) {
				p := parkedStops(s)[typ]
				Expect(t.PlaceOK(ctx, p)["status"]).To(Equal("suspended"), "a %s order is parked until its trigger", typ)
				Expect(t.GetOK(ctx, p["client_order_id"])["status"]).To(Equal("suspended"), "the parked %s order read back", typ)
			},
			Entry(nil, "stopLimit"), Entry(nil, "stopMarket"), Entry(nil, "takeProfitLimit"), Entry(nil, "takeProfitMarket"),
		)
		// The last trade price first rises through two triggers and then
		// falls through two others, so every order's trigger is crossed in
		// its usual direction: a stop buy and a take-profit sell on the rise,
		// a stop sell and a take-profit buy on the fall.
		It("places them in the book when the last trade price crosses the trigger", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			m.Trade(ctx, cp, t, "sell", 1, 0) // last price: mid
			far := m.Room * 10
			rise := map[string]params{
				"stopLimit buy":        {"side": "buy", "type": "stopLimit", "stop_price": m.At(1).String(), "price": m.At(-far).String()},
				"takeProfitLimit sell": {"side": "sell", "type": "takeProfitLimit", "stop_price": m.At(1).String(), "price": m.At(far).String()},
			}
			fall := map[string]params{
				"stopLimit sell":      {"side": "sell", "type": "stopLimit", "stop_price": m.At(1).String(), "price": m.At(far).String()},
				"takeProfitLimit buy": {"side": "buy", "type": "takeProfitLimit", "stop_price": m.At(1).String(), "price": m.At(-far).String()},
			}
			place := func(group map[string]params) map[string]string {
				ids := map[string]string{}
				for name, p := range group {
					p = p.With("client_order_id", cloids.New(), "symbol", m.Sym.Code, "quantity", m.Q.String())
					Expect(t.PlaceOK(ctx, p)["status"]).To(Equal("suspended"), "%s with the last price at %s and the trigger at %s", name, m.Mid, p["stop_price"])
					ids[name] = p["client_order_id"]
				}
				return ids
			}
			expectPlaced := func(ids map[string]string, move string) {
				for name, id := range ids {
					t.EventuallyStatus(ctx, id, BeElementOf("new", "partiallyFilled", "filled"), name+" after the last price "+move+" its trigger "+m.At(1).String())
				}
			}
			up := place(rise)
			m.Trade(ctx, cp, t, "sell", 1, 2) // last price: mid + 2 ticks
			expectPlaced(up, "rose through")
			down := place(fall)
			m.Trade(ctx, cp, t, "sell", 1, 0) // last price: mid
			expectPlaced(down, "fell through")
		})
	})
})

var _ = framework.AreaDescribe("Order states", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	framework.ConformanceContext("V3-SPOT-CANCEL", func() {
		DescribeTable("cancels an active order and answers it canceled",
			func(ctx SpecContext, p func(trading.Symbol) params, was string) {
				q := p(s)
				created := t.PlaceOK(ctx, q)
				Expect(created["status"]).To(Equal(was), "the order to cancel")
				o := t.CancelOK(ctx, q["client_order_id"])
				Expect(o["status"]).To(Equal("canceled"), "the cancel answer of a %s order\norder: %v", was, o)
				Expect(o["id"]).To(Equal(created["id"]), "the cancel answers the order canceled")
				Expect(t.IsActive(ctx, q["client_order_id"])).To(BeFalse(), "a canceled order is no longer active")
			},
			Entry("new", func(s trading.Symbol) params { return restingBuy(s, 3) }, "new"),
			Entry("suspended", func(s trading.Symbol) params { return parkedStops(s)["stopLimit"] }, "suspended"),
		)
		It("cancels a partiallyFilled order", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			p := m.Limit("buy", 2, 0)
			m.Rest(ctx, t, p)
			m.Take(ctx, cp, m.Limit("sell", 1, 0))
			Expect(t.StatusOf(ctx, p["client_order_id"])).To(Equal("partiallyFilled"), "a resting buy of 2 after a sell of 1 met it")
			o := t.CancelOK(ctx, p["client_order_id"])
			Expect(o["status"]).To(Equal("canceled"), "the cancel answer of a partiallyFilled order\norder: %v", o)
			Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the executed part stays executed")
		})
	})

	// Beside other specs: canceling every order of the account reaches no
	// other process's orders, since processes that may place orders never
	// share an account (target.Config.ForProcess).
	framework.ConformanceIt("V3-SPOT-CANCEL-ALL", func(ctx SpecContext) {
		syms := restingSymbols(ctx, t, 2)
		a, b := syms[0], syms[1]
		for _, o := range t.Active(ctx, "") {
			if id, _ := o["client_order_id"].(string); !strings.HasPrefix(id, string(cloids)) {
				Skip("the account has active orders the suite did not place (" + id + "); canceling all would cancel them")
			}
		}
		onA := []params{restingBuy(a, 3), restingSell(a)}
		onB := restingBuy(b, 3)
		for _, p := range append(onA, onB) {
			t.PlaceOK(ctx, p)
		}
		cancelAll := func(q map[string][]string) []order {
			ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/spot/order", Query: q})
			Expect(ex).To(framework.BeOK(), "DELETE /spot/order")
			return trading.Objects(ex)
		}
		got := cancelAll(map[string][]string{"symbol": {a.Code}})
		for _, p := range onA {
			o := trading.FindOrder(got, p["client_order_id"])
			Expect(o).NotTo(BeNil(), "DELETE /spot/order?symbol=%s answers order %s; answered %v", a, p["client_order_id"], trading.CloidsOf(got))
			Expect(o["status"]).To(Equal("canceled"), "a canceled order in the answer")
		}
		for _, o := range got {
			Expect(o["symbol"]).To(Equal(a.Code), "DELETE /spot/order?symbol=%s cancels that symbol's orders only", a)
		}
		Expect(t.IsActive(ctx, onB["client_order_id"])).To(BeTrue(), "the order on %s survives canceling %s", b, a)

		got = cancelAll(nil)
		Expect(trading.FindOrder(got, onB["client_order_id"])).NotTo(BeNil(), "DELETE /spot/order answers every canceled order; answered %v", trading.CloidsOf(got))
		Expect(t.Active(ctx, "")).To(BeEmpty(), "DELETE /spot/order leaves no active order")
	})

	framework.ConformanceContext("V3-SPOT-POST-ONLY", func() {
		It("rests a post-only order that meets nothing", func(ctx SpecContext) {
			o := t.PlaceOK(ctx, restingBuy(s, 3).With("post_only", "true"))
			Expect(o["status"]).To(Equal("new"), "a post-only buy at a few ticks\norder: %v", o)
			Expect(o["post_only"]).To(Equal(true), "post_only of an order sent post-only")
		})
		It("expires a post-only order that would match as taker", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			maker := m.Limit("sell", 1, 0)
			m.Rest(ctx, cp, maker)
			p := m.Limit("buy", 1, 0).With("post_only", "true")
			o := m.Take(ctx, t, p)
			Expect(o["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "a post-only order never takes\norder: %v", o)
			t.EventuallyStatus(ctx, p["client_order_id"], "expired", "a post-only buy at the price of a resting sell")
			Expect(cp.GetOK(ctx, maker["client_order_id"])["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "the resting sell was not met")
		})
	})

	framework.ConformanceIt("V3-SPOT-IOC", func(ctx SpecContext) {
		cp, m := fillsWith(ctx, t)
		m.Rest(ctx, cp, m.Limit("sell", 1, 0))
		p := m.Limit("buy", 2, 0).With("time_in_force", "IOC")
		o := m.Take(ctx, t, p)
		Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Q), "IOC executes what it can at once\norder: %v", o)
		Expect(o["status"]).To(BeElementOf("expired", "canceled"), "the unfilled part of an IOC order does not stay\norder: %v", o)
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "the IOC order's unfilled part is not left in the book")
		// Nothing rests at mid: a new sell there does not trade.
		probe := m.Take(ctx, cp, m.Limit("sell", 1, 0))
		Expect(probe["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "no buy of the IOC order rests at %s", m.Mid)
	})

	framework.ConformanceContext("V3-SPOT-FOK", func() {
		It("executes nothing when it cannot execute completely", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			maker := m.Limit("sell", 1, 0)
			m.Rest(ctx, cp, maker)
			before := t.Snapshot(ctx, m.currencies()...)
			o := m.Take(ctx, t, m.Limit("buy", 2, 0).With("time_in_force", "FOK"))
			Expect(o["status"]).To(Equal("expired"), "a FOK buy of 2 against 1 resting\norder: %v", o)
			Expect(o["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "FOK executes all or nothing")
			Expect(cp.GetOK(ctx, maker["client_order_id"])["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "the resting sell was not met")
			after := t.Snapshot(ctx, m.currencies()...)
			for cur, b := range before {
				Expect(after[cur].Total()).To(trading.DecEqual(b.Total()), "the %s balance is untouched by a FOK order that did not execute", cur)
			}
		})
		It("executes completely when it can", func(ctx SpecContext) {
			cp, m := fillsWith(ctx, t)
			m.Rest(ctx, cp, m.Limit("sell", 2, 0))
			o := m.Take(ctx, t, m.Limit("buy", 2, 0).With("time_in_force", "FOK"))
			Expect(o["status"]).To(Equal("filled"), "a FOK buy of 2 against 2 resting\norder: %v", o)
			Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Q.Mul(decimal.NewFromInt(2))), "FOK executes completely")
		})
	})

	framework.ConformanceContext("V3-SPOT-GTC", func() {
		It("keeps a GTC order active", func(ctx SpecContext) {
			p := restingBuy(s, 3).With("time_in_force", "GTC")
			Expect(t.PlaceOK(ctx, p)["status"]).To(Equal("new"), "the order rests at first")
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeTrue(), "a GTC order stays active")
		})
		// Only the emulator's clock can show that no time limit applies.
		It("keeps a GTC order active past 23:59 UTC and past 24 hours", Serial, Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
			framework.Current().RequireEmulator()
			p := restingBuy(s, 3).With("time_in_force", "GTC")
			t.PlaceOK(ctx, p)
			advance(ctx, 25*time.Hour)
			Expect(t.StatusOf(ctx, p["client_order_id"])).To(Equal("new"), "a GTC order 25 hours later")
			Expect(t.IsActive(ctx, p["client_order_id"])).To(BeTrue(), "a GTC order 25 hours later is still active")
		})
	})
})
