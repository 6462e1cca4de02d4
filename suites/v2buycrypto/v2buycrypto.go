// Package v2buycrypto holds the specs of the v2 Buy crypto family
// (/api/2/buy-crypto/*): the camelCase provider, limit, rate and order
// records, the required parameters, and the same providers and orders as
// version 3.
package v2buycrypto

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = Describe("v2 buy crypto", func() {
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

	framework.ConformanceIt("V2-BUY-ORDERS-FROM-TILL", func(ctx SpecContext) {
		o := offers(ctx)[0]
		path := fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)
		c := v2(target.RoleFull)
		w := window(trading.TargetNow(ctx))
		Expect(get(ctx, c, path, url.Values{"till": w["till"]})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "the listing without from")
		Expect(get(ctx, c, path, url.Values{"from": w["from"]})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "the listing without till")
		Expect(get(ctx, c, path, w)).To(framework.BeOK(), "the listing with from and till")
	})

	// It creates an order, so it skips where the target may not trade;
	// it stands by V2-BUY-ORDERS-FROM-TILL, the other rule of from and till.
	framework.ConformanceIt("V2-BUY-ORDERS-WINDOW", func(ctx SpecContext) {
		mayBuy()
		o := offers(ctx)[0]
		ord := place(ctx, o)
		id, at := num(ord, "id"), createdAt(ord)
		c := v2(target.RoleFull)
		path := fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)
		// list reads the listing with from and till as given; ok is
		// false when the target does not answer it with an array.
		list := func(from, till int64) (ex *client.Exchange, listed []map[string]any, ok bool) {
			GinkgoHelper()
			ex = get(ctx, c, path, url.Values{"from": {fmt.Sprint(from)}, "till": {fmt.Sprint(till)}, "limit": {"1000"}})
			if ok, _ = framework.BeOK().Match(ex); !ok {
				return ex, nil, false
			}
			v, err := ex.JSON()
			if _, isArray := v.([]any); err != nil || !isArray {
				return ex, nil, false
			}
			return ex, objects(v), true
		}
		// The row says "Unix timestamps" and no unit: the v2 document's
		// own timestamps are ISO 8601 strings, and only version 3's
		// conventions count Unix time in milliseconds. So the spec takes
		// the unit from the target: the window of one unit either side of
		// the order's creation, in milliseconds and then in seconds. The
		// two readings of one number lie a thousandfold apart (now in
		// milliseconds read as seconds is some 50,000 years ahead, now in
		// seconds read as milliseconds is January 1970), so at most one
		// of them holds the order, and a target that reads neither fails.
		var unit time.Duration
		var tried []string
		for _, u := range []time.Duration{time.Millisecond, time.Second} {
			n := at.UnixNano() / int64(u)
			ex, listed, ok := list(n-1, n+1)
			if ok && containsID(listed, id) {
				unit = u
				break
			}
			tried = append(tried, fmt.Sprintf("in %v units: %s", u, ex))
		}
		if unit == 0 {
			Fail(fmt.Sprintf("V2-BUY-ORDERS-WINDOW: the order %d created at %s is listed within one unit either side of it neither in milliseconds nor in seconds:\n%s",
				id, at.Format(time.RFC3339Nano), strings.Join(tried, "\n")))
		}
		n := at.UnixNano() / int64(unit)
		hour := int64(time.Hour / unit)
		// Each window is one unit clear of the creation instant, so that
		// neither an inclusive nor an exclusive reading of its bounds, nor
		// a creation time finer than the unit, moves the order across it.
		for _, w := range []struct {
			from, till int64
			inside     bool
			what       string
		}{
			{n - 1, n + 1, true, "the window around its creation"},
			{n - hour, n - 1, false, "a window ending before its creation"},
			{n + 1, n + hour, false, "a window starting after its creation"},
		} {
			ex, listed, ok := list(w.from, w.till)
			Expect(ok).To(BeTrue(), "the v2 order listing with from=%d&till=%d (%v units)\nexchange: %s", w.from, w.till, unit, ex)
			if w.inside {
				Expect(containsID(listed, id)).To(BeTrue(), "the order %d created at %s is listed by %s, from=%d&till=%d (%v units)", id, at.Format(time.RFC3339Nano), w.what, w.from, w.till, unit)
			} else {
				Expect(containsID(listed, id)).To(BeFalse(), "the order %d created at %s is not listed by %s, from=%d&till=%d (%v units)", id, at.Format(time.RFC3339Nano), w.what, w.from, w.till, unit)
			}
			// Every listed order is created inside the window; till covers
			// its whole unit, the inclusive reading.
			lo, hi := time.Unix(0, w.from*int64(unit)), time.Unix(0, (w.till+1)*int64(unit))
			for _, l := range listed {
				t := createdAt(l)
				Expect(!t.Before(lo) && t.Before(hi)).To(BeTrue(), "order %v created at %s is listed by from=%d&till=%d (%v units), outside the window", l["id"], t.Format(time.RFC3339Nano), w.from, w.till, unit)
			}
		}
	})

	framework.ConformanceIt("V2-BUY-RIGHTS", func(ctx SpecContext) {
		for _, role := range []string{target.RoleReadOnly, target.RoleTradeOnly, target.RoleNoRights} {
			Expect(get(ctx, v2(role), "/buy-crypto/provider", nil)).To(framework.BeAPIError(http.StatusForbidden, 1003), "the provider listing with the %s key", role)
		}
	})

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

		// listing reads the v2 order listing of a provider around at (from
		// and till are required) with further parameters.
		listing := func(ctx SpecContext, provider int64, at time.Time, extra url.Values) []int64 {
			GinkgoHelper()
			q := window(at)
			for k, v := range extra {
				q[k] = v
			}
			ex := get(ctx, v2(target.RoleFull), fmt.Sprintf("/buy-crypto/provider/%d/order", provider), q)
			Expect(ex).To(framework.BeOK(), "the v2 order listing with %s", q.Encode())
			var out []int64
			for _, l := range objects(framework.JSONOf(ex)) {
				out = append(out, num(l, "id"))
			}
			return out
		}

		framework.ConformanceIt("V2-BUY-ORDERS-LIMIT-OFFSET", func(ctx SpecContext) {
			o := offers(ctx)[0]
			var last map[string]any
			for range 3 {
				last = place(ctx, o)
			}
			all := listing(ctx, o.provider, createdAt(last), url.Values{"limit": {"1000"}})
			Expect(len(all)).To(BeNumerically(">=", 3), "the three orders just created are listed")
			page := listing(ctx, o.provider, createdAt(last), url.Values{"limit": {"2"}, "offset": {"1"}})
			Expect(page).To(Equal(all[1:3]), "limit=2&offset=1 is the second and third of the listing %v", all)
		})

		framework.ConformanceIt("V2-BUY-ORDERS-NETWORK", func(ctx SpecContext) {
			os := offers(ctx)
			var x, y *offer
			for i := range os {
				for j := range os {
					if x == nil && os[i].provider == os[j].provider && os[i].network != "" && os[j].network != "" && !strings.EqualFold(os[i].network, os[j].network) {
						x, y = &os[i], &os[j]
					}
				}
			}
			if x == nil {
				Skip("no v2 provider delivers on two networks")
			}
			ox, oy := place(ctx, *x), place(ctx, *y)
			listed := listing(ctx, x.provider, createdAt(ox), url.Values{"targetNetworkCode": {x.network}, "limit": {"1000"}})
			Expect(listed).To(ContainElement(num(ox, "id")), "targetNetworkCode=%s lists the order delivering on it", x.network)
			Expect(listed).NotTo(ContainElement(num(oy, "id")), "targetNetworkCode=%s leaves the order delivering on %s out", x.network, y.network)
		})

		// The v2 order record shows no network, so the listing's
		// targetNetworkCode filter is the one place the created order's
		// network shows; the network is the one the target lists for the
		// offer's target currency, so the method can deliver on it.
		framework.ConformanceIt("V2-BUY-ORDER-NETWORK", func(ctx SpecContext) {
			os := offers(ctx)
			var o *offer
			for i := range os {
				if o == nil && os[i].network != "" {
					o = &os[i]
				}
			}
			if o == nil {
				Skip("no v2 provider method lists a networkCode for its target currency")
			}
			ord := placeWith(ctx, *o, map[string]any{"targetNetworkCode": o.network})
			listed := listing(ctx, o.provider, createdAt(ord), url.Values{"targetNetworkCode": {o.network}, "limit": {"1000"}})
			Expect(listed).To(ContainElement(num(ord, "id")), "the order created with targetNetworkCode=%s is listed by targetNetworkCode=%s", o.network, o.network)
		})

		framework.ConformanceIt("V2-BUY-V3-SAME", func(ctx SpecContext) {
			o := offers(ctx)[0]
			v3 := framework.Current().Signed(target.RoleFull, framework.Basic)
			ex, _ := v3.Get(ctx, "/buy-crypto/provider", nil)
			Expect(ex).To(framework.BeOK(), "the v3 provider listing")
			var v3ids, v2ids []int64
			for _, p := range objects(framework.JSONOf(ex)) {
				v3ids = append(v3ids, num(p, "provider_id"))
			}
			for _, p := range providers(ctx) {
				v2ids = append(v2ids, num(p, "providerID"))
			}
			Expect(v2ids).To(ConsistOf(v3ids), "the same providers through both versions")
			ord := place(ctx, o)
			ex, _ = v3.Get(ctx, fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider), url.Values{"limit": {"1000"}})
			Expect(ex).To(framework.BeOK(), "the v3 order listing")
			var listed []int64
			for _, l := range objects(framework.JSONOf(ex)) {
				listed = append(listed, num(l, "id"))
			}
			Expect(listed).To(ContainElement(num(ord, "id")), "the order created through v2 is listed through v3 with the same id")
		})
	})
})
