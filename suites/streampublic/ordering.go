package streampublic

import (
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// The order of what a subscription brings: its result, then its snapshot,
// then updates; and nothing of a symbol once it is unsubscribed. Beside
// other specs: its trades are on a symbol of its own, held across the run's
// processes for the container (trading.FillMarkets in BeforeAll).
var _ = framework.AreaDescribe("Market data stream: ordering", Ordered, func() {
	var (
		m            trading.Market
		maker, taker *trading.Trader
	)

	BeforeAll(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		maker = trading.NewTrader(target.RoleFull, trading.Spot)
		taker = trading.NewTrader(target.RoleCounterparty, trading.Spot)
		m = trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 2, Cloids: cloids,
			Need: func(m trading.Market) (quote, base decimal.Decimal) {
				return m.At(m.Room).Mul(m.Qn(2)).Mul(decimal.NewFromInt(2)), m.Qn(2)
			}})[0]
		// A trade before subscribing, so that the snapshots have history.
		m.Trade(ctx, maker, taker, "sell", 1, 0)
	})

	framework.ConformanceIt("V3-WS-PUB-SNAPSHOT-ORDER", func(ctx SpecContext) {
		sym := m.Sym.Code
		for _, ch := range []string{"trades", "candles/M1"} {
			s := open(ctx)
			ans := s.request(ctx, s.id(), "subscribe", ch, map[string]any{"symbols": []string{sym}, "limit": 1})
			Expect(ans.Error).To(BeNil(), "subscribe %s with limit 1 is answered with a result: %s", ch, ans.Raw)
			first := s.next(ch)
			Expect(first.member).To(Equal("snapshot"), "%s: no update precedes the snapshot; the first notification was %s", ch, first.text)
			Expect(first.at.Before(ans.At)).To(BeFalse(), "%s: the snapshot follows the response, yet it arrived %s before it\nsnapshot: %s\nresult: %s",
				ch, ans.At.Sub(first.at), first.text, ans.Raw)
		}
	})

	framework.ConformanceIt("V3-WS-PUB-UNSUB-SILENT", func(ctx SpecContext) {
		sym := m.Sym.Code
		gone, kept := open(ctx), open(ctx)
		for _, s := range []*session{gone, kept} {
			s.subscribe(ctx, "trades", map[string]any{"symbols": []string{sym}})
		}
		ans := gone.request(ctx, gone.id(), "unsubscribe", "trades", map[string]any{"symbols": []string{sym}})
		Expect(ans.Error).To(BeNil(), "unsubscribe trades %s is answered with a result: %s", sym, ans.Raw)

		_, t := m.Trade(ctx, maker, taker, "sell", 1, 0)
		id := tradeOf(t).ID
		deadline := time.Now().Add(framework.Timeouts.Eventually)
		seen := kept.collect("trades", deadline, func(n notification) bool { return hasTrade(n, sym, id) })
		Expect(seen).NotTo(BeEmpty(), "the connection still subscribed gets an update of trade %s", id)
		Expect(hasTrade(seen[len(seen)-1], sym, id)).To(BeTrue(), "the connection still subscribed gets the update of trade %s within %s; saw:\n%v",
			id, framework.Timeouts.Eventually, texts(seen))
		// The update has been sent by now: whatever the other connection
		// still receives comes within a short wait.
		for _, n := range gone.collect("trades", time.Now().Add(quiet), func(notification) bool { return false }) {
			if n.at.After(ans.At) {
				Expect(entriesOf(n, sym)).To(BeEmpty(), "after the answer to unsubscribe no trades notification carries %s: %s", sym, n.text)
			}
		}
	})
})
