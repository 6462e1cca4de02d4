package buycrypto

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var orderSchema = framework.Schema{
	"id": {Kind: framework.Number}, "provider_id": {Kind: framework.Number},
	"order_type": {Kind: framework.String}, "source_code": {Kind: framework.String}, "target_code": {Kind: framework.String},
	"wallet_address": {Kind: framework.String}, "checkout_url": {Kind: framework.String}, "status": {Kind: framework.String},
	"created_at": {Kind: framework.DateTime}, "operation_id": {Kind: framework.String},
}

var statuses = []any{"initial", "in_progress", "completed", "failed", "expired"}

// twoTargets finds two offers of one provider method... of one provider
// with different targets (and, when networks matter, different networks),
// skipping when there are none.
func twoTargets(ctx SpecContext, b *buyer, needNetworks bool) (offer, offer) {
	GinkgoHelper()
	os := b.offers(ctx)
	for _, x := range os {
		for _, y := range os {
			if x.provider == y.provider && x.source == y.source && !strings.EqualFold(x.target, y.target) &&
				(!needNetworks || (x.network != "" && y.network != "" && !strings.EqualFold(x.network, y.network))) {
				return x, y
			}
		}
	}
	Skip("no provider of the target sells two different targets for one source" + map[bool]string{true: " on different networks", false: ""}[needNetworks])
	return offer{}, offer{}
}

var _ = framework.AreaDescribe("Buy crypto: purchase orders", func() {
	BeforeEach(func() { mayBuy() })

	framework.ConformanceIt("V3-BUY-ORDER-FIELDS", func(ctx SpecContext) {
		b := newBuyer()
		Expect(b.place(ctx, b.offers(ctx)[0])).To(framework.MatchSchema(orderSchema))
	})

	framework.ConformanceIt("V3-BUY-ORDER-VALUES", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		ord := b.place(ctx, o)
		Expect(ord["order_type"]).To(Equal("buy"))
		Expect(num(ord, "provider_id")).To(Equal(o.provider), "provider_id of the path")
		Expect(strings.ToUpper(str(ord, "source_code"))).To(Equal(strings.ToUpper(o.source)), "the requested source")
		Expect(strings.ToUpper(str(ord, "target_code"))).To(Equal(strings.ToUpper(o.target)), "the requested target")
	})

	framework.ConformanceContext("V3-BUY-ORDER-REQUIRED", func() {
		// The POST row marks target_amount, ip, user_agent and
		// target_network_code optional and the other four not: those are
		// required (Conventions: an optional request field is marked optional).
		DescribeTable("a buy order without a required field is refused with 10001 and creates nothing",
			func(ctx SpecContext, field string) {
				b := newBuyer()
				o := b.offers(ctx)[0]
				before := ids(b.orders(ctx, o.provider, url.Values{"limit": {"1000"}}))
				body := map[string]any{"source": o.source, "target": o.target, "source_amount": o.mid().String(), "payment_method_id": o.method}
				delete(body, field)
				ex, _ := b.c.Do(ctx, client.Request{Method: http.MethodPost, Path: fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider), JSON: body})
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a buy order without %s", field)
				Expect(ids(b.orders(ctx, o.provider, url.Values{"limit": {"1000"}}))).To(ConsistOf(before), "the refused order without %s is not listed", field)
			},
			Entry("without target", "target"),
			Entry("without source", "source"),
			Entry("without source_amount", "source_amount"),
			Entry("without payment_method_id", "payment_method_id"),
		)
	})

	framework.ConformanceIt("V3-BUY-ORDER-STATUS", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		Expect(b.place(ctx, o)["status"]).To(BeElementOf(statuses...), "the status of a created order")
		for _, ord := range b.orders(ctx, o.provider, nil) {
			Expect(ord["status"]).To(BeElementOf(statuses...), "the status of listed order %v", ord["id"])
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-LIST", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		ord := b.place(ctx, o)
		listed := b.orders(ctx, o.provider, url.Values{"limit": {"1000"}})
		Expect(ids(listed)).To(ContainElement(num(ord, "id")), "the created order is listed")
		for _, l := range listed {
			Expect(l).To(framework.MatchSchema(orderSchema))
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-PROVIDER", func(ctx SpecContext) {
		b := newBuyer()
		os := b.offers(ctx)
		var other *offer
		for i := range os {
			if os[i].provider != os[0].provider {
				other = &os[i]
				break
			}
		}
		if other == nil {
			Skip("the target has one buy-crypto provider with limits only")
		}
		b.place(ctx, os[0])
		b.place(ctx, *other)
		for _, l := range b.orders(ctx, os[0].provider, url.Values{"limit": {"1000"}}) {
			Expect(num(l, "provider_id")).To(Equal(os[0].provider), "the listing of provider %d holds its orders only", os[0].provider)
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-OPTIONAL", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		b.orders(ctx, o.provider, nil)
	})
})

var _ = framework.AreaDescribe("Buy crypto: purchase orders", func() {
	BeforeEach(func() { mayBuy() })

	framework.ConformanceIt("V3-BUY-ORDERS-FROM-TILL", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		first := b.place(ctx, o)
		second := b.placeAfter(ctx, o, createdMS(first))
		third := b.placeAfter(ctx, o, createdMS(second))
		from, till := createdMS(second), createdMS(second)
		listed := b.orders(ctx, o.provider, url.Values{"from": {fmt.Sprint(from)}, "till": {fmt.Sprint(till)}, "limit": {"1000"}})
		Expect(ids(listed)).To(ContainElement(num(second, "id")), "the order created at %d is within from=%d&till=%d", from, from, till)
		Expect(ids(listed)).NotTo(ContainElements(num(first, "id")), "the order created before from is not listed")
		Expect(ids(listed)).NotTo(ContainElements(num(third, "id")), "the order created after till is not listed")
		for _, l := range listed {
			Expect(createdMS(l)).To(And(BeNumerically(">=", from), BeNumerically("<=", till)), "order %v created within from and till", l["id"])
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-LIMIT-OFFSET", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		for range 3 {
			b.place(ctx, o)
		}
		all := ids(b.orders(ctx, o.provider, url.Values{"sort": {"asc"}, "limit": {"1000"}}))
		Expect(len(all)).To(BeNumerically(">=", 3))
		page := ids(b.orders(ctx, o.provider, url.Values{"sort": {"asc"}, "limit": {"2"}, "offset": {"1"}}))
		Expect(page).To(Equal(all[1:3]), "limit=2&offset=1 is the second and third of the listing %v", all)
	})

	framework.ConformanceIt("V3-BUY-ORDERS-CODES", func(ctx SpecContext) {
		b := newBuyer()
		x, y := twoTargets(ctx, b, false)
		ox, oy := b.place(ctx, x), b.place(ctx, y)
		byTarget := b.orders(ctx, x.provider, url.Values{"target_code": {x.target}, "limit": {"1000"}})
		Expect(ids(byTarget)).To(ContainElement(num(ox, "id")))
		Expect(ids(byTarget)).NotTo(ContainElement(num(oy, "id")), "target_code=%s leaves the %s order out", x.target, y.target)
		for _, l := range byTarget {
			Expect(strings.ToUpper(str(l, "target_code"))).To(Equal(strings.ToUpper(x.target)))
		}
		bySource := b.orders(ctx, x.provider, url.Values{"source_code": {x.source}, "limit": {"1000"}})
		Expect(ids(bySource)).To(ContainElements(num(ox, "id"), num(oy, "id")))
		for _, l := range bySource {
			Expect(strings.ToUpper(str(l, "source_code"))).To(Equal(strings.ToUpper(x.source)))
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-WALLET", func(ctx SpecContext) {
		b := newBuyer()
		x, y := twoTargets(ctx, b, false)
		ox, oy := b.place(ctx, x), b.place(ctx, y)
		wallet := str(ox, "wallet_address")
		listed := b.orders(ctx, x.provider, url.Values{"wallet_address": {wallet}, "limit": {"1000"}})
		Expect(ids(listed)).To(ContainElement(num(ox, "id")))
		for _, l := range listed {
			Expect(l["wallet_address"]).To(Equal(wallet), "wallet_address=%s lists that address's orders only", wallet)
		}
		if str(oy, "wallet_address") != wallet {
			Expect(ids(listed)).NotTo(ContainElement(num(oy, "id")))
		}
	})

	framework.ConformanceIt("V3-BUY-ORDERS-NETWORK", func(ctx SpecContext) {
		b := newBuyer()
		x, y := twoTargets(ctx, b, true)
		ox, oy := b.place(ctx, x), b.place(ctx, y)
		listed := ids(b.orders(ctx, x.provider, url.Values{"target_network_code": {x.network}, "limit": {"1000"}}))
		Expect(listed).To(ContainElement(num(ox, "id")), "the order delivering on %s", x.network)
		Expect(listed).NotTo(ContainElement(num(oy, "id")), "the order delivering on %s is left out", y.network)
	})

	framework.ConformanceIt("V3-BUY-ORDERS-SORT", func(ctx SpecContext) {
		b := newBuyer()
		o := b.offers(ctx)[0]
		first := b.place(ctx, o)
		b.placeAfter(ctx, o, createdMS(first))
		for _, dir := range []string{"asc", "desc"} {
			listed := b.orders(ctx, o.provider, url.Values{"order_by": {"created_at"}, "sort": {dir}, "limit": {"1000"}})
			Expect(len(listed)).To(BeNumerically(">=", 2))
			for i := 1; i < len(listed); i++ {
				a, c := createdMS(listed[i-1]), createdMS(listed[i])
				if dir == "asc" {
					Expect(a).To(BeNumerically("<=", c), "sort=asc: oldest first, orders %v then %v", listed[i-1]["id"], listed[i]["id"])
				} else {
					Expect(a).To(BeNumerically(">=", c), "sort=desc: newest first, orders %v then %v", listed[i-1]["id"], listed[i]["id"])
				}
			}
		}
	})
})
