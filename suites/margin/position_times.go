package margin

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A position of a market of the spec's own (marginMarkets), as the other position specs.
var _ = framework.AreaDescribe("Margin positions: invariants between fields", func() {
	framework.ConformanceIt("V3-MARGIN-POSITION-TIMES", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t, cp := newTrader(target.RoleFull), newTrader(target.RoleCounterparty)
		m := marginMarkets(ctx, t, cp, 1)[0]
		m.open(ctx, t, cp, 1)
		t.eventuallyPosition(ctx, m.Sym, m.Q, "a long position after buying")
		for _, tr := range []*trader{t, cp} {
			p := tr.position(ctx, m.Sym)
			created, updated := trading.TimeField(p, "created_at"), trading.TimeField(p, "updated_at")
			Expect(updated.Before(created)).To(BeFalse(), "%s's position on %s: updated_at %v is before created_at %v", tr.Role, m.Sym, p["updated_at"], p["created_at"])
		}
	})
})
