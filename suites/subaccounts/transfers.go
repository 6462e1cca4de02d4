package subaccounts

import (
	"net/http"

	"github.com/conform-harness/conform/client"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Sub-account transfers", func() {
	BeforeEach(func() { mayChange() })

	framework.ConformanceIt("V3-SUBACC-TRANSFER-TO", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		superBefore, subBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur)
		s.transferOK(ctx, id, amt, cur, "to_sub_account")
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore.Sub(amt)), "the super account's %s is less by exactly %s", cur, amt)
		Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore.Add(amt)), "the sub-account's %s is more by exactly %s", cur, amt)
	})

	framework.ConformanceIt("V3-SUBACC-TRANSFER-FROM", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, id, amt.Add(amt), cur, "to_sub_account")
		superBefore, subBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur)
		s.transferOK(ctx, id, amt, cur, "from_sub_account")
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore.Add(amt)), "the super account's %s is more by exactly %s", cur, amt)
		Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore.Sub(amt)), "the sub-account's %s is less by exactly %s", cur, amt)
	})

	framework.ConformanceIt("V3-SUBACC-TRANSFER-RESULT", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		ex := s.transfer(ctx, id, amt.String(), cur, "to_sub_account")
		Expect(ex).To(framework.BeOK(), "a transfer to the sub-account")
		Expect(resultOf(ex)).To(And(BeAssignableToTypeOf(""), Not(BeEmpty())), "result is a String transaction identifier: %s", ex)
		ex = do(ctx, subClient(target.RoleSub), http.MethodPost, "/sub-account/transfer/sub-to-super", url.Values{"amount": {amt.String()}, "currency": {cur}})
		Expect(ex).To(framework.BeOK(), "a sub-to-super transfer")
		Expect(resultOf(ex)).To(And(BeAssignableToTypeOf(""), Not(BeEmpty())), "result is a String transaction identifier: %s", ex)
	})

	framework.ConformanceIt("V3-SUBACC-TRANSFER-FUNDS", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, _ := s.amountIn(ctx)
		superBefore, subBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur)
		over := superBefore.Add(precision(ctx, cur))
		expectCode(s.transfer(ctx, id, over.String(), cur, "to_sub_account"), 20001, "a transfer of more than the super account holds")
		overSub := subBefore.Add(precision(ctx, cur))
		expectCode(s.transfer(ctx, id, overSub.String(), cur, "from_sub_account"), 20001, "a transfer of more than the sub-account holds")
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore), "nothing moved from the super account")
		Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore), "nothing moved from the sub-account")
	})

	framework.ConformanceIt("V3-SUBACC-TRANSFER-VALIDATION", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		before := s.spot(ctx, cur)
		ex := s.transfer(ctx, id, amt.String(), cur, "sideways")
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "type sideways is neither to_sub_account nor from_sub_account")
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(before), "the refused transfer moved nothing")
	})

	framework.ConformanceContext("V3-SUBACC-TRANSFER-REQUIRED", func() {
		// path is the transfer; bySub, whether the sub-account's key calls it.
		DescribeTable("a transfer without a required parameter is refused with 10001 and moves nothing",
			func(ctx SpecContext, path string, bySub bool, missing string) {
				s, id, other := newSuper(), subID(target.RoleSub), subID(target.RoleSub2)
				cur, amt := s.amountIn(ctx)
				c, p := s.c, url.Values{"sub_account_id": {id}, "amount": {amt.String()}, "currency": {cur}, "type": {"to_sub_account"}}
				if bySub {
					s.transferOK(ctx, id, amt, cur, "to_sub_account") // funds a sub-to-super or sub-to-sub that went through
					c, p = subClient(target.RoleSub), url.Values{"amount": {amt.String()}, "currency": {cur}}
					if path == "/sub-account/transfer/sub-to-sub" {
						p.Set("sub_account_id", other)
					}
				}
				superBefore, subBefore, otherBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur), s.subSpot(ctx, other, cur)
				p.Del(missing)
				Expect(do(ctx, c, http.MethodPost, path, p)).To(framework.BeAPIError(http.StatusBadRequest, 10001), "%s without %s", path, missing)
				Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore), "%s without %s moved nothing to or from the super account", path, missing)
				Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore), "%s without %s moved nothing to or from the sub-account", path, missing)
				Expect(s.subSpot(ctx, other, cur)).To(trading.DecEqual(otherBefore), "%s without %s moved nothing to the other sub-account", path, missing)
			},
			Entry("transfer without sub_account_id", "/sub-account/transfer", false, "sub_account_id"),
			Entry("transfer without amount", "/sub-account/transfer", false, "amount"),
			Entry("transfer without currency", "/sub-account/transfer", false, "currency"),
			Entry("transfer without type", "/sub-account/transfer", false, "type"),
			Entry("sub-to-super without amount", "/sub-account/transfer/sub-to-super", true, "amount"),
			Entry("sub-to-super without currency", "/sub-account/transfer/sub-to-super", true, "currency"),
			Entry("sub-to-sub without sub_account_id", "/sub-account/transfer/sub-to-sub", true, "sub_account_id"),
			Entry("sub-to-sub without amount", "/sub-account/transfer/sub-to-sub", true, "amount"),
			Entry("sub-to-sub without currency", "/sub-account/transfer/sub-to-sub", true, "currency"),
		)
	})

	framework.ConformanceIt("V3-SUBACC-SUB-TO-SUPER", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, id, amt.Add(amt), cur, "to_sub_account")
		superBefore, subBefore := s.spot(ctx, cur), s.subSpot(ctx, id, cur)
		ex := do(ctx, subClient(target.RoleSub), http.MethodPost, "/sub-account/transfer/sub-to-super", url.Values{"amount": {amt.String()}, "currency": {cur}})
		Expect(ex).To(framework.BeOK(), "sub-to-super with the sub-account's key")
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore.Add(amt)), "the super account's %s is more by exactly %s", cur, amt)
		Expect(s.subSpot(ctx, id, cur)).To(trading.DecEqual(subBefore.Sub(amt)), "the sub-account's %s is less by exactly %s", cur, amt)
	})

	framework.ConformanceIt("V3-SUBACC-SUB-TO-SUB", func(ctx SpecContext) {
		s, a, b := newSuper(), subID(target.RoleSub), subID(target.RoleSub2)
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, a, amt.Add(amt), cur, "to_sub_account")
		superBefore, aBefore, bBefore := s.spot(ctx, cur), s.subSpot(ctx, a, cur), s.subSpot(ctx, b, cur)
		ex := do(ctx, subClient(target.RoleSub), http.MethodPost, "/sub-account/transfer/sub-to-sub", url.Values{"sub_account_id": {b}, "amount": {amt.String()}, "currency": {cur}})
		Expect(ex).To(framework.BeOK(), "sub-to-sub with the sub-account's key")
		Expect(resultOf(ex)).To(BeAssignableToTypeOf(""), "result is a String: %s", ex)
		Expect(s.subSpot(ctx, a, cur)).To(trading.DecEqual(aBefore.Sub(amt)), "the calling sub-account's %s is less by exactly %s", cur, amt)
		Expect(s.subSpot(ctx, b, cur)).To(trading.DecEqual(bBefore.Add(amt)), "the named sub-account's %s is more by exactly %s", cur, amt)
		Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore), "the super account is not part of a sub-to-sub transfer")
	})

	framework.ConformanceContext("V3-SUBACC-TRANSFER-FROZEN", func() {
		DescribeTable("a transfer with a frozen or disabled sub-account is refused with 21004 and moves nothing",
			func(ctx SpecContext, state, kind string) {
				s := newSuper()
				cur, amt := s.amountIn(ctx)
				var id string
				if state == "frozen" {
					id = subID(target.RoleSub2)
					s.freezeForSpec(ctx, id)
				} else {
					id = s.withStatus(ctx, "disable")
				}
				superBefore := s.spot(ctx, cur)
				var ex *client.Exchange
				if kind != "sub-to-sub" {
					ex = s.transfer(ctx, id, amt.String(), cur, kind)
				} else {
					subID(target.RoleSub)
					ex = do(ctx, subClient(target.RoleSub), http.MethodPost, "/sub-account/transfer/sub-to-sub", url.Values{"sub_account_id": {id}, "amount": {amt.String()}, "currency": {cur}})
				}
				expectCode(ex, 21004, kind+" with a "+state+" sub-account")
				Expect(s.spot(ctx, cur)).To(trading.DecEqual(superBefore), "the refused transfer moved nothing")
			},
			Entry(nil, "frozen", "to_sub_account"), Entry(nil, "frozen", "from_sub_account"), Entry(nil, "frozen", "sub-to-sub"),
			Entry(nil, "disabled", "to_sub_account"), Entry(nil, "disabled", "from_sub_account"), Entry(nil, "disabled", "sub-to-sub"),
		)
	})
})
