package spot

import (
	"context"
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// replace sends PATCH /spot/order/{client_order_id} with a form body (as for
// POST; the spec names no other way), registering the cancel of the new
// client_order_id first.
func replace(ctx context.Context, t *trading.Trader, cloid string, p params) *client.Exchange {
	GinkgoHelper()
	if id := p["new_client_order_id"]; id != "" {
		t.CancelAtEnd(id)
	}
	ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPatch, Path: "/spot/order/" + cloid, Form: p.Form()})
	Expect(ex).NotTo(BeNil(), "PATCH /spot/order/%s: no exchange", cloid)
	return ex
}

var _ = framework.AreaDescribe("Replacing orders", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	framework.ConformanceIt("V3-SPOT-REPLACE", func(ctx SpecContext) {
		old := restingBuy(s, 3)
		t.PlaceOK(ctx, old)
		newID := cloids.New()
		qty, price := s.Qty(20), s.Low(4)
		ex := replace(ctx, t, old["client_order_id"], params{"new_client_order_id": newID, "quantity": qty.String(), "price": price.String()})
		Expect(ex).To(framework.BeOK(), "replacing an active order")
		o := framework.ObjectOf(ex)
		Expect(o["client_order_id"]).To(Equal(newID), "the replacing order carries new_client_order_id\norder: %v", o)
		Expect(o["original_client_order_id"]).To(Equal(old["client_order_id"]), "the replacing order carries original_client_order_id\norder: %v", o)
		Expect(o["quantity"]).To(trading.DecEqual(qty), "the replacing order has the new quantity")
		Expect(o["price"]).To(trading.DecEqual(price), "the replacing order has the new price")
		for _, k := range []string{"symbol", "side"} {
			Expect(o[k]).To(Equal(old[k]), "the replacing order keeps %s", k)
		}
		Expect(o["status"]).To(Equal("new"), "the replacing order rests")

		active := t.Active(ctx, s.Code)
		Expect(trading.FindOrder(active, newID)).NotTo(BeNil(), "the replacing order is active; active: %v", trading.CloidsOf(active))
		Expect(trading.FindOrder(active, old["client_order_id"])).To(BeNil(), "the replaced order is no longer active; active: %v", trading.CloidsOf(active))
		Expect(t.GetOK(ctx, newID)["original_client_order_id"]).To(Equal(old["client_order_id"]), "the stored replacing order carries original_client_order_id")
	})

	framework.ConformanceContext("V3-SPOT-REPLACE-STOP-PRICE", func() {
		DescribeTable("replaces the trigger of a parked order",
			func(ctx SpecContext, typ string, next func(trading.Symbol) decimal.Decimal) {
				old := parkedStops(s)[typ]
				t.PlaceOK(ctx, old)
				newID := cloids.New()
				stop := next(s)
				ex := replace(ctx, t, old["client_order_id"], params{"new_client_order_id": newID, "quantity": old["quantity"], "price": old["price"], "stop_price": stop.String()})
				Expect(ex).To(framework.BeOK(), "replacing %s with stop_price %s", typ, stop)
				o := framework.ObjectOf(ex)
				Expect(o["stop_price"]).To(trading.DecEqual(stop), "the replacing %s order has the new stop_price\norder: %v", typ, o)
				Expect(o["type"]).To(Equal(typ), "the replacing order keeps its type\norder: %v", o)
				Expect(o["status"]).To(Equal("suspended"), "the replacing order is parked like the one it replaced")
			},
			Entry("stopLimit", "stopLimit", func(s trading.Symbol) decimal.Decimal { return s.Low(6) }),
			Entry("takeProfitLimit", "takeProfitLimit", func(s trading.Symbol) decimal.Decimal { return s.High().Sub(s.Tick) }),
		)
	})

	// quantity carries no "optional" in the PATCH row and price is
	// "required for limit, stopLimit, takeProfitLimit".
	framework.ConformanceContext("V3-SPOT-REPLACE-REQUIRED", func() {
		DescribeTable("refuses a replace without a required parameter and leaves the order as it was",
			func(ctx SpecContext, typ, missing string) {
				var old params
				if typ == "limit" {
					old = restingBuy(s, 3)
				} else {
					old = parkedStops(s)[typ]
				}
				before := t.PlaceOK(ctx, old)
				p := params{"new_client_order_id": cloids.New(), "quantity": s.Qty(20).String(), "price": old["price"]}
				if typ == "limit" {
					p["price"] = s.Low(4).String()
				}
				ex := replace(ctx, t, old["client_order_id"], p.Without(missing))
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "replacing a %s order without %s", typ, missing)
				after := t.GetOK(ctx, old["client_order_id"])
				for _, k := range []string{"id", "status", "quantity", "price"} {
					Expect(after[k]).To(Equal(before[k]), "field %s of the %s order is unchanged by the refused replace", k, typ)
				}
			},
			Entry(nil, "limit", "quantity"), Entry(nil, "limit", "price"),
			Entry(nil, "stopLimit", "price"), Entry(nil, "takeProfitLimit", "price"),
			Entry(nil, "stopLimit", "quantity"),
		)
	})

	framework.ConformanceContext("V3-SPOT-REPLACE-STRICT", func() {
		DescribeTable("refuses an off-step replace under strict_validate and leaves the order as it was",
			func(ctx SpecContext, off func(trading.Symbol, params) params) {
				old := restingBuy(s, 3)
				before := t.PlaceOK(ctx, old)
				p := off(s, params{"new_client_order_id": cloids.New(), "quantity": s.Qty(20).String(), "price": s.Low(4).String(), "strict_validate": "true"})
				ex := replace(ctx, t, old["client_order_id"], p)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "replace with strict_validate: %s", p)
				after := t.GetOK(ctx, old["client_order_id"])
				for _, k := range []string{"id", "status", "quantity", "price"} {
					Expect(after[k]).To(Equal(before[k]), "field %s of the order is unchanged by the refused replace", k)
				}
			},
			Entry("a price half a tick off", func(s trading.Symbol, p params) params {
				return p.With("price", s.Low(4).Add(s.Tick.Div(decimal.NewFromInt(2))).String())
			}),
			Entry("a quantity half a step off", func(s trading.Symbol, p params) params {
				return p.With("quantity", s.Qty(20).Add(s.Step.Div(decimal.NewFromInt(2))).String())
			}),
		)
		It("accepts on-step values under strict_validate", func(ctx SpecContext) {
			old := restingBuy(s, 3)
			t.PlaceOK(ctx, old)
			price := s.Low(4)
			ex := replace(ctx, t, old["client_order_id"], params{"new_client_order_id": cloids.New(), "quantity": s.Qty(20).String(), "price": price.String(), "strict_validate": "true"})
			Expect(ex).To(framework.BeOK(), "replace with on-step values and strict_validate")
			Expect(framework.ObjectOf(ex)["price"]).To(trading.DecEqual(price), "the replacing order has the price sent")
		})
	})

	framework.ConformanceIt("V3-SPOT-REPLACE-NEW-ID-OMITTED", func(ctx SpecContext) {
		old := restingBuy(s, 3)
		t.PlaceOK(ctx, old)
		ex := replace(ctx, t, old["client_order_id"], params{"quantity": s.Qty(20).String(), "price": s.Low(4).String()})
		got := "no order"
		if o, ok := trading.Decoded(ex).(map[string]any); ok && ex.Status == http.StatusOK {
			id, _ := o["client_order_id"].(string)
			if id != "" {
				t.CancelAtEnd(id)
			}
			got = fmt.Sprintf("client_order_id %q (the old one: %v), original_client_order_id %v", id, id == old["client_order_id"], o["original_client_order_id"])
		}
		framework.Observe("V3-SPOT-REPLACE-NEW-ID-OMITTED", "a replace without new_client_order_id was answered %s with %s", trading.Outcome(ex), got)
	})

	framework.ConformanceContext("V3-SPOT-CLOID-LEN-OTHER", func() {
		DescribeTable("refuses a new_client_order_id outside 8 to 32 characters and leaves the order as it was",
			func(ctx SpecContext, n int) {
				old := restingBuy(s, 3)
				before := t.PlaceOK(ctx, old)
				ex := replace(ctx, t, old["client_order_id"], params{"new_client_order_id": cloids.OfLen(n), "quantity": s.Qty(20).String(), "price": s.Low(4).String()})
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a new_client_order_id of %d characters", n)
				after := t.GetOK(ctx, old["client_order_id"])
				for _, k := range []string{"id", "status", "quantity", "price"} {
					Expect(after[k]).To(Equal(before[k]), "field %s of the order is unchanged by the refused replace", k)
				}
			},
			Entry("7 characters", 7), Entry("33 characters", 33),
		)
	})
})
