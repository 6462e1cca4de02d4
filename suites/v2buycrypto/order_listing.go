package v2buycrypto

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// listing reads the v2 order listing of a provider around at (from
// and till are required) with further parameters.
func listing(ctx SpecContext, provider int64, at time.Time, extra url.Values) []int64 {
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

var _ = framework.AreaDescribe("v2 buy crypto", func() {
	Context("orders", func() {
		BeforeEach(func() { mayBuy() })

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
