package spot

import (
	"fmt"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Day and GTD expire with time: only the emulator's clock can be moved, and
// moving it concerns every process's orders, so these specs are Serial.
var _ = framework.AreaDescribe("Time in force with a deadline", Serial, Label(framework.LabelEmulatorOnly), func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		e := framework.Current()
		e.RequireEmulator() // the whole container moves the emulator's clock: its reason comes first
		e.RequireTrading()
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

// In real time: a GTD order a few seconds from its expire_time, on any
// target, since a sandbox's clock cannot be moved. The target's own clock
// (the order's created_at) says how long the order has left.
var _ = framework.AreaDescribe("Time in force with a deadline, in real time", func() {
	framework.ConformanceIt("V3-SPOT-GTD", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		p, exp := gtdSoon(ctx, t, s)
		Expect(t.StatusOf(ctx, p["client_order_id"])).To(Equal("new"), "a GTD order before its expire_time %s is active", exp.Format(time.RFC3339))
		t.EventuallyStatusWithin(ctx, p["client_order_id"], "expired", time.Until(exp)+gtdGrace, "a GTD order after its expire_time "+exp.Format(time.RFC3339))
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "an expired GTD order is not active")
	})
})

// gtdLead is how far ahead of the target's clock a real-time GTD order's
// expire_time is; gtdGrace is how long after it the order may take to show
// expired (the document gives no delay; a target may sweep deadlines now
// and then).
const (
	gtdLead  = 3 * time.Second
	gtdGrace = 5 * time.Second
)

// gtdSoon places a resting GTD buy of t on s whose expire_time, a whole
// second, is about gtdLead ahead of the target's clock, and returns it with
// its expire_time on the harness's clock (the order's created_at tells the
// skew). It skips when the target's clock is so far ahead that the order
// would expire at once.
func gtdSoon(ctx SpecContext, t *trading.Trader, s trading.Symbol) (params, time.Time) {
	GinkgoHelper()
	sent := time.Now()
	exp := trading.TargetNow(ctx).Add(gtdLead).Truncate(time.Second).Add(time.Second)
	p := restingBuy(s, 3).With("time_in_force", "GTD", "expire_time", exp.Format(time.RFC3339))
	o := t.PlaceOK(ctx, p)
	left := exp.Sub(trading.TimeField(o, "created_at"))
	if left < time.Second {
		Skip(fmt.Sprintf("the target created a GTD order at %v, %s before its expire_time %s: its clock is too far from the harness's for a real-time expiry", o["created_at"], left, exp.Format(time.RFC3339)))
	}
	Expect(o["status"]).To(Equal("new"), "a GTD order %s before its expire_time %s rests at first\norder: %v", left.Round(time.Millisecond), exp.Format(time.RFC3339), o)
	return p, sent.Add(left)
}
