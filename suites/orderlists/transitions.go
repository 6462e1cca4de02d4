package orderlists

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// The transitions of order lists, each driven to its end state against the
// counterparty account. They need fills: Serial, at a price a million ticks
// from every parked order (on the emulator) or strictly inside the spread.
var _ = framework.AreaDescribe("Order lists: transitions", func() {
	var t, cp *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		cp = newTrader(target.RoleCounterparty)
	})
	filled := Equal("filled")

	framework.ConformanceContext("V3-LIST-AON", func() {
		// The answer never carries trades, even when every order executes.
		It("fills every order when all can execute", framework.Checks("V3-LIST-RESPONSE"), func(ctx SpecContext) {
			ms := fillMarkets(ctx, cp, t, 2, 3)
			var makers []params
			l := list{typ: aon}
			for _, m := range ms {
				makers = append(makers, m.rest(ctx, cp, "sell", 1, 0))
				l.orders = append(l.orders, m.Limit("buy", 1, 0).With("time_in_force", "FOK"))
			}
			os := t.listOK(ctx, trading.Spot, l)
			for _, o := range os {
				Expect(o).NotTo(HaveKey("trades"), "trades are never returned for an order list request, even one that executed\norder: %v", o)
				Expect(o["status"]).To(Equal("filled"), "an allOrNone order whose counterpart rests: the FOK answer is final\norders: %v", os)
			}
			for i, p := range l.orders {
				o := t.On(trading.Spot).OrderOf(ctx, p["client_order_id"])
				Expect(o).To(HaveKeyWithValue("status", "filled"), "allOrNone order %d read back", i+1)
				Expect(o["quantity_cumulative"]).To(trading.DecEqual(ms[i].Q), "allOrNone order %d executed completely", i+1)
				cp.On(trading.Spot).EventuallyStatus(ctx, makers[i]["client_order_id"], filled, "the resting sell that allOrNone order "+p["client_order_id"]+" met")
			}
		})

		// expectAllExpired checks that no order of the list executed and that
		// the counterparty's resting orders were not touched.
		expectAllExpired := func(ctx SpecContext, l list, os []order, makers []params, ms []market) {
			GinkgoHelper()
			for i, p := range l.orders {
				o := t.On(trading.Spot).OrderOf(ctx, p["client_order_id"])
				Expect(o).To(HaveKeyWithValue("status", "expired"), "allOrNone order %d, when the list cannot execute as a whole\nanswer: %v", i+1, os)
				Expect(o["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "allOrNone order %d executed nothing", i+1)
			}
			for i, mp := range makers {
				mo := cp.On(trading.Spot).OrderOf(ctx, mp["client_order_id"])
				Expect(mo).To(HaveKeyWithValue("status", "new"), "the counterparty's resting sell on %s is untouched by an allOrNone list that expired", ms[i].Sym)
				Expect(mo["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero), "nothing of the counterparty's sell on %s executed", ms[i].Sym)
			}
		}

		It("expires every order when one has nothing to meet", func(ctx SpecContext) {
			ms := fillMarkets(ctx, cp, t, 2, 3)
			makers := []params{ms[0].rest(ctx, cp, "sell", 1, 0)}
			l := list{typ: aon, orders: []params{
				ms[0].Limit("buy", 1, 0).With("time_in_force", "FOK"),
				ms[1].Limit("buy", 1, 0).With("time_in_force", "FOK"),
			}}
			before := t.Balances(ctx)
			os := t.listOK(ctx, trading.Spot, l)
			expectAllExpired(ctx, l, os, makers, ms[:1])
			after := t.Balances(ctx)
			for _, m := range ms {
				for _, cur := range []string{m.Sym.Base, m.Sym.Quote} {
					Expect(after[cur].Avail.Add(after[cur].Reserved)).To(trading.DecEqual(before[cur].Avail.Add(before[cur].Reserved)), "the %s balance is untouched by an allOrNone list that expired", cur)
				}
			}
		})

		It("expires every order when one can execute only in part", func(ctx SpecContext) {
			ms := fillMarkets(ctx, cp, t, 2, 3)
			makers := []params{ms[0].rest(ctx, cp, "sell", 1, 0), ms[1].rest(ctx, cp, "sell", 1, 0)}
			l := list{typ: aon, orders: []params{
				ms[0].Limit("buy", 2, 0).With("time_in_force", "FOK"),
				ms[1].Limit("buy", 1, 0).With("time_in_force", "FOK"),
			}}
			expectAllExpired(ctx, l, t.listOK(ctx, trading.Spot, l), makers, ms)
		})
	})

	framework.ConformanceContext("V3-LIST-OCO", func() {
		// A take-profit limit sell above mid and stop-loss sells parked at a
		// few ticks; the counterparty buys the limit sell.
		DescribeTable("cancels the other orders when one executes",
			func(ctx SpecContext, n int) {
				m := fillMarkets(ctx, cp, t, 1, 3)[0]
				l := list{typ: oco, orders: []params{m.Limit("sell", 1, 1)}}
				for _, typ := range []string{"stopLimit", "stopMarket"}[:n-1] {
					l.orders = append(l.orders, parked(m.Sym, typ).With("quantity", m.Q.String()))
				}
				t.listOK(ctx, trading.Spot, l)
				taker := m.Take(ctx, cp.On(trading.Spot), m.Limit("buy", 1, 1))
				Expect(taker["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's buy at %s meets the list's limit sell\norder: %v", m.At(1), taker)
				t.On(trading.Spot).EventuallyStatus(ctx, l.orders[0]["client_order_id"], filled, "the executed order of the oneCancelOther list")
				for _, p := range l.orders[1:] {
					t.On(trading.Spot).EventuallyStatus(ctx, p["client_order_id"], Equal("canceled"), "a "+p["type"]+" order of the list after another one executed")
					Expect(t.On(trading.Spot).IsActive(ctx, p["client_order_id"])).To(BeFalse(), "a canceled order of the list is not active")
				}
			},
			Entry("two orders", 2), Entry("three orders", 3),
		)
	})

	framework.ConformanceContext("V3-LIST-OTO", func() {
		It("activates the secondaries when the primary executes, each independently of the other", func(ctx SpecContext) {
			m := fillMarkets(ctx, cp, t, 1, 3)[0]
			primary := m.Limit("buy", 1, 0)
			first, second := m.Limit("sell", 1, 2), m.Limit("sell", 1, 3)
			l := list{typ: oto, orders: []params{primary, first, second}}
			t.listOK(ctx, trading.Spot, l)
			Expect(t.On(trading.Spot).StatusOf(ctx, primary["client_order_id"])).To(Equal("new"), "the primary buy rests at %s", m.Mid)
			// Before the primary executes nothing of the secondaries can be met.
			Expect(m.probeIOC(ctx, cp, "buy", 2, 3)).To(trading.DecEqual(decimal.Zero), "an IOC buy at %s meets no secondary sell while the primary has not executed", m.At(3))

			seller := m.Take(ctx, cp.On(trading.Spot), m.Limit("sell", 1, 0))
			Expect(seller["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's sell at %s meets the primary\norder: %v", m.Mid, seller)
			t.On(trading.Spot).EventuallyStatus(ctx, primary["client_order_id"], filled, "the primary after the counterparty sold into it")
			for _, p := range []params{first, second} {
				t.On(trading.Spot).EventuallyStatus(ctx, p["client_order_id"], Equal("new"), "a secondary sell of the oneTriggerOther list once the primary executed")
				Expect(t.On(trading.Spot).IsActive(ctx, p["client_order_id"])).To(BeTrue(), "an activated secondary is an active order")
			}
			// Independently: one executing leaves the other active.
			taker := m.Take(ctx, cp.On(trading.Spot), m.Limit("buy", 1, 2))
			Expect(taker["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's buy at %s meets the first secondary\norder: %v", m.At(2), taker)
			t.On(trading.Spot).EventuallyStatus(ctx, first["client_order_id"], filled, "the first secondary")
			Expect(t.On(trading.Spot).StatusOf(ctx, second["client_order_id"])).To(Equal("new"), "the second secondary stays active when the first executes: oneTriggerOther secondaries are independent")
			Expect(t.On(trading.Spot).IsActive(ctx, second["client_order_id"])).To(BeTrue(), "the second secondary is still an active order")
		})
	})
})
