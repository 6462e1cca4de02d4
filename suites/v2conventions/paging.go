package v2conventions

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 conventions: the pagination range", func() {
	framework.ConformanceContext("V2-PAGING-LIMIT-RANGE", func() {
		DescribeTable("limit 0 and limit 1000 are in the range 0 to 1000",
			func(ctx SpecContext, path, limit string, most int) {
				c := framework.Current().V2Signed(target.RoleFull)
				ex, _ := c.Get(ctx, path, url.Values{"limit": {limit}})
				Expect(ex).NotTo(BeNil(), "GET /api/2%s?limit=%s", path, limit)
				Expect(ex.Status).To(Equal(http.StatusOK), "GET /api/2%s?limit=%s: limit %s is in the range 0 to 1000\nexchange: %s", path, limit, limit, ex)
				Expect(len(framework.ArrayOf(ex))).To(BeNumerically("<=", most), "GET /api/2%s?limit=%s answers an array of at most %d records", path, limit, most)
			},
			Entry("GET /history/trades?limit=0", "/history/trades", "0", 1000),
			Entry("GET /history/trades?limit=1000", "/history/trades", "1000", 1000),
			Entry("GET /account/transactions?limit=0", "/account/transactions", "0", 1000),
			Entry("GET /account/transactions?limit=1000", "/account/transactions", "1000", 1000),
		)
	})
})
