package subaccounts

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Sub-account ACL: invariants between fields", func() {
	framework.ConformanceIt("V3-SUBACC-ACL-TIMES", func(ctx SpecContext) {
		s := newSuper()
		recs := s.acls(ctx, subID(target.RoleSub))
		Expect(recs).NotTo(BeEmpty(), "the ACL of an active sub-account")
		for _, m := range recs {
			created, updated := trading.TimeField(m, "created_at"), trading.TimeField(m, "updated_at")
			Expect(updated.Before(created)).To(BeFalse(), "ACL of %v: updated_at %v is before created_at %v", m["sub_account_id"], m["updated_at"], m["created_at"])
		}
	})
})
