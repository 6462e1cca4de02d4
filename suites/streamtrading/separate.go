package streamtrading

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Each subscription's venue alone: an order of the other venue placed
// first, then one of its own; once its own is notified, the other's would
// have come before it (notifications keep the order of the updates).
var _ = framework.AreaDescribe("Trading stream: spot and margin subscriptions apart", func() {
	framework.ConformanceIt("V3-WST-SUBSCRIBE-SEPARATE", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		for _, sub := range []string{"spot_subscribe", "margin_subscribe"} {
			s := newSession(ctx)
			ans := s.Request(ctx, sub, map[string]any{})
			Expect(ans.Error).To(BeNil(), "%s: %s", sub, ans.Describe())
			m := s.On(trading.Margin)
			sym := marginSymbol(ctx, m)
			openIsolated(ctx, m, sym)
			own, other := s.Trader, m
			if sub == "margin_subscribe" {
				own, other = m, s.Trader
			}
			theirs, mine := cloids.New(), cloids.New()
			other.PlaceOK(ctx, sym.RestingBuy(theirs, 2))
			own.PlaceOK(ctx, sym.RestingBuy(mine, 2))
			s.EventuallyNaming(mine, 1, "the "+own.Venue.String()+" order was placed (over REST) on a connection with "+sub)
			Expect(s.Naming(theirs)).To(BeZero(), "a connection with %s alone is not notified of the %s order %s", sub, other.Venue, theirs)
		}
	})
})
