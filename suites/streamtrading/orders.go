package streamtrading

import (
	"context"
	"fmt"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// newSession logs in on the trading stream as the full role on a target
// that permits trading.
func newSession(ctx context.Context) *trading.StreamSession {
	GinkgoHelper()
	framework.Current().RequireTrading()
	framework.Current().RequireStreamTrading()
	return trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
}

var _ = framework.AreaDescribe("Trading stream: orders", func() {
	framework.ConformanceIt("V3-WST-FIFO", func(ctx SpecContext) {
		s := newSession(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		c1, c2, c3 := cloids.New(), cloids.New(), cloids.New()
		for _, c := range []string{c1, c2, c3} {
			s.CancelAtEnd(c)
		}
		replace := func(from, to string, k int64) map[string]any {
			return map[string]any{"client_order_id": from, "new_client_order_id": to, "quantity": sym.Qty(10).String(), "price": sym.Low(k).String()}
		}
		reqs := []struct {
			method string
			params any
		}{
			{"spot_new_order", sym.RestingBuy(c1, 2).JSON()},
			{"spot_replace_order", replace(c1, c2, 3)},
			{"spot_replace_order", replace(c2, c3, 4)},
		}
		// Sent back to back: each request needs the one before it executed.
		ids := make([]string, len(reqs))
		waits := make([]<-chan client.WSMessage, len(reqs))
		for i, r := range reqs {
			ids[i] = s.NextID()
			waits[i] = s.WS.Expect(ids[i])
			Expect(s.WS.Send(map[string]any{"method": r.method, "params": r.params, "id": ids[i]})).To(Succeed())
		}
		answers := make([]client.WSMessage, len(reqs))
		for i := range reqs {
			m, err := s.WS.Await(ctx, waits[i], framework.Timeouts.Request)
			Expect(err).NotTo(HaveOccurred(), "request %d (%s) is answered", i+1, reqs[i].method)
			answers[i] = m
		}
		for i, m := range answers {
			Expect(m.Error).To(BeNil(), "request %d (%s) succeeds when the requests before it executed first: %s", i+1, reqs[i].method, m.Describe())
			if i > 0 {
				Expect(m.At).NotTo(BeTemporally("<", answers[i-1].At), "the answer to request %d came before the answer to request %d", i+1, i)
			}
		}
		Expect(s.IsActive(ctx, c3)).To(BeTrue(), "after the three requests, the order is active as %s", c3)
	})

	framework.ConformanceIt("V3-WST-CLOID-LEN", func(ctx SpecContext) {
		s := newSession(ctx)
		sym := trading.WorkingSymbols(ctx)[0]
		short := cloids.OfLen(7)
		s.CancelAtEnd(short)
		s.CancelAtEnd(short + "_")
		id := s.NextID()
		s.Pace(ctx, "spot_new_order")
		m, err := s.WS.Request(ctx, framework.Timeouts.Request, id, "spot_new_order", map[string]any{"params": sym.RestingBuy(short, 2).JSON()})
		Expect(err).NotTo(HaveOccurred())
		expectErrorWithID(m, id, fmt.Sprintf("spot_new_order with the 7-character client_order_id %q", short))
		for _, c := range trading.CloidsOf(s.Active(ctx, sym.Code)) {
			Expect(strings.HasPrefix(c, short)).To(BeFalse(), "a refused request creates no order, yet %s is active", c)
		}
	})
})
