package v2streams

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Two trades at different prices in one half hour make a candle with a
// range, where a min above the open or a max below the close shows.
// Beside other specs: it trades on a symbol of its own (trading.FillMarkets
// holds it across the run's processes), where no other spec trades.
var _ = framework.AreaDescribe("v2 streams: a candle's min and max", func() {
	framework.ConformanceIt("V2-WS-CANDLE-MINMAX", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		f := newFillScene(ctx)
		lo, _ := f.trade(ctx, 1)
		hi, _ := f.trade(ctx, 3)
		s := open(ctx, pathPublic)
		f.awaitTrades(ctx, s, hi, lo)
		Expect(s.ok(ctx, "subscribeCandles", frame{"symbol": f.m.Sym.Code, "period": "M30", "limit": 2})).To(Equal(true), "subscribeCandles")
		snap := object(s.notification(ctx, "snapshotCandles", nil), "snapshotCandles")
		ranged := false
		for i, c := range data(snap, candleSchema, "snapshotCandles") {
			min, max := trading.DecField(c, "min"), trading.DecField(c, "max")
			for _, k := range []string{"open", "close"} {
				v := trading.DecField(c, k)
				Expect(min.LessThanOrEqual(v) && v.LessThanOrEqual(max)).To(BeTrue(), "candle %d of %s: min %s <= %s %s <= max %s\ncandle: %v", i, f.m.Sym, min, k, v, max, c)
			}
			ranged = ranged || !min.Equal(max)
		}
		Expect(ranged).To(BeTrue(), "the trades at %s and %s in this half hour make a candle whose min and max differ: %v", lo, hi, snap)
	})
})
