package margin

import (
	"maps"
	"net/http"
	"slices"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rightsFixture is what every rights case refers to, created with the full
// key first: an isolated account on s, a cross account in its quote and a
// resting margin order, so that a refusal can only be about the key.
type rightsFixture struct {
	s     trading.Symbol
	cloid string
}

// call is one margin request a key may or may not make.
type call struct {
	method string
	path   func(f rightsFixture) string
	body   func(f rightsFixture, full *trader) client.Request
}

func (c call) request(f rightsFixture, full *trader) client.Request {
	req := client.Request{}
	if c.body != nil {
		req = c.body(f, full)
	}
	req.Method, req.Path = c.method, c.path(f)
	return req
}

func fixed(p string) func(rightsFixture) string { return func(rightsFixture) string { return p } }

// Margin changes need Place/cancel orders.
var changes = map[string]call{
	"PUT /margin/account/isolated/{symbol}": {http.MethodPut, func(f rightsFixture) string { return accountPath(isolated, f.s.Code) },
		func(f rightsFixture, _ *trader) client.Request {
			return client.Request{Form: params{"margin_balance": f.s.Low(1000).String()}.Form()}
		}},
	"POST /margin/order": {http.MethodPost, fixed("/margin/order"), func(f rightsFixture, full *trader) client.Request {
		p := restingBuy(f.s, 3)
		full.CancelAtEnd(p["client_order_id"])
		return client.Request{Form: p.Form()}
	}},
	"POST /margin/order/list": {http.MethodPost, fixed("/margin/order/list"), func(f rightsFixture, full *trader) client.Request {
		a, b := restingBuy(f.s, 3), restingBuy(f.s, 2)
		full.CancelAtEnd(b["client_order_id"])
		full.CancelAtEnd(a["client_order_id"])
		return client.Request{JSON: map[string]any{"contingency_type": "oneCancelOther", "orders": []any{a, b}}}
	}},
	"PATCH /margin/order/{client_order_id}": {http.MethodPatch, func(f rightsFixture) string { return "/margin/order/" + f.cloid },
		func(f rightsFixture, _ *trader) client.Request {
			return client.Request{Form: params{"quantity": f.s.Qty(20).String(), "price": f.s.Low(3).String()}.Form()}
		}},
	"DELETE /margin/order/{client_order_id}":    {http.MethodDelete, func(f rightsFixture) string { return "/margin/order/" + f.cloid }, nil},
	"DELETE /margin/order":                      {http.MethodDelete, fixed("/margin/order"), nil},
	"DELETE /margin/position":                   {http.MethodDelete, fixed("/margin/position"), nil},
	"DELETE /margin/position/isolated/{symbol}": {http.MethodDelete, func(f rightsFixture) string { return "/margin/position/isolated/" + f.s.Code }, nil},
}

// Margin reads need Orderbook, History, Trading balance.
var reads = map[string]call{
	"GET /margin/account":                   {http.MethodGet, fixed("/margin/account"), nil},
	"GET /margin/account/isolated/{symbol}": {http.MethodGet, func(f rightsFixture) string { return accountPath(isolated, f.s.Code) }, nil},
	"GET /margin/account/cross/{currency}":  {http.MethodGet, func(f rightsFixture) string { return accountPath(cross, f.s.Quote) }, nil},
	"GET /margin/order":                     {http.MethodGet, fixed("/margin/order"), nil},
	"GET /margin/order/{client_order_id}":   {http.MethodGet, func(f rightsFixture) string { return "/margin/order/" + f.cloid }, nil},
	"GET /margin/config":                    {http.MethodGet, fixed("/margin/config"), nil},
	"GET /margin/history/order":             {http.MethodGet, fixed("/margin/history/order"), nil},
	"GET /margin/history/trade":             {http.MethodGet, fixed("/margin/history/trade"), nil},
}

func rightsEntries() []TableEntry {
	return trading.RightsEntries(slices.Collect(maps.Keys(changes)), slices.Collect(maps.Keys(reads)), false)
}

var _ = framework.AreaDescribe("Margin access rights", func() {
	framework.ConformanceContext("V3-MARGIN-RIGHTS", func() {
		DescribeTable("margin reads need Orderbook, History, Trading balance and changes need Place/cancel orders (1003, HTTP 403)",
			func(ctx SpecContext, role, name string, allowed bool) {
				c, isChange := changes[name]
				if !isChange {
					c = reads[name]
				}
				// Fixtures move funds and place an order; so would a change
				// a faulty target let through.
				framework.Current().RequireTrading()
				full := newTrader(target.RoleFull)
				s := fundable(ctx, full, 1)[0]
				full.openIsolated(ctx, s)
				full.open(ctx, cross, s.Quote, full.collateral(ctx, s.Quote))
				p := restingBuy(s, 3)
				full.PlaceOK(ctx, p)
				f := rightsFixture{s: s, cloid: p["client_order_id"]}

				key := newTrader(role)
				ex, _ := key.Client.Do(ctx, c.request(f, full))
				if allowed {
					Expect(ex).To(framework.BeOK(), "%s with a %s key", name, role)
					return
				}
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with a %s key, which lacks the access right", name, role)
			},
			rightsEntries(),
		)
	})
})
