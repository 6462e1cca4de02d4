package subaccounts

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The other version's names: version 2 spells the transfer directions
// deposit and withdraw and names the sub-account subAccountId; version 3
// knows none of them.
var _ = framework.AreaDescribe("Sub-account transfers: version 2's names on version 3", func() {
	framework.ConformanceContext("V3-SUBACC-TRANSFER-V2-NAMES", func() {
		DescribeTable("a transfer spelled the version 2 way is refused with 10001 and moves nothing",
			func(ctx SpecContext, field, typ string) {
				s, id := newSuper(), subID(target.RoleSub)
				cur, amt := s.amountIn(ctx)
				superBefore, subBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur)
				p := url.Values{field: {id}, "amount": {amt.String()}, "currency": {cur}, "type": {typ}}
				ex := do(ctx, s.c, http.MethodPost, "/sub-account/transfer", p)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST /sub-account/transfer with %s and type %s", field, typ)
				Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore), "the refused transfer moved nothing to or from the super account")
				Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore), "the refused transfer moved nothing to or from the sub-account")
			},
			Entry("type deposit", "sub_account_id", "deposit"),
			Entry("type withdraw", "sub_account_id", "withdraw"),
			Entry("subAccountId instead of sub_account_id", "subAccountId", "to_sub_account"),
		)
	})
})
