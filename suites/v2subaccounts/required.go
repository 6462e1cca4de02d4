package v2subaccounts

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The parameters of the Sub-accounts table's writes are required where the
// row does not mark them optional: a request without one is refused with
// 10001 (Errors: "for example a required parameter missing") and changes
// nothing. Each row sends the complete, well-formed request less one.
var _ = framework.AreaDescribe("v2 sub-accounts: required parameters of the writes", func() {
	framework.ConformanceContext("V2-SUBACC-TRANSFER-REQUIRED", func() {
		DescribeTable("POST /sub-acc/transfer without one of subAccountId, amount, currency, type is refused with 10001 and moves nothing",
			func(ctx SpecContext, missing string) {
				mayChange()
				id := userID(target.RoleSub)
				cur, amt := amountIn(ctx)
				before := total(ctx, id, cur)
				form := url.Values{"subAccountId": {id}, "amount": {amt.String()}, "currency": {cur}, "type": {"deposit"}}
				form.Del(missing)
				ex := do(ctx, v2(target.RoleFull), http.MethodPost, "/sub-acc/transfer", form)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST /sub-acc/transfer without %s", missing)
				Expect(total(ctx, id, cur).Equal(before)).To(BeTrue(), "a refused transfer without %s moved %s", missing, cur)
			},
			Entry(nil, "subAccountId"), Entry(nil, "amount"), Entry(nil, "currency"), Entry(nil, "type"),
		)
	})

	framework.ConformanceContext("V2-SUBACC-ACL-PUT-REQUIRED", func() {
		DescribeTable("PUT /sub-acc/acl/{id} without isPayoutEnabled or description is refused with 10001 and changes nothing",
			func(ctx SpecContext, missing string) {
				mayChange()
				id := userID(target.RoleSub)
				c := v2(target.RoleFull)
				old := acl(ctx, id)[0].(map[string]any)
				DeferCleanup(func(ctx SpecContext) {
					do(ctx, c, http.MethodPut, "/sub-acc/acl/"+id, url.Values{"isPayoutEnabled": {fmt.Sprint(old["isPayoutEnabled"])}, "description": {fmt.Sprint(old["description"])}})
				})
				wd, _ := old["isPayoutEnabled"].(bool)
				form := url.Values{"isPayoutEnabled": {fmt.Sprint(!wd)}, "description": {"conform v2 required " + id}}
				form.Del(missing)
				ex := do(ctx, c, http.MethodPut, "/sub-acc/acl/"+id, form)
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "PUT /sub-acc/acl/%s without %s", id, missing)
				Expect(acl(ctx, id)[0]).To(Equal(old), "a refused change without %s changed the settings", missing)
			},
			Entry(nil, "isPayoutEnabled"), Entry(nil, "description"),
		)
	})

	framework.ConformanceContext("V2-SUBACC-IDS-REQUIRED", func() {
		DescribeTable("POST /sub-acc/freeze and /sub-acc/activate without ids are refused with 10001",
			func(ctx SpecContext, path string) {
				mayChange()
				ex := do(ctx, v2(target.RoleFull), http.MethodPost, path, url.Values{})
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST %s without ids", path)
			},
			Entry(nil, "/sub-acc/freeze"), Entry(nil, "/sub-acc/activate"),
		)
	})
})
