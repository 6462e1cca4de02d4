package streamtrading

import (
	"context"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// subscribed logs in and subscribes to the account's spot order updates.
func subscribed(ctx context.Context) *trading.StreamSession {
	GinkgoHelper()
	s := newSession(ctx)
	ans := s.Request(ctx, "spot_subscribe", map[string]any{})
	Expect(ans.Error).To(BeNil(), "spot_subscribe: %s", ans.Describe())
	return s
}

// placeOK places an order over the stream and expects a result.
func placeOK(ctx context.Context, s *trading.StreamSession, p trading.Params) {
	GinkgoHelper()
	s.CancelAtEnd(p["client_order_id"])
	ans := s.Request(ctx, "spot_new_order", p.JSON())
	Expect(ans.Error).To(BeNil(), "spot_new_order %s: %s", p, ans.Describe())
}

var _ = framework.AreaDescribe("Trading stream: a notification for every order update", func() {
	framework.ConformanceIt("V3-WST-NOTIFY-NEW", func(ctx SpecContext) {
		s := subscribed(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		c := cloids.New()
		placeOK(ctx, s, sym.RestingBuy(c, 2))
		s.EventuallyNaming(c, 1, "the order was placed")
	})

	framework.ConformanceIt("V3-WST-NOTIFY-REPLACE", func(ctx SpecContext) {
		s := subscribed(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		c, repl := cloids.New(), cloids.New()
		placeOK(ctx, s, sym.RestingBuy(c, 2))
		s.CancelAtEnd(repl)
		ans := s.Request(ctx, "spot_replace_order", map[string]any{"client_order_id": c, "new_client_order_id": repl,
			"quantity": sym.Qty(10).String(), "price": sym.Low(3).String()})
		Expect(ans.Error).To(BeNil(), "spot_replace_order: %s", ans.Describe())
		s.EventuallyNaming(repl, 1, "the order was replaced by "+repl)
	})

	framework.ConformanceIt("V3-WST-NOTIFY-CANCEL", func(ctx SpecContext) {
		s := subscribed(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		c := cloids.New()
		placeOK(ctx, s, sym.RestingBuy(c, 2))
		s.EventuallyNaming(c, 1, "the order was placed")
		n := s.Naming(c)
		// Canceled over REST: the stream notifies of every update, not
		// only of those it made.
		s.CancelOK(ctx, c)
		s.EventuallyNaming(c, n+1, "the order was canceled (over REST) after the placement's notifications")
	})

	framework.ConformanceIt("V3-WST-NOTIFY-EXPIRE", func(ctx SpecContext) {
		s := subscribed(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		c := cloids.New()
		// A buy far below the market with IOC finds nothing and expires.
		placeOK(ctx, s, sym.RestingBuy(c, 2).With("time_in_force", "IOC"))
		s.EventuallyStatus(ctx, c, Equal("expired"), "an IOC order that found nothing to match")
		// Two updates: it was placed, then it expired.
		s.EventuallyNaming(c, 2, "the IOC order was placed and expired")
	})

	framework.ConformanceIt("V3-WST-NOTIFY-FILL", func(ctx SpecContext) {
		s := subscribed(ctx)
		taker := trading.NewTrader(target.RoleCounterparty, trading.Spot)
		ms := trading.FillMarkets(ctx, s.Trader, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 2, Cloids: cloids,
			Need: func(m trading.Market) (quote, base decimal.Decimal) {
				return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(2)), m.Q
			}})
		m := ms[0]
		maker := m.Limit("buy", 1, 0)
		placeOK(ctx, s, maker)
		s.EventuallyNaming(maker["client_order_id"], 1, "the maker order was placed")
		before := s.Naming(maker["client_order_id"])
		t := m.Limit("sell", 1, 0)
		taker.CancelAtEnd(t["client_order_id"])
		o := m.Take(ctx, taker, t)
		Expect(o["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's sell meets the resting buy: %v", o)
		s.EventuallyNaming(maker["client_order_id"], before+1, "the resting order was filled by the counterparty's sell")
	})
})
