package spot

import (
	"context"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// setAvailable sets t's available balance of cur to exactly amount through
// the emulator's control plane, and puts it back when the spec ends (after
// the spec's orders are canceled, since cleanups run last-in first-out).
func setAvailable(ctx context.Context, t *trading.Trader, cur string, amount decimal.Decimal) {
	GinkgoHelper()
	ctl := framework.Current().Control()
	orig := t.Balance(ctx, cur).Avail
	DeferCleanup(func(ctx SpecContext) {
		now := t.Balance(ctx, cur).Avail
		Expect(ctl.Fund(ctx, t.Acct.APIKey, cur, orig.Sub(now).String())).To(Succeed(), "restoring the %s balance of %s", cur, t.Role)
	})
	now := t.Balance(ctx, cur).Avail
	Expect(ctl.Fund(ctx, t.Acct.APIKey, cur, amount.Sub(now).String())).To(Succeed(), "setting the %s balance of %s to %s", cur, t.Role, amount)
	Expect(t.Balance(ctx, cur).Avail).To(trading.DecEqual(amount), "available %s of %s after funding", cur, t.Role)
}

// advance moves the emulator clock.
func advance(ctx context.Context, d time.Duration) {
	GinkgoHelper()
	Expect(framework.Current().Control().Advance(ctx, d)).To(Succeed(), "moving the emulator clock by %s", d)
}
