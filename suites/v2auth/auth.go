// Package v2auth holds the conformance specs of the Authentication section
// of API v2: HTTP Basic with <API_KEY>:<SECRET_KEY> and the access rights of
// the endpoint tables.
package v2auth

import (
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// v2 builds a v2 client with the given credentials.
func v2(au client.Authenticator) *client.Client {
	return framework.Current().V2Public().With(client.WithAuth(au))
}

var _ = framework.AreaDescribe("v2 authentication", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V2-AUTH-PUBLIC", func(ctx SpecContext) {
		for _, path := range []string{"/public/currency", "/public/symbol", "/public/ticker"} {
			ex, _ := e.V2Public().Get(ctx, path, nil)
			Expect(ex).To(framework.BeOK(), "GET /api/2%s without credentials", path)
		}
	})

	framework.ConformanceIt("V2-AUTH-BASIC", func(ctx SpecContext) {
		c := e.V2Signed(target.RoleFull)
		for _, path := range []string{"/account/balance", "/history/trades", "/account/transactions"} {
			ex, _ := c.Get(ctx, path, nil)
			Expect(ex).To(framework.BeOK(), "GET /api/2%s with Basic credentials", path)
		}
	})

	framework.ConformanceIt("V2-AUTH-BASIC-FAIL", func(ctx SpecContext) {
		a := e.Account(target.RoleFull)
		ex, _ := v2(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"}).Get(ctx, "/account/balance", nil)
		Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002))
	})

	// Every authenticated row of the version 2 tables, one list with the
	// rights table (endpoints.go).
	DescribeTable("refuses a protected endpoint without credentials", framework.Checks("V2-AUTH-REQUIRED"),
		func(ctx SpecContext, p trading.Endpoint) {
			ex, _ := e.V2Public().Do(ctx, client.Request{Method: p.Method, Path: fill(ctx, e, p.Path, false)})
			Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "%s without credentials", p)
		},
		trading.BareEntries(v2Endpoints),
	)

	framework.ConformanceIt("V2-AUTH-UNKNOWN-KEY", func(ctx SpecContext) {
		ex, _ := v2(client.Basic{Key: "conform-unknown-key-0000", Secret: "nothing"}).Get(ctx, "/account/balance", nil)
		Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002))
	})

	DescribeTable("guards endpoints by the rights of the v2 tables",
		func(ctx SpecContext, role, method, path string, allowed bool) {
			ex, _ := e.V2Signed(role).Do(ctx, client.Request{Method: method, Path: path})
			if allowed {
				Expect(ex).To(framework.BeOK(), "key with role %s on %s %s", role, method, path)
			} else {
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "key with role %s on %s %s", role, method, path)
			}
		},
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS", "V2-ERR-1003"), target.RoleNoRights, "GET", "/account/balance", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS", "V2-ERR-1003"), target.RoleReadOnly, "GET", "/account/balance", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS", "V2-ERR-1003"), target.RoleReadOnly, "GET", "/account/transactions", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS", "V2-ERR-1003"), target.RoleTradeOnly, "GET", "/history/trades", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS", "V2-ERR-1003"), target.RoleReadOnly, "POST", "/account/crypto/withdraw", false),
		// Every other row of the tables, by a key lacking its right.
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleTradeOnly, "GET", "/history/order/1/trades", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/address/BTC", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "POST", "/account/crypto/address/BTC", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/addresses/BTC", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/used-addresses/BTC", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "PUT", "/account/crypto/withdraw/1", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "DELETE", "/account/crypto/withdraw/1", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "POST", "/account/crypto/transfer-convert", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/estimate-withdraw", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/estimate-withdraw-levels", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/crypto/is-mine/conform-no-address", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "POST", "/account/transfer", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "POST", "/account/transfer/internal", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/account/transactions/1", false),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleReadOnly, "GET", "/history/trades", true),
		Entry(nil, framework.Checks("V2-AUTH-RIGHTS"), target.RoleFull, "GET", "/account/balance", true),
	)
})
