package spot

import (
	"context"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// order is one decoded Order resource or order history record.
type order = map[string]any

// trader is one account of the target, seen through one key.
type trader struct {
	role string
	c    *client.Client
	acct target.Account
}

// newTrader returns a Basic-authenticated trader for role (skipping the spec
// when the target config has no key for it). Call it in the spec body, never
// in a goroutine or a cleanup: it registers cleanups of its own.
func newTrader(role string) *trader {
	GinkgoHelper()
	e := framework.Current()
	return &trader{role: role, c: e.Signed(role, framework.Basic), acct: e.Account(role)}
}

// encoding is how a POST body is sent; Conventions 3 allows both.
type encoding int

const (
	formBody encoding = iota
	jsonBody
)

func (en encoding) String() string { return [...]string{"form-encoded body", "JSON body"}[en] }

// params is an order request as a client builds it, every value a string.
type params map[string]string

// with returns a copy of p with the key/value pairs set.
func (p params) with(kv ...string) params {
	out := params{}
	for k, v := range p {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// without returns a copy of p without the keys.
func (p params) without(keys ...string) params {
	out := p.with()
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func (p params) form() url.Values {
	v := url.Values{}
	for k, x := range p {
		v.Set(k, x)
	}
	return v
}

// booleanParams are sent as JSON booleans in a JSON body.
var booleanParams = map[string]bool{"strict_validate": true, "post_only": true}

func (p params) json() map[string]any {
	out := map[string]any{}
	for k, x := range p {
		if booleanParams[k] && (x == "true" || x == "false") {
			out[k] = x == "true"
			continue
		}
		out[k] = x
	}
	return out
}

func (p params) String() string { return p.form().Encode() }

// place sends POST /spot/order. The cancel of the request's client_order_id
// is registered before sending, so that even an order the spec expects to be
// refused is not left behind when the target accepts it; a server-generated
// client_order_id is registered once it is known.
func (t *trader) place(ctx context.Context, p params, en ...encoding) *client.Exchange {
	GinkgoHelper()
	if id := p["client_order_id"]; id != "" {
		t.cancelAtEnd(id)
	}
	req := client.Request{Method: http.MethodPost, Path: "/spot/order"}
	if len(en) > 0 && en[0] == jsonBody {
		req.JSON = p.json()
	} else {
		req.Form = p.form()
	}
	ex, _ := t.c.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "POST /spot/order: no exchange")
	if _, sent := p["client_order_id"]; !sent && ex.Status == http.StatusOK {
		if o, ok := decoded(ex).(map[string]any); ok {
			if id, ok := o["client_order_id"].(string); ok && id != "" {
				t.cancelAtEnd(id)
			}
		}
	}
	return ex
}

// placeOK places an order that the spec expects to be accepted.
func (t *trader) placeOK(ctx context.Context, p params, en ...encoding) order {
	GinkgoHelper()
	ex := t.place(ctx, p, en...)
	Expect(ex).To(framework.BeOK(), "placing %s", p)
	return framework.ObjectOf(ex)
}

// placeRefused places an order that the spec expects to be refused with
// HTTP status and one of codes, and checks that no order was created.
func (t *trader) placeRefused(ctx context.Context, p params, status int, codes []int, why string, en ...encoding) *client.Exchange {
	GinkgoHelper()
	ex := t.place(ctx, p, en...)
	Expect(ex).To(framework.BeAPIError(status, codes...), "%s\nrequest: %s", why, p)
	if id := p["client_order_id"]; id != "" {
		Expect(t.isActive(ctx, id)).To(BeFalse(), "a refused request creates no order, yet %s is active", id)
	}
	return ex
}

// cancelAtEnd registers the cancel of an order when the spec ends. An order
// that is already final (or was never created) is fine; one that stays
// active fails the spec, since it would disturb later specs.
func (t *trader) cancelAtEnd(cloid string) {
	DeferCleanup(func(ctx SpecContext) {
		ex, err := t.c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/spot/order/" + cloid})
		if ex != nil && ex.Status == http.StatusOK {
			return
		}
		if a, ok := client.IsAPIError(err); ok && a.Code == 20002 {
			return
		}
		Expect(t.isActive(ctx, cloid)).To(BeFalse(), "cleanup: order %s could not be canceled and is still active", cloid)
	})
}

// cancel sends DELETE /spot/order/{client_order_id}.
func (t *trader) cancel(ctx context.Context, cloid string) *client.Exchange {
	GinkgoHelper()
	ex, _ := t.c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/spot/order/" + cloid})
	Expect(ex).NotTo(BeNil(), "DELETE /spot/order/%s: no exchange", cloid)
	return ex
}

// cancelOK cancels an order the spec expects to be active.
func (t *trader) cancelOK(ctx context.Context, cloid string) order {
	GinkgoHelper()
	ex := t.cancel(ctx, cloid)
	Expect(ex).To(framework.BeOK(), "canceling active order %s", cloid)
	return framework.ObjectOf(ex)
}

// get sends GET /spot/order/{client_order_id}.
func (t *trader) get(ctx context.Context, cloid string) *client.Exchange {
	GinkgoHelper()
	ex, _ := t.c.Get(ctx, "/spot/order/"+cloid, nil)
	Expect(ex).NotTo(BeNil(), "GET /spot/order/%s: no exchange", cloid)
	return ex
}

// getOK reads an order the spec expects to be active.
func (t *trader) getOK(ctx context.Context, cloid string) order {
	GinkgoHelper()
	ex := t.get(ctx, cloid)
	Expect(ex).To(framework.BeOK(), "reading active order %s", cloid)
	return framework.ObjectOf(ex)
}

// active lists the active orders (of symbol, when not empty).
func (t *trader) active(ctx context.Context, symbol string) []order {
	GinkgoHelper()
	var q url.Values
	if symbol != "" {
		q = url.Values{"symbol": {symbol}}
	}
	ex, _ := t.c.Get(ctx, "/spot/order", q)
	Expect(ex).To(framework.BeOK(), "listing active orders")
	return objects(ex)
}

// isActive reports whether GET /spot/order lists the client_order_id.
func (t *trader) isActive(ctx context.Context, cloid string) bool {
	GinkgoHelper()
	return findOrder(t.active(ctx, ""), cloid) != nil
}

// history reads GET /spot/history/order.
func (t *trader) history(ctx context.Context, q url.Values) []order {
	GinkgoHelper()
	ex, _ := t.c.Get(ctx, "/spot/history/order", q)
	Expect(ex).To(framework.BeOK(), "reading order history with %s", q.Encode())
	return objects(ex)
}

// statusOf returns an order's status: from GET /spot/order/{id} while it is
// active, otherwise from its newest history record ("" when neither has it).
func (t *trader) statusOf(ctx context.Context, cloid string) string {
	GinkgoHelper()
	if ex, _ := t.c.Get(ctx, "/spot/order/"+cloid, nil); ex != nil && ex.Status == http.StatusOK {
		if o, ok := decoded(ex).(map[string]any); ok {
			if s, ok := o["status"].(string); ok {
				return s
			}
		}
	}
	if recs := t.history(ctx, url.Values{"client_order_id": {cloid}}); len(recs) > 0 {
		s, _ := newest(recs)["status"].(string)
		return s
	}
	return ""
}

// eventuallyStatus waits for an order's status to satisfy m (for changes
// that follow a trade or a clock move, which a target may apply a moment
// later).
func (t *trader) eventuallyStatus(ctx context.Context, cloid string, m any, why string) {
	GinkgoHelper()
	Eventually(ctx, func(ctx context.Context) string { return t.statusOf(ctx, cloid) }).
		WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
		Should(matcherOf(m), "%s (status of %s)", why, cloid)
}

func matcherOf(m any) OmegaMatcher {
	if om, ok := m.(OmegaMatcher); ok {
		return om
	}
	return Equal(m)
}

// bal is one currency of a spot balance.
type bal struct{ avail, reserved decimal.Decimal }

func (b bal) total() decimal.Decimal { return b.avail.Add(b.reserved) }

// balance reads GET /spot/balance/{currency}.
func (t *trader) balance(ctx context.Context, cur string) bal {
	GinkgoHelper()
	ex, _ := t.c.Get(ctx, "/spot/balance/"+cur, nil)
	Expect(ex).To(framework.BeOK(), "reading the %s balance of %s", cur, t.role)
	o := framework.ObjectOf(ex)
	return bal{avail: decField(o, "available"), reserved: decField(o, "reserved")}
}

// balances reads GET /spot/balance into a map by currency.
func (t *trader) balances(ctx context.Context) map[string]bal {
	GinkgoHelper()
	ex, _ := t.c.Get(ctx, "/spot/balance", nil)
	Expect(ex).To(framework.BeOK(), "reading the balances of %s", t.role)
	out := map[string]bal{}
	for _, o := range objects(ex) {
		cur, _ := o["currency"].(string)
		out[cur] = bal{avail: decField(o, "available"), reserved: decField(o, "reserved")}
	}
	return out
}

// snapshot reads several currencies at once.
func (t *trader) snapshot(ctx context.Context, curs ...string) map[string]bal {
	GinkgoHelper()
	out := map[string]bal{}
	for _, c := range curs {
		if _, done := out[c]; !done {
			out[c] = t.balance(ctx, c)
		}
	}
	return out
}
