package v2versioning

import (
	"fmt"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 multichain support", func() {
	framework.ConformanceIt("V2-VERSION-NETWORK-PARAM", func(ctx SpecContext) {
		e := framework.Current()
		var cur, net string
		eachDefaultNetwork(ctx, func(id string, c, n map[string]any) bool {
			if cur == "" && c["crypto"] == true && c["payoutEnabled"] == true && n["payout_enabled"] == true {
				cur, net = id, fmt.Sprint(n["code"])
			}
			return false
		})
		if cur == "" {
			Skip("no v2 currency takes withdrawals on a network v3 lists")
		}
		c := e.V2Signed(target.RoleFull)
		q := url.Values{"currency": {cur}, "amount": {"1"}, "networkCode": {net}}
		fee, _ := framework.GetObject(ctx, c, "/account/crypto/estimate-withdraw", q)
		Expect(fee).To(HaveKeyWithValue("fee", framework.BeDecimalString()), "estimate-withdraw of 1 %s on network %s", cur, net)
		used, _ := framework.GetObjects(ctx, c, "/account/crypto/used-addresses/"+cur, url.Values{"networkCode": {net}})
		Expect(len(used)).To(BeNumerically("<=", 10), "used-addresses of %s on network %s: a list of at most 10", cur, net)
	})
})
