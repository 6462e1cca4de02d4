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

// The other version's names: version 3 spells the transfer directions
// to_sub_account and from_sub_account and names the sub-account
// sub_account_id; version 2 knows none of them.
var _ = framework.AreaDescribe("v2 sub-account transfers: version 3's names on version 2", func() {
	framework.ConformanceContext("V2-SUBACC-TRANSFER-V3-NAMES", func() {
		DescribeTable("a transfer spelled the version 3 way is refused with HTTP 400 and moves nothing",
			func(ctx SpecContext, field, typ string, codes []int) {
				mayChange()
				id := userID(target.RoleSub)
				cur, amt := amountIn(ctx)
				before := total(ctx, id, cur)
				p := url.Values{field: {id}, "amount": {amt.String()}, "currency": {cur}, "type": {typ}}
				ex := do(ctx, v2(target.RoleFull), http.MethodPost, "/sub-acc/transfer", p)
				if len(codes) > 0 {
					Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, codes...), "POST /sub-acc/transfer with %s and type %s", field, typ)
				} else {
					// The document gives the status of a bad request, not the code of a value outside a list.
					_, isErr := ex.APIError()
					Expect(ex.Status == http.StatusBadRequest && isErr).To(BeTrue(), "POST /sub-acc/transfer with type %s is refused with HTTP 400 and the error JSON\nexchange: %s", typ, ex)
				}
				Expect(total(ctx, id, cur)).To(trading.DecEqual(before), "the refused transfer moved nothing to or from the sub-account")
			},
			Entry("type to_sub_account", "subAccountId", "to_sub_account", nil),
			Entry("type from_sub_account", "subAccountId", "from_sub_account", nil),
			Entry("sub_account_id instead of subAccountId: the required subAccountId is missing", "sub_account_id", "deposit", []int{10001}),
		)
	})
})
