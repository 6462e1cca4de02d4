package spot

import (
	"net/url"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The Order resource as every spot endpoint answers it.
var _ = Describe("The Order resource", func() {
	var (
		t *trader
		s spotSymbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = restingSymbol(ctx, t)
	})

	// variety is orders that rest without trading and between them carry
	// every optional field a single spot order can: price, stop_price,
	// expire_time, display_quantity.
	variety := func(ctx SpecContext) map[string]params {
		exp := targetNow(ctx).Add(30 * 24 * time.Hour).Truncate(time.Second).Format(time.RFC3339)
		out := map[string]params{
			"limit GTC buy":       s.restingBuy(3),
			"limit sell":          s.restingSell(),
			"limit Day":           s.restingBuy(3).with("time_in_force", "Day"),
			"limit GTD":           s.restingBuy(3).with("time_in_force", "GTD", "expire_time", exp),
			"hidden limit":        s.restingBuy(3).with("display_quantity", "0"),
			"post-only limit":     s.restingBuy(3).with("post_only", "true"),
			"limit IOC (expires)": s.restingBuy(3).with("time_in_force", "IOC"),
			"limit FOK (expires)": s.restingBuy(3).with("time_in_force", "FOK"),
		}
		for typ, p := range s.parkedStops() {
			out[typ] = p
		}
		return out
	}

	framework.ConformanceIt("V3-ORDER-FIELDS", func(ctx SpecContext) {
		for name, p := range variety(ctx) {
			o := t.placeOK(ctx, p)
			Expect(o).To(framework.MatchSchema(orderSchema), "the create answer of a %s order", name)
			if st, _ := o["status"].(string); st == "new" || st == "suspended" {
				Expect(t.getOK(ctx, p["client_order_id"])).To(framework.MatchSchema(orderSchema), "GET /spot/order/{id} of a %s order", name)
			}
		}
		for _, o := range t.active(ctx, s.Code) {
			Expect(o).To(framework.MatchSchema(orderSchema), "an element of GET /spot/order")
		}
		p := s.restingBuy(3)
		t.placeOK(ctx, p)
		Expect(t.cancelOK(ctx, p["client_order_id"])).To(framework.MatchSchema(orderSchema), "the cancel answer")
		for _, r := range t.history(ctx, url.Values{"limit": {"20"}}) {
			Expect(r).To(framework.MatchSchema(orderSchema), "a history record")
		}
	})

	framework.ConformanceIt("V3-ORDER-ENUMS", func(ctx SpecContext) {
		for name, p := range variety(ctx) {
			o := t.placeOK(ctx, p)
			Expect(o).To(haveDocumentedEnums(), "the create answer of a %s order", name)
			for _, k := range []string{"side", "type", "time_in_force"} {
				if sent, ok := p[k]; ok {
					Expect(o[k]).To(Equal(sent), "%s of a %s order is written as sent", k, name)
				}
			}
		}
		for _, o := range t.active(ctx, s.Code) {
			Expect(o).To(haveDocumentedEnums(), "an element of GET /spot/order")
		}
	})

	// Trades need a fill: Serial.
	framework.ConformanceIt("V3-ORDER-TRADES", Serial, func(ctx SpecContext) {
		cp := newTrader(target.RoleCounterparty)
		m := fillMarket(ctx, cp, t, 2, nil)
		// The maker rests two, the taker takes one: the maker's order stays
		// active with a trade.
		maker := m.limit("sell", 2, 0)
		cp.placeOK(ctx, maker)
		taker := t.placeOK(ctx, m.limit("buy", 1, 0))
		seen := 0
		check := func(o order, taker bool, where string) {
			trades, ok := o["trades"].([]any)
			if !ok {
				return
			}
			for _, x := range trades {
				tr, ok := x.(map[string]any)
				Expect(ok).To(BeTrue(), "a trade in %s is an object: %v", where, x)
				Expect(tr).To(framework.MatchSchema(tradeSchema), "a trade in %s", where)
				Expect(tr["taker"]).To(Equal(taker), "the liquidity indicator of a trade in %s", where)
				Expect(tr["quantity"]).To(decEqual(m.q), "the quantity of a trade in %s", where)
				Expect(tr["price"]).To(decEqual(m.mid), "the price of a trade in %s", where)
				seen++
			}
		}
		check(taker, true, "the taker's create answer")
		check(cp.getOK(ctx, maker["client_order_id"]), false, "the maker's partly filled order")
		for _, r := range t.history(ctx, url.Values{"client_order_id": {strField(taker, "client_order_id")}}) {
			check(r, true, "the taker's history record")
		}
		if seen == 0 {
			Skip("the target showed no trades array on the orders of a fill (trades is optional), so there is no trade to check")
		}
	})
})
