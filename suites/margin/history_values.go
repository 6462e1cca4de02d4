package margin

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The margin history queries' parameters with values outside their
// documented sets (Pagination parameters). Only reads.
var _ = Describe("Margin history parameter values", func() {
	framework.ConformanceContext("V3-MARGIN-HISTORY-VALUES", func() {
		DescribeTable("refuses a value outside the documented ones with 10001",
			func(ctx SpecContext, path string, q url.Values) {
				ex, _ := framework.Current().Signed(target.RoleReadOnly, framework.Basic).Get(ctx, path, q)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "GET %s?%s", path, q.Encode())
			},
			Entry(nil, "/margin/history/order", url.Values{"sort": {"SIDEWAYS"}}),
			Entry(nil, "/margin/history/order", url.Values{"by": {"price"}}),
			Entry(nil, "/margin/history/order", url.Values{"limit": {"ten"}}),
			Entry(nil, "/margin/history/order", url.Values{"offset": {"first"}}),
			Entry(nil, "/margin/history/trade", url.Values{"sort": {"SIDEWAYS"}}),
			Entry(nil, "/margin/history/trade", url.Values{"by": {"price"}}),
			Entry(nil, "/margin/history/trade", url.Values{"limit": {"ten"}}),
		)
	})
})
