package subaccounts

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Sub-accounts: freeze and activate without sub_account_ids", func() {
	framework.ConformanceContext("V3-SUBACC-IDS-REQUIRED", func() {
		DescribeTable("a state change naming no sub-account is refused with 10001",
			func(ctx SpecContext, path string) {
				mayChange()
				ex := do(ctx, framework.Current().Signed(target.RoleFull, framework.Basic), http.MethodPost, path, url.Values{})
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST %s without sub_account_ids", path)
			},
			Entry(nil, "/sub-account/freeze"), Entry(nil, "/sub-account/activate"),
		)
	})
})
