package streampublic

import (
	"context"
	"fmt"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// The candles row gives limit "as above" (the trades row's): 0 to 1000,
// default 0, no history. Two M1 candles of history need trades in two
// different minutes: the emulator's clock is moved between them, elsewhere
// the second waits for the next minute (trading.TradesInTwoMinutes): Serial only
// where the clock moves (framework.SerialWhereClockMoves).
// The decorator is chosen inside the top-level container, while the tree is
// built (the suite's flags are parsed by then, not at package init). Last
// of the parallel specs: by then the run's other fill specs have traded in
// earlier minutes, so that the spec need not wait for the next one.
var _ = framework.AreaDescribe("Market data stream: limit on candles", Label(framework.LabelSlow), SpecPriority(-1), func() {
	Context("with trades in two minutes", Ordered, framework.SerialWhereClockMoves(), func() {
		var (
			m            trading.Market
			maker, taker *trading.Trader
			latest       time.Time // start of the minute of the latest trade
		)

		BeforeAll(func(ctx SpecContext) {
			framework.Current().RequireTrading()
			maker = trading.NewTrader(target.RoleFull, trading.Spot)
			taker = trading.NewTrader(target.RoleCounterparty, trading.Spot)
			m = trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 3, Cloids: cloids,
				Need: func(m trading.Market) (quote, base decimal.Decimal) {
					return m.At(m.Room).Mul(m.Qn(3)).Mul(decimal.NewFromInt(2)), m.Qn(3)
				}})[0]
			// The symbol may have a candle of an earlier minute already.
			older := func(ctx context.Context) bool {
				s := open(ctx)
				s.subscribe(ctx, "candles/M1", map[string]any{"symbols": []string{m.Sym.Code}, "limit": 1000})
				return len(entriesOf(s.next("candles/M1"), m.Sym.Code)) >= 2
			}
			t := m.TradesInTwoMinutes(ctx, maker, taker, "sell", 0, 1, older)
			latest = tradeOf(t).At.Truncate(time.Minute)
		})

		startOf := func(e map[string]any) time.Time { return time.UnixMilli(dec(fmt.Sprint(e["t"])).IntPart()).UTC() }

		framework.ConformanceIt("V3-WS-PUB-CANDLE-LIMIT", func(ctx SpecContext) {
			sym := m.Sym.Code
			s := open(ctx)

			s.subscribe(ctx, "candles/M1", map[string]any{"symbols": []string{sym}, "limit": 1})
			one := s.next("candles/M1")
			Expect(one.member).To(Equal("snapshot"), "with limit 1 the first notification after the answer is the snapshot: %s", one.text)
			es := entriesOf(one, sym)
			Expect(es).To(HaveLen(1), "%s traded in two minutes: limit 1 gives exactly one candle (at most limit, and there is history): %s", sym, one.text)
			Expect(startOf(es[0]).Before(latest)).To(BeFalse(), "the one candle is the latest (at or after %s), not an older one: %s", latest, one.text)

			all := open(ctx)
			all.subscribe(ctx, "candles/M1", map[string]any{"symbols": []string{sym}, "limit": 1000})
			full := all.next("candles/M1")
			Expect(full.member).To(Equal("snapshot"), "with limit 1000 the first notification after the answer is the snapshot: %s", full.text)
			Expect(len(entriesOf(full, sym))).To(BeNumerically(">=", 2), "limit 1000 gives the history, the candles of both minutes with trades: %s", full.text)

			plain := open(ctx)
			plain.subscribe(ctx, "candles/M1", map[string]any{"symbols": []string{sym}})
			_, t := m.Trade(ctx, maker, taker, "buy", 1, 2)
			third := tradeOf(t)
			seen := plain.collect("candles/M1", time.Now().Add(framework.Timeouts.Eventually), func(n notification) bool {
				es := entriesOf(n, sym)
				return len(es) > 0 && dec(es[len(es)-1]["c"]).Equal(third.Price)
			})
			Expect(seen).NotTo(BeEmpty(), "a subscription without limit still gets the update of the trade at %s", third.Price)
			for _, n := range seen {
				if n.member == "snapshot" {
					Expect(entriesOf(n, sym)).To(BeEmpty(), "without limit (default 0, no history) no past candle is sent: %s", n.text)
				}
				for _, e := range entriesOf(n, sym) {
					Expect(startOf(e).Before(latest)).To(BeFalse(), "without limit no past candle (before %s) is sent: %s", latest, n.text)
				}
			}
		})
	})
})
