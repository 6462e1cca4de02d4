package spot

import (
	"net/url"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// tradeSchema is a Trade inside an order.
var tradeSchema = framework.Schema{
	"id":        {Kind: framework.Number},
	"quantity":  {Kind: framework.Decimal},
	"price":     {Kind: framework.Decimal},
	"fee":       {Kind: framework.Decimal},
	"taker":     {Kind: framework.Bool},
	"timestamp": {Kind: framework.DateTime},
}

// The Order resource as every spot endpoint answers it.
var _ = framework.AreaDescribe("The Order resource", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	// variety is orders that rest without trading and between them carry
	// every optional field a single spot order can: price, stop_price,
	// expire_time, display_quantity.
	variety := func(ctx SpecContext) map[string]params {
		exp := trading.TargetNow(ctx).Add(30 * 24 * time.Hour).Truncate(time.Second).Format(time.RFC3339)
		out := map[string]params{
			"limit GTC buy":       restingBuy(s, 3),
			"limit sell":          restingSell(s),
			"limit Day":           restingBuy(s, 3).With("time_in_force", "Day"),
			"limit GTD":           restingBuy(s, 3).With("time_in_force", "GTD", "expire_time", exp),
			"hidden limit":        restingBuy(s, 3).With("display_quantity", "0"),
			"post-only limit":     restingBuy(s, 3).With("post_only", "true"),
			"limit IOC (expires)": restingBuy(s, 3).With("time_in_force", "IOC"),
			"limit FOK (expires)": restingBuy(s, 3).With("time_in_force", "FOK"),
		}
		for typ, p := range parkedStops(s) {
			out[typ] = p
		}
		return out
	}

	framework.ConformanceIt("V3-ORDER-FIELDS", func(ctx SpecContext) {
		for name, p := range variety(ctx) {
			o := t.PlaceOK(ctx, p)
			Expect(o).To(framework.MatchSchema(trading.OrderSchema), "the create answer of a %s order", name)
			if st, _ := o["status"].(string); st == "new" || st == "suspended" {
				Expect(t.GetOK(ctx, p["client_order_id"])).To(framework.MatchSchema(trading.OrderSchema), "GET /spot/order/{id} of a %s order", name)
			}
		}
		for _, o := range t.Active(ctx, s.Code) {
			Expect(o).To(framework.MatchSchema(trading.OrderSchema), "an element of GET /spot/order")
		}
		p := restingBuy(s, 3)
		t.PlaceOK(ctx, p)
		Expect(t.CancelOK(ctx, p["client_order_id"])).To(framework.MatchSchema(trading.OrderSchema), "the cancel answer")
		for _, r := range t.History(ctx, url.Values{"limit": {"20"}}) {
			Expect(r).To(framework.MatchSchema(trading.OrderSchema), "a history record")
		}
	})

	framework.ConformanceIt("V3-ORDER-LIST-FIELDS", func(ctx SpecContext) {
		for name, p := range variety(ctx) {
			o := t.PlaceOK(ctx, p)
			for _, k := range []string{"order_list_id", "contingency_type"} {
				Expect(o[k]).To(BeNil(), "%s is only for order list requests: the create answer of a %s order placed alone", k, name)
			}
			if st, _ := o["status"].(string); st == "new" || st == "suspended" {
				got := t.GetOK(ctx, p["client_order_id"])
				for _, k := range []string{"order_list_id", "contingency_type"} {
					Expect(got[k]).To(BeNil(), "%s is only for order list requests: GET /spot/order/{id} of a %s order placed alone", k, name)
				}
			}
		}
	})

	framework.ConformanceIt("V3-ORDER-ENUMS", func(ctx SpecContext) {
		for name, p := range variety(ctx) {
			o := t.PlaceOK(ctx, p)
			Expect(o).To(trading.HaveDocumentedEnums(), "the create answer of a %s order", name)
			for _, k := range []string{"side", "type", "time_in_force"} {
				if sent, ok := p[k]; ok {
					Expect(o[k]).To(Equal(sent), "%s of a %s order is written as sent", k, name)
				}
			}
		}
		for _, o := range t.Active(ctx, s.Code) {
			Expect(o).To(trading.HaveDocumentedEnums(), "an element of GET /spot/order")
		}
	})

	// Trades need a fill (on a symbol of the spec's own, trading.FillMarkets).
	framework.ConformanceIt("V3-ORDER-TRADES", func(ctx SpecContext) {
		cp := newTrader(target.RoleCounterparty)
		m := fillMarket(ctx, cp, t, 2, nil)
		// The maker rests two, the taker takes one: the maker's order stays
		// active with a trade.
		maker := m.Limit("sell", 2, 0)
		m.Rest(ctx, cp, maker)
		taker := m.Take(ctx, t, m.Limit("buy", 1, 0))
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
				Expect(tr["quantity"]).To(trading.DecEqual(m.Q), "the quantity of a trade in %s", where)
				Expect(tr["price"]).To(trading.DecEqual(m.Mid), "the price of a trade in %s", where)
				seen++
			}
		}
		check(taker, true, "the taker's create answer")
		check(cp.GetOK(ctx, maker["client_order_id"]), false, "the maker's partly filled order")
		for _, r := range t.History(ctx, url.Values{"client_order_id": {trading.StrField(taker, "client_order_id")}}) {
			check(r, true, "the taker's history record")
		}
		if seen == 0 {
			Skip("the target showed no trades array on the orders of a fill (trades is optional), so there is no trade to check")
		}
	})
})
