package margin

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Margin accounts: invariants between fields", func() {
	framework.ConformanceIt("V3-MARGIN-ACCOUNT-TIMES", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := fundable(ctx, t, 1)[0]
		seen := map[string]order{"the PUT answer of an isolated account": t.openIsolated(ctx, s)}
		seen["GET /margin/account/isolated/"+s.Code] = t.account(ctx, isolated, s.Code)
		for where, a := range seen {
			created, updated := trading.TimeField(a, "created_at"), trading.TimeField(a, "updated_at")
			Expect(updated.Before(created)).To(BeFalse(), "%s: updated_at %v is before created_at %v", where, a["updated_at"], a["created_at"])
		}
	})
})
