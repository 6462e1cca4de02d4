package v2buycrypto

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

func v2(role string) *client.Client {
	GinkgoHelper()
	return framework.Current().V2Signed(role)
}

func get(ctx context.Context, c *client.Client, path string, q url.Values) *client.Exchange {
	GinkgoHelper()
	ex, _ := c.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Query: q})
	Expect(ex).NotTo(BeNil())
	return ex
}

func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	var out []map[string]any
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func num(m map[string]any, k string) int64 {
	n, _ := m[k].(json.Number)
	v, _ := n.Int64()
	return v
}

// providers reads the v2 provider listing, skipping when empty.
func providers(ctx context.Context) []map[string]any {
	GinkgoHelper()
	ex := get(ctx, v2(target.RoleFull), "/buy-crypto/provider", nil)
	Expect(ex).To(framework.BeOK(), "listing the providers through v2")
	ps := objects(framework.JSONOf(ex))
	if len(ps) == 0 {
		Skip("the target lists no buy-crypto provider")
	}
	return ps
}

// sells reports whether a v2 provider has a method taking source and
// delivering target.
func sells(p map[string]any, source, target string) bool {
	has := func(cs any, code string) bool {
		for _, c := range objects(cs) {
			if strings.EqualFold(str(c, "code"), code) {
				return true
			}
		}
		return false
	}
	for _, m := range objects(p["methods"]) {
		if has(m["supportedSource"], source) && has(m["supportedTarget"], target) {
			return true
		}
	}
	return false
}

// offer is a method's limit for a pair, read from the v2 listing.
type offer struct {
	provider, method int64
	source, target   string
	network          string // the target's networkCode, when given
	mid              decimal.Decimal
}

func offers(ctx context.Context) []offer {
	GinkgoHelper()
	var out []offer
	for _, p := range providers(ctx) {
		for _, m := range objects(p["methods"]) {
			nets := map[string]string{}
			for _, c := range objects(m["supportedTarget"]) {
				nets[str(c, "code")] = str(c, "networkCode")
			}
			for _, l := range objects(m["transactionLimits"]) {
				lo, err1 := decimal.NewFromString(str(l, "sourceMin"))
				hi, err2 := decimal.NewFromString(str(l, "sourceMax"))
				if err1 == nil && err2 == nil && lo.IsPositive() && !hi.LessThan(lo) {
					out = append(out, offer{provider: num(p, "providerID"), method: num(m, "id"), source: str(l, "currencyCode"),
						target: str(l, "targetCode"), network: nets[str(l, "targetCode")], mid: lo.Add(hi).Div(decimal.NewFromInt(2)).Truncate(2)})
				}
			}
		}
	}
	if len(out) == 0 {
		Skip("no v2 provider method gives a transaction limit with decimal sourceMin and sourceMax")
	}
	return out
}

func mayBuy() {
	GinkgoHelper()
	if ok, why := framework.Current().Config.MayTrade(); !ok {
		Skip("creates purchase orders: " + why)
	}
}

func place(ctx context.Context, o offer) map[string]any {
	GinkgoHelper()
	return placeWith(ctx, o, nil)
}

// placeWith creates a purchase order of the offer with the required fields
// and the optional ones of extra.
func placeWith(ctx context.Context, o offer, extra map[string]any) map[string]any {
	GinkgoHelper()
	body := map[string]any{"source": o.source, "target": o.target, "sourceAmount": o.mid.String(), "paymentMethodId": o.method}
	for k, v := range extra {
		body[k] = v
	}
	ex, _ := v2(target.RoleFull).Do(ctx, client.Request{Method: http.MethodPost, Path: fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider), JSON: body})
	Expect(ex).To(framework.BeOK(), "creating a purchase order through v2 with %v", extra)
	return framework.ObjectOf(ex)
}

func containsID(os []map[string]any, id int64) bool {
	for _, o := range os {
		if num(o, "id") == id {
			return true
		}
	}
	return false
}

// window is a from/till pair a day either side of at.
func window(at time.Time) url.Values {
	return url.Values{"from": {fmt.Sprint(at.Add(-24 * time.Hour).UnixMilli())}, "till": {fmt.Sprint(at.Add(24 * time.Hour).UnixMilli())}}
}

// createdAt is when the target says it created a purchase order: listings
// are windowed around it, not around this machine's clock, which the
// target's need not follow (the emulator's may have been moved by a spec
// running meanwhile).
func createdAt(o map[string]any) time.Time {
	GinkgoHelper()
	t, err := time.Parse(time.RFC3339Nano, str(o, "createdAt"))
	Expect(err).NotTo(HaveOccurred(), "createdAt of the purchase order %v", o)
	return t
}
