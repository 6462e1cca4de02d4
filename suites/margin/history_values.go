package margin

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The margin history queries' parameters with values outside their
// documented sets (Pagination parameters). Only reads.
var _ = framework.AreaDescribe("Margin history parameter values", func() {
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

// Errors: 20002 Order not found for "cancel or lookup of an unknown order",
// margin orders included. (Its HTTP status is not shown: any 4xx.)
var _ = framework.AreaDescribe("Unknown margin orders", func() {
	framework.ConformanceIt("V3-MARGIN-NOT-FOUND", func(ctx SpecContext) {
		id := cloids.New()
		get, _ := framework.Current().Signed(target.RoleReadOnly, framework.Basic).Get(ctx, "/margin/order/"+id, nil)
		Expect(get).To(framework.BeAPIError(framework.StatusClass4xx, 20002), "GET /margin/order/%s, an order never placed", id)
		framework.Current().RequireTrading()
		del, _ := framework.Current().Signed(target.RoleFull, framework.Basic).Do(ctx, client.Request{Method: http.MethodDelete, Path: "/margin/order/" + id})
		Expect(del).To(framework.BeAPIError(framework.StatusClass4xx, 20002), "DELETE /margin/order/%s, an order never placed", id)
	})
})
