package v2account

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 account: invariants between transaction fields", func() {
	framework.ConformanceIt("V2-TX-TIMES", func(ctx SpecContext) {
		c := framework.Current().V2Signed(target.RoleFull)
		for _, t := range enough(ctx, c, 3) {
			created, updated := trading.TimeField(t, "createdAt"), trading.TimeField(t, "updatedAt")
			Expect(updated.Before(created)).To(BeFalse(), "transaction %v: updatedAt %v is before createdAt %v", t["id"], t["updatedAt"], t["createdAt"])
		}
	})
})
