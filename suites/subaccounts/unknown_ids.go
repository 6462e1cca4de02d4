package subaccounts

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// unknownSub is a well-formed sub_account_id no account has.
const unknownSub = "00000000000000000000000000c0f0a1"

var _ = framework.AreaDescribe("Sub-accounts: an unknown sub_account_id on the other verbs", func() {
	framework.ConformanceIt("V3-SUBACC-UNKNOWN-OTHER", func(ctx SpecContext) {
		c := framework.Current().Signed(target.RoleFull, framework.Basic)
		seen := map[string]*client.Exchange{
			"GET /sub-account/balance":        do(ctx, c, http.MethodGet, "/sub-account/balance/"+unknownSub, nil),
			"GET /sub-account/crypto/address": do(ctx, c, http.MethodGet, "/sub-account/crypto/address/"+unknownSub+"/"+cryptoCurrency(ctx), nil),
			"GET /sub-account/acl":            do(ctx, c, http.MethodGet, "/sub-account/acl", url.Values{"sub_account_ids": {unknownSub}}),
		}
		if ok, _ := framework.Current().Config.MayTrade(); ok {
			seen["POST /sub-account/freeze"] = do(ctx, c, http.MethodPost, "/sub-account/freeze", url.Values{"sub_account_ids": {unknownSub}})
		}
		out := ""
		for _, k := range []string{"GET /sub-account/balance", "GET /sub-account/crypto/address", "GET /sub-account/acl", "POST /sub-account/freeze"} {
			if ex, ok := seen[k]; ok {
				out += fmt.Sprintf("%s: %s; ", k, trading.Outcome(ex))
			}
		}
		framework.Observe("V3-SUBACC-UNKNOWN-OTHER", "an unknown sub_account_id: %s", out)
	})
})
