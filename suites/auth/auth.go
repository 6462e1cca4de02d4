// Package auth holds the specs of the v3 Authentication section: Basic and
// HS256 credentials, their failures, and access rights.
package auth

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// privateGET are documented non-public endpoints that take no side effect.
var privateGET = []string{"/spot/balance", "/spot/fee", "/spot/order"}

var _ = framework.AreaDescribe("Authentication", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V3-AUTH-PUBLIC", func(ctx SpecContext) {
		c := e.Public()
		fut := e.AnySymbol(ctx, "futures")
		for _, path := range []string{"/public/currency", "/public/symbol", "/public/futures/candles/open_interest", "/public/futures/candles/premium_index",
			"/public/symbol/" + e.AnySymbol(ctx, "spot"), "/public/currency/" + e.AnyCurrency(ctx), "/public/futures/candles/open_interest/" + fut, "/public/futures/candles/premium_index/" + fut} {
			ex, _ := c.Get(ctx, path, nil)
			Expect(ex).To(framework.BeOK(), "public %s without credentials", path)
		}
	})

	// "Every other request" needs credentials: every row of the endpoint
	// tables (Spot and Margin trading, Sub-accounts, Buy crypto), one list
	// with the rights tables (endpoints.go).
	DescribeTable("refuses a private endpoint without credentials",
		framework.Checks("V3-AUTH-REQUIRED", "V3-ERR-401"),
		func(ctx SpecContext, p trading.Endpoint) {
			ex, _ := e.Public().Do(ctx, client.Request{Method: p.Method, Path: fill(ctx, e, p.Path, false)})
			Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "%s without credentials", p)
		},
		trading.BareEntries(v3Endpoints),
	)

	DescribeTable("serves valid credentials",
		func(ctx SpecContext, s framework.Scheme) {
			c := e.Signed(target.RoleFull, s)
			for _, path := range privateGET {
				ex, _ := c.Get(ctx, path, nil)
				Expect(ex).To(framework.BeOK(), "%s with valid %s credentials", path, s)
			}
		},
		Entry("Basic", framework.Checks("V3-AUTH-BASIC"), framework.Basic),
		Entry("HS256 without a query", framework.Checks("V3-AUTH-HS256"), framework.HS256),
	)

	It("accepts HS256 over a request with a query string", framework.Checks("V3-AUTH-HS256"), func(ctx SpecContext) {
		sym := e.AnySymbol(ctx, "spot")
		c := e.Signed(target.RoleFull, framework.HS256)
		ex, _ := c.Get(ctx, "/spot/order", url.Values{"symbol": {sym}})
		Expect(ex).To(framework.BeOK(), "GET /spot/order?symbol=%s signed with ?query in the message", sym)
	})

	framework.ConformanceIt("V3-AUTH-HS256-WINDOW", func(ctx SpecContext) {
		a := e.Account(target.RoleFull)
		c := e.Public().With(client.WithAuth(client.HS256{Key: a.APIKey, Secret: a.Secret, Window: "10000"}))
		sym := e.AnySymbol(ctx, "spot")
		for _, q := range []url.Values{nil, {"symbol": {sym}}} {
			ex, _ := c.Get(ctx, "/spot/order", q)
			Expect(ex).To(framework.BeOK(), "HS256 with window 10000")
		}
	})

	framework.ConformanceIt("V3-AUTH-BASIC-FAIL", func(ctx SpecContext) {
		a := e.Account(target.RoleFull)
		c := e.Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"}))
		ex, _ := c.Get(ctx, "/spot/balance", nil)
		Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002))
	})
})

var _ = framework.AreaDescribe("Authentication", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	// Each row signs one message and sends another request, or a header
	// whose parts disagree with what was signed.
	type forged struct {
		signMethod, signPath, signQuery, signTS, signWindow string
		sendQuery, sendTS, sendWindow                       string
		secret                                              func(string) string
	}
	DescribeTable("refuses an HS256 signature that does not match the request",
		framework.Checks("V3-AUTH-HS256-FAIL", "V3-ERR-401"),
		func(ctx SpecContext, f forged) {
			a := e.Account(target.RoleFull)
			sym := e.AnySymbol(ctx, "spot")
			now := strconv.FormatInt(time.Now().UnixMilli(), 10)
			fill := func(s string) string {
				switch s {
				case "<now>":
					return now
				case "<sym>":
					return "symbol=" + sym
				}
				return s
			}
			secret := a.Secret
			if f.secret != nil {
				secret = f.secret(secret)
			}
			path := "/api/3/spot/order"
			if f.signPath != "" {
				path = f.signPath
			}
			method := "GET"
			if f.signMethod != "" {
				method = f.signMethod
			}
			sig := client.Sign(secret, client.Message(method, path, fill(f.signQuery), nil, fill(f.signTS), f.signWindow))
			h := client.HS256Header(a.APIKey, sig, fill(f.sendTS), f.sendWindow)
			ex, _ := e.Public().Do(ctx, client.Request{Path: "/spot/order", RawQuery: fill(f.sendQuery), Header: http.Header{"Authorization": {h}}})
			Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002))
		},
		Entry("wrong secret", forged{signTS: "<now>", sendTS: "<now>", secret: func(s string) string { return s + "x" }}),
		Entry("signed without the query that is sent", forged{signTS: "<now>", sendTS: "<now>", sendQuery: "<sym>"}),
		Entry("signed with a query that is not sent", forged{signQuery: "<sym>", signTS: "<now>", sendTS: "<now>"}),
		Entry("signed another path", forged{signPath: "/api/3/spot/balance", signTS: "<now>", sendTS: "<now>"}),
		Entry("signed another method", forged{signMethod: "POST", signTS: "<now>", sendTS: "<now>"}),
		Entry("header timestamp differs from the signed one", forged{signTS: "1700000000000", sendTS: "<now>"}),
		Entry("window sent but not signed", forged{signTS: "<now>", sendTS: "<now>", sendWindow: "10000"}),
		Entry("window signed but not sent", forged{signTS: "<now>", signWindow: "10000", sendTS: "<now>"}),
	)

	DescribeTable("refuses an unknown API key",
		framework.Checks("V3-AUTH-UNKNOWN-KEY", "V3-ERR-401"),
		func(ctx SpecContext, s framework.Scheme) {
			var au client.Authenticator = client.Basic{Key: "conform-unknown-key-0000", Secret: "nothing"}
			if s == framework.HS256 {
				au = client.HS256{Key: "conform-unknown-key-0000", Secret: "nothing"}
			}
			ex, _ := e.Public().With(client.WithAuth(au)).Get(ctx, "/spot/balance", nil)
			Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002))
		},
		Entry("Basic", framework.Basic), Entry("HS256", framework.HS256),
	)

	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	DescribeTable("refuses a malformed Authorization header",
		framework.Checks("V3-AUTH-MALFORMED", "V3-ERR-401"),
		func(ctx SpecContext, header func(target.Account) string) {
			h := header(e.Account(target.RoleFull))
			ex, _ := e.Public().Do(ctx, client.Request{Path: "/spot/balance", Header: http.Header{"Authorization": {h}}})
			Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "Authorization: %q", h)
		},
		Entry("unknown scheme", func(a target.Account) string { return "Bearer " + b64(a.APIKey+":"+a.Secret) }),
		Entry("scheme word only", func(target.Account) string { return "Basic" }),
		Entry("Basic, not base64", func(target.Account) string { return "Basic !!not-base64!!" }),
		Entry("Basic, no colon", func(a target.Account) string { return "Basic " + b64(a.APIKey) }),
		Entry("HS256, two parts", func(a target.Account) string { return "HS256 " + b64(a.APIKey+":"+client.Sign(a.Secret, "x")) }),
		Entry("HS256, non-numeric timestamp", func(a target.Account) string {
			return "HS256 " + b64(fmt.Sprintf("%s:%s:%s", a.APIKey, client.Sign(a.Secret, "GET/api/3/spot/balancesoon"), "soon"))
		}),
		// "<window> is an optional integer string": signed over as sent, so
		// only its form is wrong.
		Entry("HS256, non-integer window", func(a target.Account) string {
			ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
			return "HS256 " + b64(fmt.Sprintf("%s:%s:%s:%s", a.APIKey, client.Sign(a.Secret, client.Message("GET", "/api/3/spot/balance", "", nil, ts, "ten")), ts, "ten"))
		}),
	)

	// The documented rights: /spot/balance and /spot/fee need Orderbook,
	// History, Trading balance; /spot/fee/{symbol} needs Place/cancel orders.
	DescribeTable("guards endpoints by their documented access right",
		func(ctx SpecContext, role, path string, allowed bool) {
			if path == "/spot/fee/{symbol}" {
				path = "/spot/fee/" + e.AnySymbol(ctx, "spot")
			}
			ex, _ := e.Signed(role, framework.Basic).Get(ctx, path, nil)
			if allowed {
				Expect(ex).To(framework.BeOK(), "key with role %s on %s", role, path)
			} else {
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "key with role %s on %s", role, path)
			}
		},
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS", "V3-ERR-1003"), target.RoleNoRights, "/spot/balance", false),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS", "V3-ERR-1003"), target.RoleTradeOnly, "/spot/balance", false),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS", "V3-ERR-1003"), target.RoleTradeOnly, "/spot/fee", false),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS", "V3-ERR-1003"), target.RoleReadOnly, "/spot/fee/{symbol}", false),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS"), target.RoleReadOnly, "/spot/balance", true),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS"), target.RoleReadOnly, "/spot/fee", true),
		Entry(nil, framework.Checks("V3-AUTH-RIGHTS"), target.RoleTradeOnly, "/spot/fee/{symbol}", true),
	)

	framework.ConformanceIt("V3-AUTH-HS256-HEX-CASE", func(ctx SpecContext) {
		a := e.Account(target.RoleFull)
		ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
		sig := strings.ToUpper(client.Sign(a.Secret, client.Message("GET", "/api/3/spot/balance", "", nil, ts, "")))
		h := client.HS256Header(a.APIKey, sig, ts, "")
		ex, _ := e.Public().Do(ctx, client.Request{Path: "/spot/balance", Header: http.Header{"Authorization": {h}}})
		outcome := fmt.Sprintf("HTTP %d", ex.Status)
		if ae, ok := ex.APIError(); ok {
			outcome = fmt.Sprintf("HTTP %d code %d", ae.Status, ae.Code)
		}
		framework.Observe("V3-AUTH-HS256-HEX-CASE", "an HS256 signature in upper-case hex was answered %s", outcome)
	})

	framework.ConformanceIt("V3-AUTH-CODE-CHOICE", func(ctx SpecContext) {
		missing, _ := e.Public().Get(ctx, "/spot/balance", nil)
		a := e.Account(target.RoleFull)
		failed, _ := e.Public().With(client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret + "x"})).Get(ctx, "/spot/balance", nil)
		code := func(ex *client.Exchange) string {
			if ae, ok := ex.APIError(); ok {
				return fmt.Sprintf("HTTP %d code %d", ae.Status, ae.Code)
			}
			return fmt.Sprintf("HTTP %d without an error body", ex.Status)
		}
		framework.Observe("V3-AUTH-CODE-CHOICE", "missing credentials -> %s; wrong secret -> %s", code(missing), code(failed))
	})
})
