package spot

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The history query's parameters with values outside their documented sets.
// Only reads: a read-only key suffices and any target can run them.
var _ = framework.AreaDescribe("Spot order history parameter values", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceContext("V3-SPOT-HISTORY-VALUES", func() {
		DescribeTable("refuses a value outside the documented ones with 10001",
			func(ctx SpecContext, q url.Values) {
				ex, _ := e.Signed(target.RoleReadOnly, framework.Basic).Get(ctx, "/spot/history/order", q)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "GET /spot/history/order?%s", q.Encode())
			},
			Entry("statuses: an unknown status", url.Values{"statuses": {"open"}}),
			Entry("statuses: one unknown among known ones", url.Values{"statuses": {"new,active"}}),
			Entry("sort: neither ASC nor DESC", url.Values{"sort": {"SIDEWAYS"}}),
			Entry("by: neither timestamp nor id", url.Values{"by": {"price"}}),
			Entry("limit: not a number", url.Values{"limit": {"ten"}}),
			Entry("offset: not a number", url.Values{"offset": {"first"}}),
		)
		It("accepts every documented status, sort and by", func(ctx SpecContext) {
			c := e.Signed(target.RoleReadOnly, framework.Basic)
			all := "suspended,new,partiallyFilled,filled,canceled,expired,rejected"
			for _, q := range []url.Values{{"statuses": {all}}, {"statuses": {"rejected"}}, {"sort": {"ASC"}}, {"sort": {"DESC"}}, {"by": {"id"}}, {"by": {"timestamp"}}} {
				ex, _ := c.Get(ctx, "/spot/history/order", q)
				Expect(ex).To(framework.BeOK(), "GET /spot/history/order?%s", q.Encode())
			}
		})
	})

	framework.ConformanceIt("V3-SPOT-HISTORY-BY-ID", func(ctx SpecContext) {
		c := e.Signed(target.RoleReadOnly, framework.Basic)
		now := trading.TargetNow(ctx)
		var seen []string
		for _, q := range []url.Values{
			{"by": {"id"}, "from": {"1"}},
			{"by": {"id"}, "from": {now.Add(-time.Hour).UTC().Format(time.RFC3339)}},
			{"from": {"1"}},
		} {
			ex, _ := c.Get(ctx, "/spot/history/order", q)
			seen = append(seen, fmt.Sprintf("%s -> %s", q.Encode(), trading.Outcome(ex)))
		}
		framework.Observe("V3-SPOT-HISTORY-BY-ID", "%s", strings.Join(seen, "; "))
	})
})
