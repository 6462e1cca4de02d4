package spot

import (
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Day and GTD expire with time: only the emulator's clock can be moved, and
// moving it concerns every process's orders, so these specs are Serial.
var _ = Describe("Time in force with a deadline", Serial, Label(framework.LabelEmulatorOnly), func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		e.RequireEmulator()
		t = newTrader(target.RoleFull)
		s = restingSymbol(ctx, t)
	})

	// moveTo advances the emulator clock to at (which must be ahead).
	moveTo := func(ctx SpecContext, at time.Time) {
		GinkgoHelper()
		d := at.Sub(trading.EmulatorNow(ctx))
		Expect(d).To(BeNumerically(">", 0), "the clock is moved forward to %s", at)
		advance(ctx, d)
	}

	framework.ConformanceIt("V3-SPOT-DAY", func(ctx SpecContext) {
		// Keep clear of the boundary itself, where "until 23:59" could be
		// read as today's or tomorrow's.
		if now := trading.EmulatorNow(ctx); now.Hour() == 23 && now.Minute() >= 55 {
			advance(ctx, 10*time.Minute)
		}
		p := restingBuy(s, 3).With("time_in_force", "Day")
		o := t.PlaceOK(ctx, p)
		Expect(o["time_in_force"]).To(Equal("Day"), "the order sent as Day\norder: %v", o)
		created := trading.TimeField(o, "created_at")
		boundary := time.Date(created.Year(), created.Month(), created.Day(), 23, 59, 0, 0, time.UTC)

		moveTo(ctx, boundary.Add(-2*time.Minute))
		Expect(t.StatusOf(ctx, p["client_order_id"])).To(Equal("new"), "a Day order created at %s is active at 23:57 UTC the same day", created)

		moveTo(ctx, boundary.Add(2*time.Minute))
		t.EventuallyStatus(ctx, p["client_order_id"], "expired", "a Day order created at "+created.Format(time.RFC3339)+" after 23:59 UTC (00:01 the next day)")
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "an expired Day order is not active")
	})

	framework.ConformanceIt("V3-SPOT-GTD", func(ctx SpecContext) {
		exp := trading.EmulatorNow(ctx).Add(time.Hour).Truncate(time.Second)
		p := restingBuy(s, 3).With("time_in_force", "GTD", "expire_time", exp.Format(time.RFC3339))
		Expect(t.PlaceOK(ctx, p)["status"]).To(Equal("new"), "the order rests at first")

		moveTo(ctx, exp.Add(-time.Minute))
		Expect(t.StatusOf(ctx, p["client_order_id"])).To(Equal("new"), "a GTD order a minute before its expire_time %s", exp)

		moveTo(ctx, exp.Add(time.Minute))
		t.EventuallyStatus(ctx, p["client_order_id"], "expired", "a GTD order a minute after its expire_time "+exp.Format(time.RFC3339))
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "an expired GTD order is not active")
	})
})
