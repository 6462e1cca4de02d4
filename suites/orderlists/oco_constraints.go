package orderlists

import (
	"context"
	"fmt"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// The types and times in force of oneCancelOther orders and of the secondary
// orders of oneTriggerOneCancelOther: every type of the Order table against
// every time in force, accepted or refused as the order list section says.
// listOrderTypes lists market last, after the types oneCancelOther allows.
var listOrderTypes = []string{"limit", "stopLimit", "stopMarket", "takeProfitLimit", "takeProfitMarket", "market"}

// ocoAllowed: limit, stopLimit, stopMarket, takeProfitLimit,
// takeProfitMarket; GTC, IOC and FOK (neither for limit orders), Day, GTD.
func ocoAllowed(typ, tif string) bool {
	if typ == "market" {
		return false
	}
	return typ != "limit" || (tif != "IOC" && tif != "FOK")
}

// variant is a parked order of typ with the time in force (a market order
// for typ market, which parks nowhere: oneCancelOther refuses it).
func variant(ctx context.Context, s trading.Symbol, typ, tif string) params {
	GinkgoHelper()
	var p params
	if typ == "market" {
		p = params{"client_order_id": cloids.New(), "symbol": s.Code, "side": "sell", "type": "market", "quantity": s.Qty(10).String()}
	} else {
		p = parked(s, typ)
	}
	p = p.With("time_in_force", tif)
	if tif == "GTD" {
		p = p.With("expire_time", expireIn(ctx, 30*24*time.Hour))
	}
	return p
}

// companionOf is the other order of a pair around a variant of typ.
func companionOf(s trading.Symbol, typ string) params {
	if typ == "market" {
		return parked(s, "stopLimit")
	}
	return companion(s, typ)
}

// constraintList builds a oneCancelOther pair around the variant, or a
// oneTriggerOneCancelOther list whose secondaries are the pair and whose
// primary is a buy parked at a few ticks (so the secondaries stay inactive).
func constraintList(ctx context.Context, s trading.Symbol, typ, tif, contingency string) list {
	GinkgoHelper()
	pair := []params{variant(ctx, s, typ, tif), companionOf(s, typ)}
	if contingency == oco {
		return list{typ: oco, orders: pair}
	}
	return list{typ: otoco, orders: append([]params{lowBuy(s, 3)}, pair...)}
}

func ocoEntries(venues ...trading.Venue) []TableEntry {
	var out []TableEntry
	for _, v := range venues {
		for _, contingency := range []string{oco, otoco} {
			for _, typ := range listOrderTypes {
				for _, tif := range trading.OrderTIFs {
					role := "an order of a oneCancelOther list"
					if contingency == otoco {
						role = "a secondary order of a oneTriggerOneCancelOther list"
					}
					desc := fmt.Sprintf("%s: %s %s as %s is accepted", v, typ, tif, role)
					var args []any
					if !ocoAllowed(typ, tif) {
						desc = fmt.Sprintf("%s: %s %s as %s is refused, creating nothing", v, typ, tif, role)
						args = append(args, framework.Checks("V3-LIST-ATOMIC"))
					}
					// Market variants run beside other specs too: only a
					// target that wrongly accepted one would let it meet
					// parked orders, and this spec fails on that target
					// whatever else does.
					out = append(out, Entry(desc, append(args, v, contingency, typ, tif)...))
				}
			}
		}
	}
	return out
}

var _ = framework.AreaDescribe("Order lists: oneCancelOther constraints", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	framework.ConformanceContext("V3-LIST-OCO-CONSTRAINTS", func() {
		DescribeTable("type and time_in_force of oneCancelOther orders and oneTriggerOneCancelOther secondaries",
			func(ctx SpecContext, v trading.Venue, contingency, typ, tif string) {
				d := openDesk(ctx, t, v)
				l := constraintList(ctx, d.s, typ, tif, contingency)
				if ocoAllowed(typ, tif) {
					t.listOK(ctx, v, l)
					return
				}
				t.listRefused(ctx, v, l, refuse10001, fmt.Sprintf("a %s %s order in a %s list", typ, tif, contingency))
			},
			ocoEntries(trading.Spot, trading.Margin),
		)
	})
})
