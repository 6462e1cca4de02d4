package buycrypto

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var currencySchema = framework.Schema{
	"code":         {Kind: framework.String},
	"display_name": {Kind: framework.String},
	"network_code": {Kind: framework.String, Optional: true},
}

// supports reports whether a provider has a method taking source and
// delivering target.
func supports(p map[string]any, source, target string) bool {
	has := func(cs any, code string) bool {
		return slices.ContainsFunc(objects(cs), func(c map[string]any) bool { return strings.EqualFold(str(c, "code"), code) })
	}
	for _, m := range objects(p["methods"]) {
		if has(m["supported_source"], source) && has(m["supported_target"], target) {
			return true
		}
	}
	return false
}

var _ = framework.AreaDescribe("Buy crypto: providers", func() {
	framework.ConformanceIt("V3-BUY-PROVIDERS", func(ctx SpecContext) {
		for _, p := range newBuyer().someProviders(ctx) {
			Expect(p).To(framework.MatchSchema(framework.Schema{
				"provider_id":   {Kind: framework.Number},
				"provider_name": {Kind: framework.String},
				"methods":       {Kind: framework.Array},
			}))
		}
	})

	framework.ConformanceIt("V3-BUY-PROVIDER-FILTER", func(ctx SpecContext) {
		b := newBuyer()
		all := b.someProviders(ctx)
		for _, p := range all {
			id := num(p, "provider_id")
			got := b.providers(ctx, url.Values{"provider_id": {fmt.Sprint(id)}})
			Expect(pids(got)).To(ConsistOf(id), "provider_id=%d selects that provider only (of %d)", id, len(all))
		}
	})

	framework.ConformanceIt("V3-BUY-PROVIDER-SOURCE-TARGET", func(ctx SpecContext) {
		b := newBuyer()
		all := b.someProviders(ctx)
		pairs := map[[2]string]bool{}
		for _, o := range b.offers(ctx) {
			pairs[[2]string{o.source, o.target}] = true
		}
		for pair := range pairs {
			var want []int64
			for _, p := range all {
				if supports(p, pair[0], pair[1]) {
					want = append(want, num(p, "provider_id"))
				}
			}
			got := b.providers(ctx, url.Values{"source": {pair[0]}, "target": {pair[1]}})
			Expect(pids(got)).To(ConsistOf(want), "source=%s&target=%s selects the providers with a method taking %s and delivering %s", pair[0], pair[1], pair[0], pair[1])
		}
	})

	framework.ConformanceIt("V3-BUY-METHOD-FIELDS", func(ctx SpecContext) {
		for _, p := range newBuyer().someProviders(ctx) {
			for _, m := range objects(p["methods"]) {
				Expect(m).To(framework.MatchSchema(framework.Schema{
					"id": {Kind: framework.Number}, "name": {Kind: framework.String}, "description": {Kind: framework.String},
					"method_type": {Kind: framework.String}, "logo_url": {Kind: framework.String}, "type": {Kind: framework.String},
					"supported_source": {Kind: framework.Array}, "supported_target": {Kind: framework.Array},
					"transaction_limits": {Kind: framework.Array},
				}), "a method of provider %v", p["provider_id"])
			}
		}
	})

	framework.ConformanceIt("V3-BUY-METHOD-STATUS", func(ctx SpecContext) {
		for _, p := range newBuyer().someProviders(ctx) {
			for _, m := range objects(p["methods"]) {
				Expect(m).To(framework.MatchSchema(framework.Schema{"status": {Kind: framework.String}}), "method %v", m["id"])
				if s := str(m, "status"); strings.EqualFold(s, "active") {
					Expect(s).To(BeElementOf("active", "ACTIVE"), "the status active in lower or upper case, method %v", m["id"])
				}
			}
		}
	})

	framework.ConformanceIt("V3-BUY-CURRENCY-FIELDS", func(ctx SpecContext) {
		for _, p := range newBuyer().someProviders(ctx) {
			for _, m := range objects(p["methods"]) {
				for _, k := range []string{"supported_source", "supported_target"} {
					for _, c := range objects(m[k]) {
						Expect(c).To(framework.MatchSchema(currencySchema), "%s of method %v", k, m["id"])
					}
				}
			}
		}
	})

	framework.ConformanceIt("V3-BUY-LIMIT-FIELDS", func(ctx SpecContext) {
		for _, p := range newBuyer().someProviders(ctx) {
			for _, m := range objects(p["methods"]) {
				for _, l := range objects(m["transaction_limits"]) {
					Expect(l).To(framework.MatchSchema(framework.Schema{
						"currency_code": {Kind: framework.String}, "target_code": {Kind: framework.String},
						"source_min": {Kind: framework.String}, "source_max": {Kind: framework.String},
						"network_code": {Kind: framework.String, Optional: true},
					}), "a limit of method %v", m["id"])
					lo, err1 := decimal.NewFromString(str(l, "source_min"))
					hi, err2 := decimal.NewFromString(str(l, "source_max"))
					if err1 == nil && err2 == nil {
						Expect(lo.LessThanOrEqual(hi)).To(BeTrue(), "source_min %s is at most source_max %s", lo, hi)
					}
				}
			}
		}
	})

	framework.ConformanceContext("V3-BUY-RIGHTS", func() {
		DescribeTable("a key lacking Payment information is refused with 1003", func(ctx SpecContext, role, name string) {
			k := framework.Current().Signed(role, framework.Basic)
			var req client.Request
			switch name {
			case "GET /buy-crypto/provider":
				req = client.Request{Method: http.MethodGet, Path: "/buy-crypto/provider"}
			case "GET /buy-crypto/provider/{id}/rate":
				o := newBuyer().offers(ctx)[0]
				req = client.Request{Method: http.MethodGet, Path: fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider), Query: url.Values{"source": {o.source}, "target": {o.target}}}
			case "GET /buy-crypto/provider/{id}/order":
				o := newBuyer().offers(ctx)[0]
				req = client.Request{Method: http.MethodGet, Path: fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)}
			default:
				mayBuy()
				o := newBuyer().offers(ctx)[0]
				req = client.Request{Method: http.MethodPost, Path: fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider),
					JSON: map[string]any{"source": o.source, "target": o.target, "source_amount": o.mid().String(), "payment_method_id": o.method}}
			}
			ex, _ := k.Do(ctx, req)
			Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with the %s key", name, role)
		}, rightsEntries())
	})
})

func rightsEntries() []TableEntry {
	var out []TableEntry
	for _, name := range []string{"GET /buy-crypto/provider", "GET /buy-crypto/provider/{id}/rate", "GET /buy-crypto/provider/{id}/order", "POST /buy-crypto/provider/{id}/order"} {
		for _, role := range []string{target.RoleReadOnly, target.RoleTradeOnly, target.RoleNoRights} {
			out = append(out, Entry(fmt.Sprintf("%s key: %s", role, name), role, name))
		}
	}
	return out
}

var _ = framework.AreaDescribe("Buy crypto: rates", func() {
	priceSchema := framework.Schema{
		"payment_method_id": {Kind: framework.Number}, "type": {Kind: framework.String},
		"target_code": {Kind: framework.String}, "source_code": {Kind: framework.String},
		"target_amount": {Kind: framework.String}, "source_amount": {Kind: framework.String},
	}
	prices := func(ex *client.Exchange) []map[string]any {
		GinkgoHelper()
		Expect(ex).To(framework.BeOK(), "reading a rate")
		return objects(framework.ObjectOf(ex)["prices"])
	}

	framework.ConformanceIt("V3-BUY-RATE-FIELDS", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		ex := b.rate(ctx, o, url.Values{"source_amount": {o.mid().String()}})
		Expect(ex).To(framework.BeOK(), "a rate for %s", o)
		body := framework.ObjectOf(ex)
		Expect(body).To(framework.MatchSchema(framework.Schema{"spot_price": {Kind: framework.String}, "prices": {Kind: framework.Array}}))
		for _, p := range objects(body["prices"]) {
			Expect(p).To(framework.MatchSchema(priceSchema))
			Expect(strings.ToUpper(str(p, "source_code"))).To(Equal(strings.ToUpper(o.source)), "the requested source")
			Expect(strings.ToUpper(str(p, "target_code"))).To(Equal(strings.ToUpper(o.target)), "the requested target")
		}
	})

	framework.ConformanceIt("V3-BUY-RATE-SOURCE-AMOUNT", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		ps := prices(b.rate(ctx, o, url.Values{"source_amount": {o.mid().String()}}))
		Expect(ps).NotTo(BeEmpty(), "a price for %s within the limits", o.mid())
		for _, p := range ps {
			Expect(p["source_amount"]).To(trading.DecEqual(o.mid()), "source_amount of method %v", p["payment_method_id"])
		}
	})

	framework.ConformanceIt("V3-BUY-RATE-TARGET-AMOUNT", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		first := prices(b.rate(ctx, o, url.Values{"source_amount": {o.mid().String()}}))
		Expect(first).NotTo(BeEmpty(), "a price for %s within the limits", o.mid())
		want, err := decimal.NewFromString(str(first[0], "target_amount"))
		Expect(err).NotTo(HaveOccurred(), "target_amount is a decimal")
		ps := prices(b.rate(ctx, o, url.Values{"target_amount": {want.String()}}))
		Expect(ps).NotTo(BeEmpty(), "a price for target_amount %s", want)
		for _, p := range ps {
			Expect(p["target_amount"]).To(trading.DecEqual(want), "target_amount of method %v", p["payment_method_id"])
		}
	})

	framework.ConformanceIt("V3-BUY-RATE-LIMITS", func(ctx SpecContext) {
		b := newBuyer()
		for _, o := range b.offers(ctx) {
			beyond := o.max.Add(decimal.NewFromInt(1))
			ex := b.rate(ctx, o, url.Values{"source_amount": {beyond.String()}, "payment_method_id": {fmt.Sprint(o.method)}})
			if ex.Status != http.StatusOK {
				trading.ExpectRefusal(ex, fmt.Sprintf("a rate for %s beyond the limit of %s", beyond, o))
				continue
			}
			for _, p := range objects(framework.ObjectOf(ex)["prices"]) {
				if num(p, "payment_method_id") != o.method {
					continue
				}
				amt, _ := decimal.NewFromString(str(p, "source_amount"))
				Expect(amt.GreaterThan(o.max)).To(BeFalse(), "method %d offers no price beyond source_max %s, yet quotes %s", o.method, o.max, amt)
			}
		}
	})

	framework.ConformanceIt("V3-BUY-RATE-REQUIRED", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		path := fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider)
		// The row marks source_amount, target_amount and payment_method_id
		// optional and source and target not: those two are required
		// (Conventions: an optional request field is marked optional).
		Expect(b.get(ctx, path, url.Values{"target": {o.target}, "source_amount": {o.mid().String()}})).To(
			framework.BeAPIError(http.StatusBadRequest, 10001), "a rate without source")
		Expect(b.get(ctx, path, url.Values{"source": {o.source}, "source_amount": {o.mid().String()}})).To(
			framework.BeAPIError(http.StatusBadRequest, 10001), "a rate without target")
	})

	framework.ConformanceIt("V3-BUY-RATE-METHOD", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		ps := prices(b.rate(ctx, o, url.Values{"source_amount": {o.mid().String()}, "payment_method_id": {fmt.Sprint(o.method)}}))
		Expect(ps).NotTo(BeEmpty(), "a price of method %d", o.method)
		for _, p := range ps {
			Expect(num(p, "payment_method_id")).To(Equal(o.method), "payment_method_id=%d restricts the prices to that method", o.method)
		}
	})
})

// pids lists the provider_id of providers.
func pids(ps []map[string]any) []int64 {
	out := make([]int64, 0, len(ps))
	for _, p := range ps {
		out = append(out, num(p, "provider_id"))
	}
	return out
}
