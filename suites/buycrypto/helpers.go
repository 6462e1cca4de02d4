// Package buycrypto holds the specs of the v3 Buy crypto family: the
// provider, method, currency and limit records, rates, and purchase orders
// with their listing filters and sort. Specs read the providers from the
// target and skip with the reason when it has none that fit.
package buycrypto

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// buyer is the full key, which has Payment information.
type buyer struct{ c *client.Client }

func newBuyer() *buyer {
	GinkgoHelper()
	return &buyer{c: framework.Current().Signed(target.RoleFull, framework.Basic)}
}

func (b *buyer) get(ctx context.Context, path string, q url.Values) *client.Exchange {
	GinkgoHelper()
	ex, _ := b.c.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Query: q})
	Expect(ex).NotTo(BeNil(), "GET %s: no exchange", path)
	return ex
}

// providers reads GET /buy-crypto/provider, skipping when there is none.
func (b *buyer) providers(ctx context.Context, q url.Values) []map[string]any {
	GinkgoHelper()
	ex := b.get(ctx, "/buy-crypto/provider", q)
	Expect(ex).To(framework.BeOK(), "listing the providers")
	var out []map[string]any
	for _, v := range framework.ArrayOf(ex) {
		m, ok := v.(map[string]any)
		Expect(ok).To(BeTrue(), "a provider is an object: %s", ex)
		out = append(out, m)
	}
	return out
}

func (b *buyer) someProviders(ctx context.Context) []map[string]any {
	GinkgoHelper()
	ps := b.providers(ctx, nil)
	if len(ps) == 0 {
		Skip("the target lists no buy-crypto provider")
	}
	return ps
}

func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func num(m map[string]any, k string) int64 {
	n, _ := m[k].(json.Number)
	v, _ := n.Int64()
	return v
}

// offer is one method's limit for one pair: what a rate or order can use.
type offer struct {
	provider, method int64
	source, target   string
	network          string // the target's network_code, when given
	min, max         decimal.Decimal
}

func (o offer) String() string {
	return fmt.Sprintf("provider %d method %d %s->%s [%s, %s]", o.provider, o.method, o.source, o.target, o.min, o.max)
}

// mid is an amount inside the limits other than their ends.
func (o offer) mid() decimal.Decimal {
	return o.min.Add(o.max).Div(decimal.NewFromInt(2)).Truncate(2)
}

// offers lists every (provider, method, limit) whose source and target the
// method lists among its supported currencies.
func (b *buyer) offers(ctx context.Context) []offer {
	GinkgoHelper()
	var out []offer
	for _, p := range b.someProviders(ctx) {
		for _, m := range objects(p["methods"]) {
			nets := map[string]string{}
			for _, c := range objects(m["supported_target"]) {
				nets[str(c, "code")] = str(c, "network_code")
			}
			for _, l := range objects(m["transaction_limits"]) {
				lo, err1 := decimal.NewFromString(str(l, "source_min"))
				hi, err2 := decimal.NewFromString(str(l, "source_max"))
				if err1 != nil || err2 != nil || !lo.IsPositive() || hi.LessThan(lo) {
					continue
				}
				out = append(out, offer{provider: num(p, "provider_id"), method: num(m, "id"), source: str(l, "currency_code"),
					target: str(l, "target_code"), network: nets[str(l, "target_code")], min: lo, max: hi})
			}
		}
	}
	if len(out) == 0 {
		Skip("no provider method of the target gives a transaction limit with a plain decimal source_min and source_max")
	}
	return out
}

// rate reads GET /buy-crypto/provider/{id}/rate.
func (b *buyer) rate(ctx context.Context, o offer, q url.Values) *client.Exchange {
	GinkgoHelper()
	q.Set("source", o.source)
	q.Set("target", o.target)
	return b.get(ctx, fmt.Sprintf("/buy-crypto/provider/%d/rate", o.provider), q)
}

// mayBuy skips a spec that creates purchase orders unless the target may
// trade.
func mayBuy() {
	GinkgoHelper()
	if ok, why := framework.Current().Config.MayTrade(); !ok {
		Skip("creates purchase orders: " + why)
	}
}

// place creates a purchase order through the offer's method.
func (b *buyer) place(ctx context.Context, o offer) map[string]any {
	GinkgoHelper()
	body := map[string]any{"source": o.source, "target": o.target, "source_amount": o.mid().String(), "payment_method_id": o.method}
	ex, _ := b.c.Do(ctx, client.Request{Method: http.MethodPost, Path: fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider), JSON: body})
	Expect(ex).To(framework.BeOK(), "creating a purchase order through %s", o)
	return framework.ObjectOf(ex)
}

// orders reads the order listing of a provider.
func (b *buyer) orders(ctx context.Context, provider int64, q url.Values) []map[string]any {
	GinkgoHelper()
	ex := b.get(ctx, fmt.Sprintf("/buy-crypto/provider/%d/order", provider), q)
	Expect(ex).To(framework.BeOK(), "listing the orders of provider %d with %s", provider, q.Encode())
	var out []map[string]any
	for _, v := range framework.ArrayOf(ex) {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out
}

func ids(os []map[string]any) []int64 {
	out := make([]int64, 0, len(os))
	for _, o := range os {
		out = append(out, num(o, "id"))
	}
	return out
}

// createdMS is an order's created_at in Unix milliseconds.
func createdMS(o map[string]any) int64 {
	GinkgoHelper()
	t, err := time.Parse(time.RFC3339Nano, str(o, "created_at"))
	Expect(err).NotTo(HaveOccurred(), "created_at %v is a date-time", o["created_at"])
	return t.UnixMilli()
}

// placeAfter creates orders through o until one is created in a later
// millisecond than ms (a few at most), so that creation times differ.
func (b *buyer) placeAfter(ctx context.Context, o offer, ms int64) map[string]any {
	GinkgoHelper()
	for range 200 {
		if ord := b.place(ctx, o); createdMS(ord) > ms {
			return ord
		}
	}
	Fail("200 purchase orders were all created within one millisecond")
	return nil
}
