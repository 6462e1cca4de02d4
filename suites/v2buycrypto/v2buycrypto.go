// Package v2buycrypto holds the specs of the v2 Buy crypto family
// (/api/2/buy-crypto/*): the camelCase provider, limit, rate and order
// records, the required parameters, and the same providers and orders as
// version 3.
package v2buycrypto

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = framework.AreaDescribe("v2 buy crypto", func() {
	framework.ConformanceIt("V2-BUY-PROVIDERS", func(ctx SpecContext) {
		cur := framework.Schema{"code": {Kind: framework.String}, "displayName": {Kind: framework.String}, "networkCode": {Kind: framework.String, Optional: true}}
		for _, p := range providers(ctx) {
			Expect(p).To(framework.MatchSchema(framework.Schema{"providerID": {Kind: framework.Number}, "providerName": {Kind: framework.String}, "methods": {Kind: framework.Array}}))
			for _, m := range objects(p["methods"]) {
				Expect(m).To(framework.MatchSchema(framework.Schema{
					"id": {Kind: framework.Number}, "name": {Kind: framework.String}, "description": {Kind: framework.String},
					"logoURL": {Kind: framework.String}, "status": {Kind: framework.String}, "type": {Kind: framework.String},
					"supportedSource": {Kind: framework.Array}, "supportedTarget": {Kind: framework.Array}, "transactionLimits": {Kind: framework.Array},
				}))
				for _, k := range []string{"supportedSource", "supportedTarget"} {
					for _, c := range objects(m[k]) {
						Expect(c).To(framework.MatchSchema(cur), "%s of method %v", k, m["id"])
					}
				}
			}
		}
	})

	framework.ConformanceIt("V2-BUY-PROVIDER-FILTER", func(ctx SpecContext) {
		all := providers(ctx)
		c := v2(target.RoleFull)
		for _, p := range all {
			id := num(p, "providerID")
			ex := get(ctx, c, "/buy-crypto/provider", url.Values{"providerId": {fmt.Sprint(id)}})
			Expect(ex).To(framework.BeOK(), "the provider listing with providerId %d", id)
			var got []int64
			for _, q := range objects(framework.JSONOf(ex)) {
				got = append(got, num(q, "providerID"))
			}
			Expect(got).To(ConsistOf(id), "providerId=%d selects that provider only", id)
		}
		o := offers(ctx)[0]
		ex := get(ctx, c, "/buy-crypto/provider", url.Values{"source": {o.source}, "target": {o.target}})
		Expect(ex).To(framework.BeOK(), "the provider listing with source %s and target %s", o.source, o.target)
		var got []int64
		for _, p := range objects(framework.JSONOf(ex)) {
			got = append(got, num(p, "providerID"))
			Expect(sells(p, o.source, o.target)).To(BeTrue(), "source=%s and target=%s list providers with a method for the pair, yet %v", o.source, o.target, p)
		}
		Expect(got).To(ContainElement(o.provider), "provider %d, whose method takes %s for %s, is listed", o.provider, o.source, o.target)
	})

	framework.ConformanceIt("V2-BUY-LIMIT-FIELDS", func(ctx SpecContext) {
		for _, p := range providers(ctx) {
			for _, m := range objects(p["methods"]) {
				for _, l := range objects(m["transactionLimits"]) {
					Expect(l).To(framework.MatchSchema(framework.Schema{
						"currencyCode": {Kind: framework.String}, "targetCode": {Kind: framework.String},
						"sourceMin": {Kind: framework.String}, "sourceMax": {Kind: framework.String}, "networkCode": {Kind: framework.String, Optional: true},
					}), "a limit of method %v", m["id"])
				}
			}
		}
	})

	framework.ConformanceIt("V2-BUY-RATE-FIELDS", func(ctx SpecContext) {
		o := offers(ctx)[0]
		ex := get(ctx, v2(target.RoleFull), fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider), url.Values{"source": {o.source}, "target": {o.target}, "sourceAmount": {o.mid.String()}})
		Expect(ex).To(framework.BeOK(), "a v2 rate")
		body := framework.ObjectOf(ex)
		Expect(body).To(framework.MatchSchema(framework.Schema{"spotPrice": {Kind: framework.String}, "prices": {Kind: framework.Array}}))
		for _, p := range objects(body["prices"]) {
			Expect(p).To(framework.MatchSchema(framework.Schema{
				"paymentMethodId": {Kind: framework.Number}, "type": {Kind: framework.String}, "targetCode": {Kind: framework.String},
				"sourceCode": {Kind: framework.String}, "targetAmount": {Kind: framework.String}, "sourceAmount": {Kind: framework.String},
			}))
		}
	})

	framework.ConformanceIt("V2-BUY-RATE-REQUIRED", func(ctx SpecContext) {
		o := offers(ctx)[0]
		path := fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider)
		c := v2(target.RoleFull)
		Expect(get(ctx, c, path, url.Values{"target": {o.target}})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a rate without source")
		Expect(get(ctx, c, path, url.Values{"source": {o.source}})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a rate without target")
	})

	framework.ConformanceIt("V2-BUY-RATE-PARAMS", func(ctx SpecContext) {
		o := offers(ctx)[0]
		c := v2(target.RoleFull)
		prices := func(q url.Values) []map[string]any {
			GinkgoHelper()
			q.Set("source", o.source)
			q.Set("target", o.target)
			ex := get(ctx, c, fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider), q)
			Expect(ex).To(framework.BeOK(), "a v2 rate with %s", q.Encode())
			ps := objects(framework.ObjectOf(ex)["prices"])
			Expect(ps).NotTo(BeEmpty(), "a v2 rate with %s within the method's limits has prices", q.Encode())
			return ps
		}
		bySource := prices(url.Values{"sourceAmount": {o.mid.String()}})
		for _, p := range bySource {
			Expect(p["sourceAmount"]).To(trading.DecEqual(o.mid), "sourceAmount=%s quotes that source amount (method %v)", o.mid, p["paymentMethodId"])
		}
		want, err := decimal.NewFromString(str(bySource[0], "targetAmount"))
		Expect(err).NotTo(HaveOccurred(), "targetAmount is a decimal string")
		for _, p := range prices(url.Values{"targetAmount": {want.String()}}) {
			Expect(p["targetAmount"]).To(trading.DecEqual(want), "targetAmount=%s quotes that target amount (method %v)", want, p["paymentMethodId"])
		}
		for _, p := range prices(url.Values{"sourceAmount": {o.mid.String()}, "paymentMethodId": {fmt.Sprint(o.method)}}) {
			Expect(num(p, "paymentMethodId")).To(Equal(o.method), "paymentMethodId=%d restricts the prices to that method", o.method)
		}
	})

	framework.ConformanceIt("V2-BUY-RIGHTS", func(ctx SpecContext) {
		for _, role := range []string{target.RoleReadOnly, target.RoleTradeOnly, target.RoleNoRights} {
			Expect(get(ctx, v2(role), "/buy-crypto/provider", nil)).To(framework.BeAPIError(http.StatusForbidden, 1003), "the provider listing with the %s key", role)
		}
	})
})
