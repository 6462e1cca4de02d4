package orderlists

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The primary order of oneTriggerOneCancelOther may be of any type of the
// oneCancelOther orders or market, with any time in force (IOC and FOK
// included for limit orders), and the list uses one symbol.
func primaryEntries() []TableEntry {
	var out []TableEntry
	for _, v := range []trading.Venue{trading.Spot, trading.Margin} {
		for _, typ := range listOrderTypes {
			if typ == "market" {
				continue // needs a fill: its own Serial spec below
			}
			for _, tif := range trading.OrderTIFs {
				out = append(out, Entry(fmt.Sprintf("%s: a %s %s primary is accepted", v, typ, tif), v, typ, tif))
			}
		}
	}
	return out
}

// otherSymbol returns a symbol other than s on which t can park buys (a
// margin one with an open account, on margin).
func otherSymbol(ctx context.Context, t *trader, v trading.Venue, s trading.Symbol) trading.Symbol {
	GinkgoHelper()
	for _, o := range buyableFirstParkable(ctx, t) {
		if o.Code == s.Code || (v == trading.Margin && !o.Margin) {
			continue
		}
		if v == trading.Margin {
			openIsolated(ctx, t, o)
		}
		return o
	}
	Skip(fmt.Sprintf("needs a second %s symbol beside %s", v, s))
	return trading.Symbol{}
}

var _ = framework.AreaDescribe("Order lists: oneTriggerOneCancelOther constraints", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-OTOCO-CONSTRAINTS", func() {
		DescribeTable("accepts a primary of every oneCancelOther type with every time_in_force",
			func(ctx SpecContext, v trading.Venue, typ, tif string) {
				d := openDesk(ctx, t, v)
				// Parked: a limit primary rests at a few ticks (or, IOC and
				// FOK, expires there), so the secondaries never activate.
				primary := variant(ctx, d.s, typ, tif)
				l := list{typ: otoco, orders: []params{primary, lowBuy(d.s, 2), parked(d.s, "takeProfitLimit")}}
				os := t.listOK(ctx, v, l)
				Expect(trading.FindOrder(os, primary["client_order_id"])).To(HaveKeyWithValue("type", typ), "the primary order of the answer\norders: %v", os)
			},
			primaryEntries(),
		)

		// A market primary executes at once: Serial, against a sell of the
		// counterparty resting at mid.
		It("accepts a market primary", func(ctx SpecContext) {
			cp := newTrader(target.RoleCounterparty)
			m := fillMarkets(ctx, cp, t, 1, 3)[0]
			m.rest(ctx, cp, "sell", 1, 0)
			primary := params{"client_order_id": cloids.New(), "symbol": m.Sym.Code, "side": "buy", "type": "market", "quantity": m.Q.String()}
			l := list{typ: otoco, orders: []params{primary, lowBuy(m.Sym, 2), parked(m.Sym, "takeProfitLimit")}}
			os := t.listOK(ctx, trading.Spot, l)
			Expect(trading.FindOrder(os, primary["client_order_id"])).To(HaveKeyWithValue("type", "market"), "the market primary of the answer\norders: %v", os)
			t.On(trading.Spot).EventuallyStatus(ctx, primary["client_order_id"], Equal("filled"), "a market primary against a resting sell of its size")
		})

		DescribeTable("refuses a list mixing symbols with 10001, creating nothing", framework.Checks("V3-LIST-ATOMIC"),
			func(ctx SpecContext, v trading.Venue, moved int) {
				d := openDesk(ctx, t, v)
				o := otherSymbol(ctx, t, v, d.s)
				l := list{typ: otoco, orders: []params{lowBuy(d.s, 3), lowBuy(d.s, 2), parked(d.s, "takeProfitLimit")}}
				l.orders[moved] = l.orders[moved].With("symbol", o.Code, "quantity", o.Qty(10).String())
				if l.orders[moved]["type"] == "limit" {
					l.orders[moved]["price"] = o.Low(2).String()
				} else {
					l.orders[moved]["stop_price"], l.orders[moved]["price"] = o.Low(5).String(), o.Low(4).String()
				}
				t.listRefused(ctx, v, l, refuse10001, fmt.Sprintf("order %d of the oneTriggerOneCancelOther list is on %s, the others on %s", moved+1, o, d.s))
			},
			Entry("spot: the primary on another symbol", trading.Spot, 0),
			Entry("spot: the first secondary on another symbol", trading.Spot, 1),
			Entry("spot: the second secondary on another symbol", trading.Spot, 2),
			Entry("margin: the second secondary on another symbol", trading.Margin, 2),
		)
	})
})
