package orderlists

import (
	"context"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// allOrNone: unique symbols, limit or market, FOK. Each refused list is a
// valid two-order list (FOK buys at a few ticks on two symbols) changed in
// one order, so the constraint is the only thing wrong with it.
var _ = framework.AreaDescribe("Order lists: allOrNone constraints", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})
	valid := func(ctx context.Context) list {
		GinkgoHelper()
		return parkedList(ctx, t, desk{v: trading.Spot}, aon, 2)
	}

	framework.ConformanceContext("V3-LIST-AON-CONSTRAINTS", func() {
		It("accepts limit FOK orders on distinct symbols", func(ctx SpecContext) {
			for _, o := range t.listOK(ctx, trading.Spot, valid(ctx)) {
				Expect(o["type"]).To(Equal("limit"), "an allOrNone order sent as a limit order")
				Expect(o["time_in_force"]).To(Equal("FOK"), "an allOrNone order sent FOK")
			}
		})

		// A market order in the list: Serial, since it would meet the resting
		// orders of parallel specs. The limit buy at a few ticks cannot fill,
		// so neither order executes and the list expires as a whole.
		It("accepts a market FOK order beside a limit FOK order", Serial, func(ctx SpecContext) {
			syms := parkable(ctx, t, nil)
			if len(syms) == 0 {
				Skip("needs a symbol on which the " + t.Role + " account holds base and quote")
			}
			seller := syms[0]
			var other trading.Symbol
			for _, s := range buyable(ctx, t) {
				if s.Code != seller.Code {
					other = s
					break
				}
			}
			if other.Code == "" {
				Skip("needs a second symbol whose quote the " + t.Role + " account holds")
			}
			l := list{typ: aon, orders: []params{
				{"client_order_id": cloids.New(), "symbol": seller.Code, "side": "sell", "type": "market", "quantity": seller.Qty(10).String(), "time_in_force": "FOK"},
				lowBuy(other, 3).With("time_in_force", "FOK"),
			}}
			os := t.listOK(ctx, trading.Spot, l)
			Expect(trading.FindOrder(os, l.orders[0]["client_order_id"])["type"]).To(Equal("market"), "the market order of the list\norders: %v", os)
		})

		DescribeTable("refuses a list breaking a constraint with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, change func(ctx context.Context, l list) list, what string) {
				l := change(ctx, valid(ctx))
				t.listRefused(ctx, trading.Spot, l, refuse10001, "an allOrNone list where "+what)
			},
			Entry("two orders on one symbol", func(_ context.Context, l list) list {
				l.orders[1] = l.orders[1].With("symbol", l.orders[0]["symbol"], "price", l.orders[0]["price"], "quantity", l.orders[0]["quantity"])
				return l
			}, "both orders are on one symbol"),
			Entry("a stopLimit order", typed("stopLimit"), "the second order is stopLimit"),
			Entry("a stopMarket order", typed("stopMarket"), "the second order is stopMarket"),
			Entry("a takeProfitLimit order", typed("takeProfitLimit"), "the second order is takeProfitLimit"),
			Entry("a takeProfitMarket order", typed("takeProfitMarket"), "the second order is takeProfitMarket"),
			Entry("a GTC order", tif("GTC"), "the second order is GTC"),
			Entry("an IOC order", tif("IOC"), "the second order is IOC"),
			Entry("a Day order", tif("Day"), "the second order is Day"),
			Entry("a GTD order", tif("GTD"), "the second order is GTD"),
			// A limit order without time_in_force is GTC by default, and FOK
			// is required: refused under either reading of "required".
			Entry("a limit order without time_in_force", func(_ context.Context, l list) list {
				l.orders[1] = l.orders[1].Without("time_in_force")
				return l
			}, "the second order, a limit order, has no time_in_force"),
		)
	})
})

// typed turns the second order of a list into a parked order of typ on its
// own symbol, FOK.
func typed(typ string) func(context.Context, list) list {
	return func(ctx context.Context, l list) list {
		s := symbolOf(ctx, l.orders[1]["symbol"])
		l.orders[1] = parked(s, typ).With("time_in_force", "FOK")
		return l
	}
}

// tif gives the second order of a list another time_in_force (with an
// expire_time a month ahead for GTD).
func tif(v string) func(context.Context, list) list {
	return func(ctx context.Context, l list) list {
		l.orders[1] = l.orders[1].With("time_in_force", v)
		if v == "GTD" {
			l.orders[1] = l.orders[1].With("expire_time", expireIn(ctx, 30*24*time.Hour))
		}
		return l
	}
}

// symbolOf finds a working symbol by code.
func symbolOf(ctx context.Context, code string) trading.Symbol {
	GinkgoHelper()
	for _, s := range trading.WorkingSymbols(ctx) {
		if s.Code == code {
			return s
		}
	}
	Fail("symbol " + code + " is not a working spot symbol")
	return trading.Symbol{}
}
