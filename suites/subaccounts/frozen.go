package subaccounts

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var cloids = trading.Cloids("sub")

// fundedSub funds the sub role's trading balance from the super account with
// a fiftieth of what the super holds in the quote currency of a working
// symbol (margin-enabled when margin is set), and answers the symbol.
func fundedSub(ctx context.Context, s *super, margin bool) trading.Symbol {
	GinkgoHelper()
	id := subID(target.RoleSub)
	for _, sym := range trading.WorkingSymbols(ctx) {
		if margin && !sym.Margin {
			continue
		}
		avail := s.spot(ctx, sym.Quote)
		places := min(int32(4), max(0, -precision(ctx, sym.Quote).Exponent()))
		amt := avail.Div(decimal.NewFromInt(50)).Truncate(places)
		if amt.IsPositive() {
			s.transferOK(ctx, id, amt, sym.Quote, "to_sub_account")
			return sym
		}
	}
	Skip("the super account holds the quote currency of no working symbol to fund its sub-account with")
	return trading.Symbol{}
}

// isActive reports whether the sub role has the order active on venue.
func isActive(ctx context.Context, t *trading.Trader, cloid string) bool {
	GinkgoHelper()
	ex := t.Get(ctx, cloid)
	return ex.Status == http.StatusOK
}

var _ = framework.AreaDescribe("Sub-account freeze: orders and funds", func() {
	BeforeEach(func() { mayChange() })

	framework.ConformanceIt("V3-SUBACC-FREEZE-CANCELS", func(ctx SpecContext) {
		s := newSuper()
		sym := fundedSub(ctx, s, false)
		t := trading.NewTrader(target.RoleSub, trading.Spot)
		p := sym.RestingBuy(cloids.New(), 3)
		t.PlaceOK(ctx, p)
		s.freezeForSpec(ctx, subID(target.RoleSub))
		Expect(resultOf(s.activate(ctx, subID(target.RoleSub)))).To(Equal(true), "activating the sub-account to read its orders")
		Expect(isActive(ctx, t, p["client_order_id"])).To(BeFalse(), "the spot order %s was canceled by the freeze", p["client_order_id"])
	})

	framework.ConformanceIt("V3-SUBACC-FREEZE-CANCELS-MARGIN", func(ctx SpecContext) {
		s := newSuper()
		sym := fundedSub(ctx, s, true)
		t := trading.NewTrader(target.RoleSub, trading.Margin)
		bal := t.Balance(ctx, sym.Quote).Avail.Div(decimal.NewFromInt(2)).Truncate(4)
		path := "/margin/account/isolated/" + sym.Code
		DeferCleanup(func(ctx SpecContext) { t.Do(ctx, http.MethodPut, path, trading.Params{"margin_balance": "0"}) })
		Expect(t.Do(ctx, http.MethodPut, path, trading.Params{"margin_balance": bal.String()})).To(framework.BeOK(), "opening an isolated margin account for the sub-account")
		p := sym.RestingBuy(cloids.New(), 3)
		t.PlaceOK(ctx, p)
		s.freezeForSpec(ctx, subID(target.RoleSub))
		Expect(resultOf(s.activate(ctx, subID(target.RoleSub)))).To(Equal(true), "activating the sub-account to read its orders")
		Expect(isActive(ctx, t, p["client_order_id"])).To(BeFalse(), "the margin order %s was canceled by the freeze", p["client_order_id"])
	})

	framework.ConformanceIt("V3-SUBACC-FREEZE-LISTS", func(ctx SpecContext) {
		s := newSuper()
		sym := fundedSub(ctx, s, false)
		t := trading.NewTrader(target.RoleSub, trading.Spot)
		a, b := sym.RestingBuy(cloids.New(), 3), sym.RestingBuy(cloids.New(), 2)
		t.CancelAtEnd(a["client_order_id"])
		t.CancelAtEnd(b["client_order_id"])
		ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order/list",
			JSON: map[string]any{"contingency_type": "oneCancelOther", "orders": []any{a.JSON(), b.JSON()}}})
		Expect(ex).To(framework.BeOK(), "placing a oneCancelOther list of two resting buys with the sub-account's key")
		s.freezeForSpec(ctx, subID(target.RoleSub))
		Expect(resultOf(s.activate(ctx, subID(target.RoleSub)))).To(Equal(true), "activating the sub-account to read its orders")
		for _, p := range []trading.Params{a, b} {
			Expect(isActive(ctx, t, p["client_order_id"])).To(BeFalse(), "the list order %s was canceled by the freeze", p["client_order_id"])
		}
	})

	framework.ConformanceIt("V3-SUBACC-FREEZE-FUNDS", func(ctx SpecContext) {
		s := newSuper()
		sym := fundedSub(ctx, s, false)
		id := subID(target.RoleSub)
		Expect(s.subSpot(ctx, id, sym.Quote).IsPositive()).To(BeTrue(), "the funded sub-account holds %s on its trading balance", sym.Quote)
		s.freezeForSpec(ctx, id)
		_, spot := s.balances(ctx, id)
		for cur, m := range spot {
			Expect(trading.DecField(m, "available").Add(trading.DecField(m, "reserved")).IsZero()).To(BeTrue(),
				"after the freeze no funds stay on the trading balance, yet spot lists %s: %v", cur, m)
		}
	})
})

// frozenCall is one request a frozen sub-account's key makes.
type frozenCall struct {
	method, path string
	body         url.Values
}

// frozenCalls are the requests a frozen sub-account's key makes, by name.
var frozenCalls = map[string]frozenCall{
	"GET /spot/balance":                       {method: http.MethodGet, path: "/spot/balance"},
	"GET /sub-account":                        {method: http.MethodGet, path: "/sub-account"},
	"GET /wallet/balance":                     {method: http.MethodGet, path: "/wallet/balance"},
	"POST /spot/order":                        {method: http.MethodPost, path: "/spot/order"},
	"GET /margin/account":                     {method: http.MethodGet, path: "/margin/account"},
	"POST /margin/order":                      {method: http.MethodPost, path: "/margin/order"},
	"POST /sub-account/transfer/sub-to-super": {method: http.MethodPost, path: "/sub-account/transfer/sub-to-super"},
}

// refusedWhileFrozen sends call with the sub role's key while it is frozen
// and expects a refusal; paths the target does not serve (404 while the key
// is usable) do not apply.
func refusedWhileFrozen(ctx context.Context, name string, body url.Values) {
	GinkgoHelper()
	c := frozenCalls[name]
	s, id, sub := newSuper(), subID(target.RoleSub), subClient(target.RoleSub)
	if c.method == http.MethodGet {
		if ex := do(ctx, sub, c.method, c.path, nil); ex.Status == http.StatusNotFound {
			Skip(fmt.Sprintf("the target does not serve %s (HTTP 404 with a usable key)", name))
		}
	}
	s.freezeForSpec(ctx, id)
	expectRefusedKey(do(ctx, sub, c.method, c.path, body), name+" with the key of a frozen sub-account")
}

var _ = framework.AreaDescribe("A frozen sub-account cannot use its keys", func() {
	BeforeEach(func() { mayChange() })

	framework.ConformanceContext("V3-SUBACC-FROZEN-KEYS", func() {
		DescribeTable("reads with its key are refused", func(ctx SpecContext, name string) {
			refusedWhileFrozen(ctx, name, nil)
		}, Entry(nil, "GET /spot/balance"), Entry(nil, "GET /sub-account"), Entry(nil, "GET /wallet/balance"))
	})

	framework.ConformanceIt("V3-SUBACC-FROZEN-TRADE", func(ctx SpecContext) {
		s := newSuper()
		sym := fundedSub(ctx, s, false)
		p := sym.RestingBuy(cloids.New(), 3)
		t := trading.NewTrader(target.RoleSub, trading.Spot)
		t.CancelAtEnd(p["client_order_id"])
		refusedWhileFrozen(ctx, "POST /spot/order", p.Form())
		Expect(resultOf(s.activate(ctx, subID(target.RoleSub)))).To(Equal(true), "activating the sub-account to read its orders")
		Expect(isActive(ctx, t, p["client_order_id"])).To(BeFalse(), "the refused order %s was not placed", p["client_order_id"])
	})

	framework.ConformanceContext("V3-SUBACC-FROZEN-MARGIN", func() {
		DescribeTable("margin requests with its key are refused", func(ctx SpecContext, name string) {
			var body url.Values
			if name == "POST /margin/order" {
				sym := fundedSub(ctx, newSuper(), true)
				p := sym.RestingBuy(cloids.New(), 3)
				trading.NewTrader(target.RoleSub, trading.Margin).CancelAtEnd(p["client_order_id"])
				body = p.Form()
			}
			refusedWhileFrozen(ctx, name, body)
		}, Entry(nil, "GET /margin/account"), Entry(nil, "POST /margin/order"))
	})

	framework.ConformanceIt("V3-SUBACC-FROZEN-WITHDRAW", func(ctx SpecContext) {
		s := newSuper()
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, subID(target.RoleSub), amt, cur, "to_sub_account")
		before := s.spot(ctx, cur)
		refusedWhileFrozen(ctx, "POST /sub-account/transfer/sub-to-super", url.Values{"amount": {amt.String()}, "currency": {cur}})
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(before), "the refused sub-to-super transfer moved nothing to the super account")
	})
})
