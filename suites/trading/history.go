package trading

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// History reads GET {venue}/history/order with the query q.
func (t *Trader) History(ctx context.Context, q url.Values) []Order {
	GinkgoHelper()
	ex, _ := t.Client.Get(ctx, t.Venue.Prefix+"/history/order", q)
	Expect(ex).To(framework.BeOK(), "reading the %s order history of %s with %s", t.Venue, t.Role, q.Encode())
	return Objects(ex)
}

// OrderOf returns an order as the target shows it now: from GET
// {venue}/order/{id} while it is active, otherwise its newest history record
// (nil when neither knows it).
func (t *Trader) OrderOf(ctx context.Context, cloid string) Order {
	GinkgoHelper()
	if ex, _ := t.Client.Get(ctx, t.orders()+"/"+cloid, nil); ex != nil && ex.Status == http.StatusOK {
		if o, ok := Decoded(ex).(map[string]any); ok {
			return o
		}
	}
	return Newest(t.History(ctx, url.Values{"client_order_id": {cloid}}))
}

// StatusOf is the status of OrderOf ("" when the order is unknown).
func (t *Trader) StatusOf(ctx context.Context, cloid string) string {
	GinkgoHelper()
	s, _ := t.OrderOf(ctx, cloid)["status"].(string)
	return s
}

// EventuallyStatus waits for an order's status to satisfy m (a matcher, or a
// value it must equal): a status that follows another account's trade or a
// clock move may be applied a moment later on a real target.
func (t *Trader) EventuallyStatus(ctx context.Context, cloid string, m any, why string) {
	GinkgoHelper()
	t.EventuallyStatusWithin(ctx, cloid, m, framework.Timeouts.Eventually, why)
}

// EventuallyStatusWithin is EventuallyStatus waiting up to d (a deadline in
// real time: an expire_time a few seconds ahead).
func (t *Trader) EventuallyStatusWithin(ctx context.Context, cloid string, m any, d time.Duration, why string) {
	GinkgoHelper()
	om, ok := m.(OmegaMatcher)
	if !ok {
		om = Equal(m)
	}
	Eventually(ctx, func(ctx context.Context) string { return t.StatusOf(ctx, cloid) }).
		WithTimeout(d).WithPolling(max(framework.Timeouts.Poll, d/50)).
		Should(om, "%s (status of %s order %s)", why, t.Venue, cloid)
}

// Finished places an order that rests and cancels it: a history record
// without executions.
func (t *Trader) Finished(ctx context.Context, p Params) Order {
	GinkgoHelper()
	t.PlaceOK(ctx, p)
	return t.CancelOK(ctx, p["client_order_id"])
}

// ExpectAtMost checks a history query beyond a documented maximum: refused
// with 10001, or answered with at most n records (clamped), both readings of
// a maximum.
func (t *Trader) ExpectAtMost(ctx context.Context, path string, q url.Values, n int, why string) {
	GinkgoHelper()
	ex, _ := t.Client.Get(ctx, path, q)
	Expect(ex).NotTo(BeNil(), "GET %s: no exchange", path)
	if ex.Status == http.StatusOK {
		Expect(len(Objects(ex))).To(BeNumerically("<=", n), "%s: answered with more records than the maximum allows\nexchange: %s", why, ex)
		return
	}
	Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), why)
}
