package orderlists

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// A refused list creates nothing. The constraint tables check this on every
// refusal; the cases here are refusals a target is likeliest to find only
// while placing the orders one by one (funds, an unknown symbol in the last
// order) and bodies it cannot read.
var _ = framework.AreaDescribe("Order lists: refusal is atomic", func() {
	var t *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
	})

	// unaffordable is a quantity of s whose cost at k ticks is a thousand
	// times the trader's available quote: beyond any margin leverage too.
	unaffordable := func(ctx context.Context, s trading.Symbol, k int64) string {
		GinkgoHelper()
		avail := t.Balances(ctx)[s.Quote].Avail
		return avail.Mul(decimal.NewFromInt(1000)).Div(s.Low(k)).Div(s.Step).Ceil().Mul(s.Step).String()
	}

	framework.ConformanceContext("V3-LIST-ATOMIC", func() {
		DescribeTable("refuses a list whose last order lacks funds with 20001, creating nothing",
			func(ctx SpecContext, v trading.Venue, typ string) {
				d := openDesk(ctx, t, v)
				n := 2
				if typ == aon {
					n = 3
				}
				l := parkedList(ctx, t, d, typ, n)
				last := symbolOf(ctx, l.orders[n-1]["symbol"])
				l.orders[n-1] = l.orders[n-1].With("quantity", unaffordable(ctx, last, 3))
				t.listRefused(ctx, v, l, []int{20001}, "the last order of the list costs a thousand times the available "+last.Quote)
			},
			Entry(nil, trading.Spot, aon), Entry(nil, trading.Spot, oco), Entry(nil, trading.Margin, oco),
		)
		It("refuses a oneCancelOther list whose last sell exceeds the base balance with 20001, creating nothing", func(ctx SpecContext) {
			d := openDesk(ctx, t, trading.Spot)
			avail := t.Balances(ctx)[d.s.Base].Avail
			l := list{typ: oco, orders: []params{parked(d.s, "stopLimit"), parked(d.s, "stopMarket")}}
			l.orders[1]["quantity"] = avail.Mul(decimal.NewFromInt(2)).Div(d.s.Step).Ceil().Mul(d.s.Step).String()
			t.listRefused(ctx, trading.Spot, l, []int{20001}, "the last sell of the list is twice the available "+d.s.Base)
		})
		It("refuses a list whose last order names an unlisted symbol with 2001, creating nothing", func(ctx SpecContext) {
			d := openDesk(ctx, t, trading.Spot)
			l := parkedList(ctx, t, d, oco, 2)
			l.orders[1] = l.orders[1].With("symbol", "CONFORMNOSUCH")
			t.listRefused(ctx, trading.Spot, l, []int{2001}, "the last order of the list is on an unlisted symbol")
		})

		// Bodies the target cannot read as a list: documented errors, never a
		// server error, and nothing created.
		DescribeTable("refuses a malformed list body with a documented error, creating nothing",
			func(ctx SpecContext, body func(d desk) (any, []string), codes []int) {
				d := openDesk(ctx, t, trading.Spot)
				b, ids := body(d)
				raw, isRaw := b.([]byte)
				if !isRaw {
					var err error
					raw, err = json.Marshal(b)
					Expect(err).NotTo(HaveOccurred(), "encoding the body")
				}
				for _, id := range ids {
					t.On(trading.Spot).CancelAtEnd(id)
				}
				before := t.state(ctx, false)
				ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order/list", Body: raw, ContentType: "application/json"})
				if len(codes) == 0 {
					trading.ExpectRefusal(ex, "the list body "+string(raw))
				} else {
					Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, codes...), "the list body %s", raw)
				}
				expectSameState(before, t.state(ctx, false), "the malformed list body "+string(raw))
			},
			Entry("not JSON", func(d desk) (any, []string) {
				return []byte(`{"contingency_type":"oneCancelOther","orders":[{"symbol":"` + d.s.Code + `"`), nil
			}, []int(nil)),
			Entry("orders missing", func(desk) (any, []string) {
				return map[string]any{"contingency_type": oco}, nil
			}, refuse10001),
			Entry("orders not an array", func(d desk) (any, []string) {
				p := lowBuy(d.s, 3)
				return map[string]any{"contingency_type": oco, "orders": p.JSON()}, []string{p["client_order_id"]}
			}, refuse10001),
			Entry("an order that is not an object", func(d desk) (any, []string) {
				p := lowBuy(d.s, 3)
				return map[string]any{"contingency_type": oco, "orders": []any{p.JSON(), "limit"}}, []string{p["client_order_id"]}
			}, refuse10001),
			Entry("a quantity that is a JSON boolean", func(d desk) (any, []string) {
				p, q := lowBuy(d.s, 3), parked(d.s, "takeProfitLimit").JSON()
				q["quantity"] = true
				return map[string]any{"contingency_type": oco, "orders": []any{p.JSON(), q}}, []string{p["client_order_id"], q["client_order_id"].(string)}
			}, refuse10001),
		)
	})
})
