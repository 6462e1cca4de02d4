package v2subaccounts

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The Errors table's "500 Internal Server Error: sub-account cannot be
// found" on the verbs the first table (V2-SUBACC-ERR-500: freeze, activate,
// transfer, balance) left out.
var _ = framework.AreaDescribe("v2 sub-accounts: an unknown sub-account on every verb", func() {
	framework.ConformanceContext("V2-SUBACC-UNKNOWN-VERBS", func() {
		DescribeTable("a settings change or deposit address of an unknown sub-account yields HTTP 500 with code 500",
			func(ctx SpecContext, method, path string, p url.Values) {
				if method != http.MethodGet {
					mayChange()
				}
				if path == "" {
					path = "/sub-acc/deposit-address/" + unknownUserID + "/" + cryptoCurrency(ctx)
				}
				Expect(do(ctx, v2(target.RoleFull), method, path, p)).To(framework.BeAPIError(http.StatusInternalServerError, 500), "%s %s of an unknown sub-account", method, path)
			},
			Entry("settings change", http.MethodPut, "/sub-acc/acl/"+unknownUserID, url.Values{"isPayoutEnabled": {"false"}, "description": {"conform"}}),
			Entry("deposit address", http.MethodGet, "", url.Values(nil)),
		)
	})
})

var _ = framework.AreaDescribe("v2 sub-accounts: the settings of an unknown sub-account", func() {
	framework.ConformanceIt("V2-SUBACC-ACL-UNKNOWN", func(ctx SpecContext) {
		ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/acl", url.Values{"subAccountIds": {unknownUserID}})
		framework.Observe("V2-SUBACC-ACL-UNKNOWN", "GET /sub-acc/acl?subAccountIds=<unknown> was answered %s %.120s", trading.Outcome(ex), ex.Body)
	})
})
