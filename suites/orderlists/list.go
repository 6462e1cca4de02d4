package orderlists

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Contingency types of the order list table.
const (
	aon   = "allOrNone"
	oco   = "oneCancelOther"
	oto   = "oneTriggerOther"
	otoco = "oneTriggerOneCancelOther"
)

var (
	spotTypes   = []string{aon, oco, oto, otoco}
	marginTypes = []string{oco, oto, otoco}
)

// list is an order list request. An empty id or typ is left out of the body.
type list struct {
	id     string
	typ    string
	orders []params
}

func (l list) body() map[string]any {
	b := map[string]any{}
	if l.id != "" {
		b["order_list_id"] = l.id
	}
	if l.typ != "" {
		b["contingency_type"] = l.typ
	}
	os := make([]any, 0, len(l.orders))
	for _, o := range l.orders {
		os = append(os, o.JSON())
	}
	b["orders"] = os
	return b
}

func (l list) String() string {
	var parts []string
	for _, o := range l.orders {
		parts = append(parts, "{"+o.String()+"}")
	}
	return fmt.Sprintf("order_list_id=%q contingency_type=%q orders=[%s]", l.id, l.typ, strings.Join(parts, " "))
}

// cloids are the client_order_ids the list sends, in order.
func (l list) cloids() []string {
	var out []string
	for _, o := range l.orders {
		if id := o["client_order_id"]; id != "" {
			out = append(out, id)
		}
	}
	return out
}

// postList sends POST {venue}/order/list as JSON. The cancel of every order
// is registered before sending, the first order's last, so that cleanup
// cancels the primary of a contingent list first (its secondaries may go
// with it). Orders whose client_order_id the server generated are
// registered once the answer names them.
func (t *trader) postList(ctx context.Context, v trading.Venue, l list) *client.Exchange {
	GinkgoHelper()
	ids := l.cloids()
	for i := len(ids) - 1; i >= 0; i-- {
		t.On(v).CancelAtEnd(ids[i])
	}
	ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: v.Prefix + "/order/list", JSON: l.body()})
	Expect(ex).NotTo(BeNil(), "POST %s/order/list: no exchange", v.Prefix)
	if ex.Status == http.StatusOK {
		if arr, ok := trading.Decoded(ex).([]any); ok {
			for _, x := range arr {
				if o, ok := x.(map[string]any); ok {
					if id, ok := o["client_order_id"].(string); ok && id != "" && !contains(ids, id) {
						t.On(v).CancelAtEnd(id)
					}
				}
			}
		}
	}
	return ex
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// listOK sends a list the spec expects to be accepted and returns the
// answer's orders, one per order sent.
func (t *trader) listOK(ctx context.Context, v trading.Venue, l list) []order {
	GinkgoHelper()
	ex := t.postList(ctx, v, l)
	Expect(ex).To(framework.BeOK(), "a valid %s %s list\nlist: %s", v, l.typ, l)
	os := trading.Objects(ex)
	Expect(os).To(HaveLen(len(l.orders)), "the answer holds one order per order sent\nexchange: %s", ex)
	return os
}

// listRefused sends a list the spec expects to be refused with HTTP 400 and
// one of codes (any documented 4xx error when codes is empty), and checks
// that the refusal created nothing: the spot balances, the active orders and
// the margin accounts read before and after are the same, and no order of
// the list is active.
func (t *trader) listRefused(ctx context.Context, v trading.Venue, l list, codes []int, why string) *client.Exchange {
	GinkgoHelper()
	withMargin := v == trading.Margin
	before := t.state(ctx, withMargin)
	ex := t.postList(ctx, v, l)
	if len(codes) == 0 {
		trading.ExpectRefusal(ex, why+"\nlist: "+l.String())
	} else {
		status := http.StatusBadRequest
		if slices.Contains(codes, 20001) {
			status = framework.StatusClass4xx // the Errors table gives 20001 no HTTP status
		}
		Expect(ex).To(framework.BeAPIError(status, codes...), "%s\nlist: %s", why, l)
	}
	after := t.state(ctx, withMargin)
	expectSameState(before, after, why)
	ids := l.cloids()
	trading.Each(len(ids), func(i int) {
		Expect(t.On(v).Get(ctx, ids[i]).Status).NotTo(Equal(http.StatusOK), "%s: order %s of the refused list can be read back as an order", why, ids[i])
	})
	return ex
}

// refuse10001 is the code of a validation error.
var refuse10001 = []int{10001}
