package v2buycrypto

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 buy crypto", func() {
	Context("orders", func() {
		BeforeEach(func() { mayBuy() })

		framework.ConformanceIt("V2-BUY-ORDER-FIELDS", func(ctx SpecContext) {
			ord := place(ctx, offers(ctx)[0])
			Expect(ord).To(framework.MatchSchema(framework.Schema{
				"id": {Kind: framework.Number}, "providerId": {Kind: framework.Number}, "orderType": {Kind: framework.String},
				"sourceCode": {Kind: framework.String}, "targetCode": {Kind: framework.String}, "walletAddress": {Kind: framework.String},
				"checkoutURL": {Kind: framework.String}, "status": {Kind: framework.String}, "createdAt": {Kind: framework.DateTime},
			}))
			Expect(ord["orderType"]).To(Equal("buy"))
			Expect(ord["checkoutURL"]).NotTo(BeEmpty(), "checkoutURL leads to the provider widget page")
			Expect(ord["status"]).To(BeElementOf("initial", "in_progress", "completed", "failed", "expired"))
		})

		framework.ConformanceContext("V2-BUY-ORDER-REQUIRED", func() {
			DescribeTable("a v2 buy order without a required field is refused with 10001 and creates nothing",
				func(ctx SpecContext, field string) {
					o := offers(ctx)[0]
					c := v2(target.RoleFull)
					path := fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)
					listed := func() []int64 {
						q := window(trading.TargetNow(ctx))
						q.Set("limit", "1000")
						ex := get(ctx, c, path, q)
						Expect(ex).To(framework.BeOK(), "the v2 order listing")
						var out []int64
						for _, l := range objects(framework.JSONOf(ex)) {
							out = append(out, num(l, "id"))
						}
						return out
					}
					before := listed()
					body := map[string]any{"source": o.source, "target": o.target, "sourceAmount": o.mid.String(), "paymentMethodId": o.method}
					delete(body, field)
					ex, _ := c.Do(ctx, client.Request{Method: http.MethodPost, Path: path, JSON: body})
					Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a v2 buy order without %s", field)
					Expect(listed()).To(ConsistOf(before), "the refused order without %s is not listed", field)
				},
				Entry("without target", "target"),
				Entry("without source", "source"),
				Entry("without sourceAmount", "sourceAmount"),
				Entry("without paymentMethodId", "paymentMethodId"),
			)
		})

		framework.ConformanceIt("V2-BUY-ORDERS-FILTERS", func(ctx SpecContext) {
			os := offers(ctx)
			var x, y *offer
			for i := range os {
				for j := range os {
					if x == nil && os[i].provider == os[j].provider && !strings.EqualFold(os[i].target, os[j].target) {
						x, y = &os[i], &os[j]
					}
				}
			}
			if x == nil {
				Skip("no v2 provider sells two targets")
			}
			ox, oy := place(ctx, *x), place(ctx, *y)
			path := fmt.Sprintf("/buy-crypto/provider/%d/order", x.provider)
			c := v2(target.RoleFull)
			for _, f := range []struct{ k, v string }{{"targetCode", x.target}, {"sourceCode", x.source}, {"walletAddress", str(ox, "walletAddress")}} {
				q := window(createdAt(ox))
				q.Set(f.k, f.v)
				q.Set("limit", "1000")
				ex := get(ctx, c, path, q)
				Expect(ex).To(framework.BeOK())
				listed := objects(framework.JSONOf(ex))
				var got []int64
				for _, l := range listed {
					Expect(strings.EqualFold(str(l, f.k), f.v)).To(BeTrue(), "%s=%s lists matching orders only, yet %v", f.k, f.v, l)
					got = append(got, num(l, "id"))
				}
				Expect(got).To(ContainElement(num(ox, "id")), "%s=%s lists the matching order", f.k, f.v)
				if f.k == "targetCode" {
					Expect(got).NotTo(ContainElement(num(oy, "id")))
				}
			}
		})
	})
})
