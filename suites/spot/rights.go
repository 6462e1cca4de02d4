package spot

import (
	"maps"
	"net/http"
	"net/url"
	"slices"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rightsFixture is what every rights case refers to, created with the full
// key first: a resting order on s, so that a refusal can only be about the
// key.
type rightsFixture struct {
	s     trading.Symbol
	cloid string
}

// spotCall builds one spot request; full registers the cancel of anything
// the request may create, so that a faulty target letting it through leaves
// nothing behind.
type spotCall func(f rightsFixture, full *trading.Trader) client.Request

func bare(method, path string) spotCall {
	return func(rightsFixture, *trading.Trader) client.Request { return client.Request{Method: method, Path: path} }
}

// spotTrading are the rows the Spot trading table guards by Place/cancel
// orders.
var spotTrading = map[string]spotCall{
	"POST /spot/order": func(f rightsFixture, full *trading.Trader) client.Request {
		p := restingBuy(f.s, 4)
		full.CancelAtEnd(p["client_order_id"])
		return client.Request{Method: http.MethodPost, Path: "/spot/order", Form: p.Form()}
	},
	"POST /spot/order/list": func(f rightsFixture, full *trading.Trader) client.Request {
		a, b := restingBuy(f.s, 4), restingBuy(f.s, 5)
		full.CancelAtEnd(b["client_order_id"])
		full.CancelAtEnd(a["client_order_id"])
		return client.Request{Method: http.MethodPost, Path: "/spot/order/list",
			JSON: map[string]any{"contingency_type": "oneCancelOther", "orders": []any{a.JSON(), b.JSON()}}}
	},
	"PATCH /spot/order/{client_order_id}": func(f rightsFixture, full *trading.Trader) client.Request {
		id := cloids.New()
		full.CancelAtEnd(id)
		return client.Request{Method: http.MethodPatch, Path: "/spot/order/" + f.cloid,
			Form: params{"new_client_order_id": id, "quantity": f.s.Qty(20).String(), "price": f.s.Low(4).String()}.Form()}
	},
	"DELETE /spot/order": func(f rightsFixture, _ *trading.Trader) client.Request {
		return client.Request{Method: http.MethodDelete, Path: "/spot/order", Query: url.Values{"symbol": {f.s.Code}}}
	},
	"DELETE /spot/order/{client_order_id}": func(f rightsFixture, _ *trading.Trader) client.Request {
		return client.Request{Method: http.MethodDelete, Path: "/spot/order/" + f.cloid}
	},
	"GET /spot/fee/{symbol}": func(f rightsFixture, _ *trading.Trader) client.Request {
		return client.Request{Method: http.MethodGet, Path: "/spot/fee/" + f.s.Code}
	},
}

// spotReads are the rows guarded by Orderbook, History, Trading balance.
var spotReads = map[string]spotCall{
	"GET /spot/balance": bare(http.MethodGet, "/spot/balance"),
	"GET /spot/balance/{currency}": func(f rightsFixture, _ *trading.Trader) client.Request {
		return client.Request{Method: http.MethodGet, Path: "/spot/balance/" + f.s.Quote}
	},
	"GET /spot/order": bare(http.MethodGet, "/spot/order"),
	"GET /spot/order/{client_order_id}": func(f rightsFixture, _ *trading.Trader) client.Request {
		return client.Request{Method: http.MethodGet, Path: "/spot/order/" + f.cloid}
	},
	"GET /spot/fee":           bare(http.MethodGet, "/spot/fee"),
	"GET /spot/history/order": bare(http.MethodGet, "/spot/history/order"),
}

func spotRightsEntries() []TableEntry {
	return trading.RightsEntries(slices.Collect(maps.Keys(spotTrading)), slices.Collect(maps.Keys(spotReads)), true)
}

var _ = framework.AreaDescribe("Spot access rights", func() {
	framework.ConformanceContext("V3-SPOT-RIGHTS", func() {
		DescribeTable("each spot endpoint needs the access right of its row (1003, HTTP 403 without it)",
			func(ctx SpecContext, role, name string, allowed bool) {
				call, ok := spotTrading[name]
				if !ok {
					call = spotReads[name]
				}
				// The fixture places an order; so would a change a faulty
				// target let through.
				framework.Current().RequireTrading()
				full := newTrader(target.RoleFull)
				s := restingSymbol(ctx, full)
				p := restingBuy(s, 3)
				full.PlaceOK(ctx, p)
				f := rightsFixture{s: s, cloid: p["client_order_id"]}

				key := newTrader(role)
				ex, _ := key.Client.Do(ctx, call(f, full))
				if allowed {
					Expect(ex).To(framework.BeOK(), "%s with a %s key, which holds the access right", name, role)
					return
				}
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with a %s key, which lacks the access right", name, role)
			},
			spotRightsEntries(),
		)
	})
})
