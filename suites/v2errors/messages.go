package v2errors

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// messages is the Code and Message columns of the v2 Errors table for the
// codes a client can provoke; 1002's message is V2-ERR-1002-MESSAGE's.
var messages = map[int]string{
	10001: "Validation error",
	1001:  "Authorization required",
	1003:  "Action is forbidden for this API key",
	2001:  "Symbol not found",
	2002:  "Currency not found",
	20001: "Insufficient funds",
}

var _ = framework.AreaDescribe("v2 error messages", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	DescribeTable("each code of the table comes with its message", framework.Checks("V2-ERR-MESSAGES"),
		func(ctx SpecContext, provoke func(ctx SpecContext) *client.Exchange) {
			ex := provoke(ctx)
			ae, ok := ex.APIError()
			Expect(ok).To(BeTrue(), "an error answer with {error: {code, message}}\nexchange: %s", ex)
			want, listed := messages[ae.Code]
			if !listed {
				Expect(ae.Code).To(Equal(1002), "the provoked code\nexchange: %s", ex)
				return // 1002 instead of 1001: its message is V2-ERR-1002-MESSAGE's
			}
			Expect(ae.Message).To(Equal(want), "the v2 Errors table gives code %d the message %q\nexchange: %s", ae.Code, want, ex)
		},
		Entry("10001: a required parameter missing", func(ctx SpecContext) *client.Exchange {
			ex, _ := e.V2Signed(target.RoleFull).Get(ctx, "/account/crypto/estimate-withdraw", url.Values{"currency": {e.AnyCurrency(ctx)}})
			return ex
		}),
		Entry("1001: no credentials", func(ctx SpecContext) *client.Exchange {
			ex, _ := e.V2Public().Get(ctx, "/account/balance", nil)
			return ex
		}),
		// Which of 1001 and 1002 is open (V2-AUTH-BASIC-FAIL), but an answer
		// with 1001 carries 1001's message, as with no credentials.
		Entry("1001 or 1002: a wrong secret", func(ctx SpecContext) *client.Exchange {
			a := e.Account(target.RoleFull)
			ex, _ := e.V2Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})).Get(ctx, "/account/balance", nil)
			return ex
		}),
		Entry("1003: a key without the right", func(ctx SpecContext) *client.Exchange {
			ex, _ := e.V2Signed(target.RoleReadOnly).Get(ctx, "/account/balance", nil)
			return ex
		}),
		Entry("2001: an unknown symbol", func(ctx SpecContext) *client.Exchange {
			ex, _ := e.V2Public().Get(ctx, "/public/symbol/CONFORMNOSUCHSYMBOL", nil)
			return ex
		}),
		Entry("2002: an unknown currency", func(ctx SpecContext) *client.Exchange {
			ex, _ := e.V2Public().Get(ctx, "/public/currency/CONFORMNOSUCHCURRENCY", nil)
			return ex
		}),
		Entry("20001: a transfer the main balance cannot cover", func(ctx SpecContext) *client.Exchange {
			ex, _, _ := overdraftTransfer(ctx, e)
			return ex
		}),
	)
})

// overdraftTransfer sends a bankToExchange of more than the main balance
// holds of a currency the account has (20001 Insufficient funds) and
// returns the exchange, the currency and what the account held.
func overdraftTransfer(ctx SpecContext, e *framework.Env) (*client.Exchange, string, decimal.Decimal) {
	GinkgoHelper()
	c := e.V2Signed(target.RoleFull)
	objs, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
	cur, have := e.AnyCurrency(ctx), decimal.Zero
	for _, o := range objs {
		if a, err := decimal.NewFromString(fmt.Sprint(o["available"])); err == nil && a.IsPositive() {
			cur, have = fmt.Sprint(o["currency"]), a
			break
		}
	}
	ex, _ := c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/account/transfer",
		Form: url.Values{"currency": {cur}, "amount": {have.Add(decimal.NewFromInt(1000)).String()}, "type": {"bankToExchange"}}})
	return ex, cur, have
}
