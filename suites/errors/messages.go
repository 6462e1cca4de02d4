package errors

import (
	"context"
	"fmt"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// messages is the Code and Message columns of the Errors table, for the
// codes a client can provoke.
var messages = map[int]string{
	10001: "Validation error",
	2001:  "Symbol not found",
	2002:  "Currency not found",
	1001:  "Authorization required",
	1002:  "Authorization is required or has been failed",
	1003:  "Action is forbidden for this API key",
	20001: "Insufficient funds",
	20002: "Order not found",
}

// overdraft sends a sell of more than the full account holds of a working
// symbol's base currency, priced far above the market: 20001 Insufficient
// funds. It registers the cancel of the order in case the target takes it.
func overdraft(ctx context.Context) *client.Exchange {
	GinkgoHelper()
	framework.Current().RequireTrading()
	t := trading.NewTrader(target.RoleFull, trading.Spot)
	syms := trading.WorkingSymbols(ctx)
	Expect(syms).NotTo(BeEmpty(), "the target lists working spot symbols")
	s := syms[0]
	avail := t.Balance(ctx, s.Base).Avail
	qty := avail.Div(s.Step).Floor().Add(decimal.NewFromInt(1)).Mul(s.Step)
	p := trading.Params{"client_order_id": trading.Cloids("cfe").New(), "symbol": s.Code, "side": "sell", "type": "limit",
		"quantity": qty.String(), "price": s.High().String()}
	return t.Place(ctx, p)
}

var _ = framework.AreaDescribe("Error messages", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	type provoke func(ctx SpecContext) *client.Exchange
	DescribeTable("each documented code comes with its documented message",
		framework.Checks("V3-ERR-MESSAGES"),
		func(ctx SpecContext, codes []int, p provoke) {
			ex := p(ctx)
			ae, ok := ex.APIError()
			Expect(ok).To(BeTrue(), "an error answer with {error: {code, message}}\nexchange: %s", ex)
			Expect(codes).To(ContainElement(ae.Code), "the provoked code\nexchange: %s", ex)
			Expect(ae.Message).To(Equal(messages[ae.Code]), "the Errors table gives code %d the message %q\nexchange: %s", ae.Code, messages[ae.Code], ex)
		},
		Entry("10001: an invalid sort", []int{10001}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/futures/candles/open_interest", url.Values{"sort": {"SIDEWAYS"}})
			return ex
		})),
		Entry("2001: an unknown symbol", []int{2001}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/symbol/CONFORMNOSUCH", nil)
			return ex
		})),
		Entry("2002: an unknown currency", []int{2002}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/currency/CONFORMNOSUCH", nil)
			return ex
		})),
		Entry("1001 or 1002: no credentials", []int{1001, 1002}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/spot/balance", nil)
			return ex
		})),
		Entry("1001 or 1002: a wrong secret", []int{1001, 1002}, provoke(func(ctx SpecContext) *client.Exchange {
			a := e.Account(target.RoleFull)
			ex, _ := e.Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})).Get(ctx, "/spot/balance", nil)
			return ex
		})),
		Entry("1003: a key without the access right", []int{1003}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Signed(target.RoleNoRights, framework.Basic).Get(ctx, "/spot/balance", nil)
			return ex
		})),
		Entry("20002: an unknown order", []int{20002}, provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Signed(target.RoleReadOnly, framework.Basic).Get(ctx, "/spot/order/conformNoSuchOrder01", nil)
			return ex
		})),
		Entry("20001: a sell beyond the balance", []int{20001}, provoke(func(ctx SpecContext) *client.Exchange { return overdraft(ctx) })),
	)

	framework.ConformanceIt("V3-ERR-20001-STATUS", func(ctx SpecContext) {
		ex := overdraft(ctx)
		outcome := fmt.Sprintf("HTTP %d without an error body", ex.Status)
		if ae, ok := ex.APIError(); ok {
			outcome = fmt.Sprintf("HTTP %d with code %d", ae.Status, ae.Code)
		}
		framework.Observe("V3-ERR-20001-STATUS", "a sell beyond the base balance was answered %s", outcome)
	})
})
