// Package v2errors holds the conformance specs of the Errors section of API
// v2: the error body and the codes and HTTP statuses of its table.
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
)

var _ = framework.AreaDescribe("v2 errors", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V2-ERR-BODY", func(ctx SpecContext) {
		ex, _ := e.V2Public().Get(ctx, "/public/currency/CONFORMNOSUCHCURRENCY", nil)
		Expect(ex.Status).To(BeNumerically(">=", 400), "an unknown currency is an error")
		body := framework.ObjectOf(ex)
		inner, ok := body["error"].(map[string]any)
		Expect(ok).To(BeTrue(), "the body is {error: {...}}: %s", ex)
		Expect(inner).To(framework.MatchSchema(framework.Schema{
			"code": {Kind: framework.Number}, "message": {Kind: framework.String}, "description": {Kind: framework.String, Optional: true},
		}), "the error object")
	})

	framework.ConformanceIt("V2-ERR-10001", func(ctx SpecContext) {
		cur := e.AnyCurrency(ctx)
		ex, _ := e.V2Signed(target.RoleFull).Get(ctx, "/account/crypto/estimate-withdraw", url.Values{"currency": {cur}})
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "estimate-withdraw without the required amount")
	})

	framework.ConformanceIt("V2-ERR-401", func(ctx SpecContext) {
		missing, _ := e.V2Public().Get(ctx, "/account/balance", nil)
		Expect(missing).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "no credentials")
		a := e.Account(target.RoleFull)
		failed, _ := e.V2Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})).Get(ctx, "/account/balance", nil)
		Expect(failed).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "a wrong secret")
	})

	framework.ConformanceIt("V2-ERR-1001-1002-CHOICE", func(ctx SpecContext) {
		missing, _ := e.V2Public().Get(ctx, "/account/balance", nil)
		a := e.Account(target.RoleFull)
		failed, _ := e.V2Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})).Get(ctx, "/account/balance", nil)
		code := func(ex *client.Exchange) any {
			if ae, ok := ex.APIError(); ok {
				return ae.Code
			}
			return nil
		}
		framework.Observe("V2-ERR-1001-1002-CHOICE", "no credentials: HTTP %d code %v; a wrong secret: HTTP %d code %v", missing.Status, code(missing), failed.Status, code(failed))
	})

	framework.ConformanceIt("V2-ERR-2001", func(ctx SpecContext) {
		ex, _ := e.V2Public().Get(ctx, "/public/symbol/CONFORMNOSUCHSYMBOL", nil)
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 2001))
	})

	framework.ConformanceIt("V2-ERR-2002", func(ctx SpecContext) {
		ex, _ := e.V2Public().Get(ctx, "/public/currency/CONFORMNOSUCHCURRENCY", nil)
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 2002))
	})

	framework.ConformanceIt("V2-ERR-20001", func(ctx SpecContext) {
		ex, cur, have := overdraftTransfer(ctx, e)
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 20001), "bankToExchange of more %s than the main balance holds (%s)", cur, have)
	})

	framework.ConformanceIt("V2-ERR-1002-MESSAGE", func(ctx SpecContext) {
		a := e.Account(target.RoleFull)
		bad := client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})
		msg := func(ex *client.Exchange) string {
			if ae, ok := ex.APIError(); ok {
				return fmt.Sprintf("HTTP %d code %d %q", ae.Status, ae.Code, ae.Message)
			}
			return fmt.Sprintf("HTTP %d without an error body", ex.Status)
		}
		v2ex, _ := e.V2Public().With(bad).Get(ctx, "/account/balance", nil)
		v3ex, _ := e.Public().With(bad).Get(ctx, "/spot/balance", nil)
		framework.Observe("V2-ERR-1002-MESSAGE", "a Basic key with a wrong secret gets, on v2, %s and, on v3, %s", msg(v2ex), msg(v3ex))
	})
})
