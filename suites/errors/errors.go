// Package errors holds the specs of the v3 Errors section: the error
// body and the documented code and HTTP status pairs a client can provoke.
package errors

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Errors", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	// Each provoker makes one documented error happen.
	type provoke func(ctx SpecContext) *client.Exchange
	DescribeTable("carries {error: {code Number, message String, description String optional}}",
		framework.Checks("V3-ERR-BODY"),
		func(ctx SpecContext, p provoke) {
			ex := p(ctx)
			Expect(ex.Status).To(BeNumerically(">=", 400), "an error was provoked: %s", ex)
			body := framework.ObjectOf(ex)
			Expect(body).To(HaveKey("error"), "exchange: %s", ex)
			Expect(body["error"]).To(framework.MatchSchema(framework.Schema{
				"code":        {Kind: framework.Number},
				"message":     {Kind: framework.String},
				"description": {Kind: framework.String, Optional: true},
			}), "exchange: %s", ex)
			_, err := body["error"].(map[string]any)["code"].(json.Number).Int64()
			Expect(err).NotTo(HaveOccurred(), "error.code is an integer: %s", ex)
		},
		Entry("unknown symbol", provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/symbol/CONFORMNOSUCH", nil)
			return ex
		})),
		Entry("unknown currency", provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/currency/CONFORMNOSUCH", nil)
			return ex
		})),
		Entry("invalid parameter", provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/public/futures/candles/open_interest", url.Values{"sort": {"SIDEWAYS"}})
			return ex
		})),
		Entry("missing credentials", provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Public().Get(ctx, "/spot/balance", nil)
			return ex
		})),
		Entry("missing access right", provoke(func(ctx SpecContext) *client.Exchange {
			ex, _ := e.Signed(target.RoleNoRights, framework.Basic).Get(ctx, "/spot/balance", nil)
			return ex
		})),
	)

	// Malformed values of documented parameters: outside the documented set
	// of values, or not of the documented type. (Out-of-range numbers are
	// catalogued as ambiguous: clamping is another reading.)
	DescribeTable("answers malformed parameters with 10001 and HTTP 400",
		framework.Checks("V3-ERR-10001"),
		func(ctx SpecContext, kind, by string, q url.Values) {
			path := "/public/futures/candles/" + kind
			if by == "contract" {
				path += "/" + e.AnySymbol(ctx, "futures")
			}
			ex, _ := e.Public().Get(ctx, path, q)
			Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "%s?%s", path, q.Encode())
		},
		Entry(nil, "open_interest", "list", url.Values{"sort": {"SIDEWAYS"}}),
		Entry(nil, "premium_index", "contract", url.Values{"sort": {"SIDEWAYS"}}),
		Entry(nil, "open_interest", "list", url.Values{"period": {"M2"}}),
		Entry(nil, "premium_index", "contract", url.Values{"period": {"H2"}}),
		Entry(nil, "open_interest", "list", url.Values{"limit": {"ten"}}),
		Entry(nil, "open_interest", "contract", url.Values{"offset": {"first"}}),
		Entry(nil, "premium_index", "list", url.Values{"from": {"yesterday"}}),
		Entry(nil, "premium_index", "contract", url.Values{"till": {"tomorrow"}}),
	)

	DescribeTable("answers an unknown symbol with 2001 and HTTP 400",
		framework.Checks("V3-ERR-2001"),
		func(ctx SpecContext, path string, role string) {
			c := e.Public()
			if role != "" {
				c = e.Signed(role, framework.Basic)
			}
			ex, _ := c.Get(ctx, path, nil)
			Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 2001))
		},
		Entry(nil, "/public/symbol/CONFORMNOSUCH", ""),
		Entry(nil, "/public/futures/candles/open_interest/CONFORMNOSUCH_PERP", ""),
		Entry(nil, "/public/futures/candles/premium_index/CONFORMNOSUCH_PERP", ""),
		Entry(nil, "/spot/fee/CONFORMNOSUCH", target.RoleTradeOnly),
		Entry(nil, "/margin/account/isolated/CONFORMNOSUCH", target.RoleReadOnly),
	)

	DescribeTable("answers an unknown currency with 2002 and HTTP 400",
		framework.Checks("V3-ERR-2002"),
		func(ctx SpecContext, path string, role string) {
			c := e.Public()
			if role != "" {
				c = e.Signed(role, framework.Basic)
			}
			ex, _ := c.Get(ctx, path, nil)
			Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 2002))
		},
		Entry(nil, "/public/currency/CONFORMNOSUCH", ""),
		Entry(nil, "/spot/balance/CONFORMNOSUCH", target.RoleReadOnly),
		Entry(nil, "/margin/account/cross/CONFORMNOSUCH", target.RoleReadOnly),
	)

	DescribeTable("answers a path that does not exist with HTTP 404",
		framework.Checks("V3-ERR-404"),
		func(ctx SpecContext, path string) {
			ex, _ := e.Public().Get(ctx, path, nil)
			Expect(ex).To(framework.HaveStatus(http.StatusNotFound))
		},
		Entry(nil, "/public/conform-no-such-resource"),
		Entry(nil, "/conform/no/such/path"),
	)
})
