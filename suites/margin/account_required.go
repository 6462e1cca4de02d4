package margin

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Margin: PUT /margin/account without margin_balance", func() {
	framework.ConformanceIt("V3-MARGIN-ACCOUNT-REQUIRED", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := fundable(ctx, t, 1)[0]
		t.openIsolated(ctx, s)
		before := listed(t.accounts(ctx), isolated, s.Code)
		Expect(before).NotTo(BeNil(), "the isolated account on %s is listed once opened", s.Code)
		ex := t.Do(ctx, http.MethodPut, accountPath(isolated, s.Code), params{})
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "PUT %s without margin_balance", accountPath(isolated, s.Code))
		after := listed(t.accounts(ctx), isolated, s.Code)
		Expect(after).NotTo(BeNil(), "a refused PUT without margin_balance closed the account")
		Expect(currencies(after)).To(Equal(currencies(before)), "a refused PUT without margin_balance changed the account's currencies")
	})
})
