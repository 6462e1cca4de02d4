package v2streams

import (
	"context"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// subscribeCandles takes limit as subscribeTrades does. Two M1 candles of
// history need trades in two different minutes: the emulator's clock is
// moved between them, elsewhere the second waits for the next minute
// (trading.TradesInTwoMinutes): Serial only where the clock moves
// (framework.SerialWhereClockMoves).
// The decorator is chosen inside the top-level container, while the tree is
// built (the suite's flags are parsed by then, not at package init). Last
// of the parallel specs: by then the run's other fill specs have traded in
// earlier minutes, so that the spec need not wait for the next one.
var _ = framework.AreaDescribe("v2 streams: limit on candles", Label(framework.LabelSlow), SpecPriority(-1), func() {
	Context("with trades in two minutes", framework.SerialWhereClockMoves(), func() {
		framework.ConformanceIt("V2-WS-CANDLES-LIMIT", func(ctx SpecContext) {
			f := newFillScene(ctx)
			// The symbol may have a candle of an earlier minute already.
			older := func(ctx context.Context) bool {
				s := open(ctx, pathPublic)
				Expect(s.ok(ctx, "subscribeCandles", frame{"symbol": f.m.Sym.Code, "period": "M1", "limit": 1000})).To(Equal(true), "subscribeCandles with limit 1000")
				return len(data(s.notification(ctx, "snapshotCandles", nil), candleSchema, "snapshotCandles")) >= 2
			}
			f.m.TradesInTwoMinutes(ctx, f.maker, f.taker, "sell", 0, 1, older)
			latest := f.m.At(1)
			sym := f.m.Sym.Code

			one := open(ctx, pathPublic)
			Expect(one.ok(ctx, "subscribeCandles", frame{"symbol": sym, "period": "M1", "limit": 1})).To(Equal(true), "subscribeCandles with limit 1")
			cs := data(one.notification(ctx, "snapshotCandles", nil), candleSchema, "snapshotCandles")
			Expect(cs).To(HaveLen(1), "%s traded in two minutes: limit 1 gives one candle: %v", sym, cs)
			Expect(cs[0]["close"]).To(trading.DecEqual(latest), "the one candle is the latest, closing at the last trade's price %s: %v", latest, cs)

			all := open(ctx, pathPublic)
			Expect(all.ok(ctx, "subscribeCandles", frame{"symbol": sym, "period": "M1", "limit": 1000})).To(Equal(true), "subscribeCandles with limit 1000")
			Expect(len(data(all.notification(ctx, "snapshotCandles", nil), candleSchema, "snapshotCandles"))).To(BeNumerically(">=", 2),
				"limit 1000 gives the older candles too: both minutes with trades")
		})
	})
})
