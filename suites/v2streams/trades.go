package v2streams

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

var (
	tradeSchema = framework.Schema{"id": {Kind: framework.Number}, "price": {Kind: framework.Decimal},
		"quantity": {Kind: framework.Decimal}, "side": {Kind: framework.String}, "timestamp": {Kind: framework.DateTime}}
	candleSchema = framework.Schema{"timestamp": {Kind: framework.DateTime}, "open": {Kind: framework.Decimal},
		"close": {Kind: framework.Decimal}, "min": {Kind: framework.Decimal}, "max": {Kind: framework.Decimal},
		"volume": {Kind: framework.Decimal}, "volumeQuote": {Kind: framework.Decimal}}
)

// fillScene is a market where the suite's two accounts trade with each
// other over v3 REST, on a symbol of its own (trading.FillMarkets).
type fillScene struct {
	maker, taker *trading.Trader
	m            trading.Market
}

func newFillScene(ctx context.Context) *fillScene {
	GinkgoHelper()
	maker := trading.NewTrader(target.RoleFull, trading.Spot)
	taker := trading.NewTrader(target.RoleCounterparty, trading.Spot)
	ms := trading.FillMarkets(ctx, maker, taker, trading.FillPlan{
		Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 10, Cloids: cloids,
		Need: func(m trading.Market) (quote, base decimal.Decimal) {
			return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(20)), m.Q.Mul(decimal.NewFromInt(10))
		},
	})
	return &fillScene{maker: maker, taker: taker, m: ms[0]}
}

// trade makes one trade of one quantity at k ticks from mid (the maker
// sells) and returns its price and quantity.
func (f *fillScene) trade(ctx context.Context, k int64) (decimal.Decimal, decimal.Decimal) {
	GinkgoHelper()
	f.m.Trade(ctx, f.maker, f.taker, "sell", 1, k)
	return f.m.At(k), f.m.Q
}

// awaitTrades waits until getTrades shows the newest trades of the market
// at prices, newest first: a trade may reach market data a moment after the
// order that made it was answered.
func (f *fillScene) awaitTrades(ctx context.Context, s *stream, prices ...decimal.Decimal) {
	GinkgoHelper()
	var want []string
	for _, p := range prices {
		want = append(want, p.String())
	}
	Eventually(ctx, func(ctx context.Context) []string {
		var got []string
		r := s.ok(ctx, "getTrades", frame{"symbol": f.m.Sym.Code, "limit": len(prices)})
		for _, t := range data(r, tradeSchema, "getTrades") {
			p, _ := trading.AsDecimal(t["price"])
			got = append(got, p.String())
		}
		return got
	}).WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
		Should(Equal(want), "getTrades shows the trades just made, newest first")
}

// data is the data array of trade or candle params, each checked against
// schema.
func data(params any, schema framework.Schema, what string) []map[string]any {
	GinkgoHelper()
	arr := array(object(params, what)["data"], what+" data")
	out := make([]map[string]any, len(arr))
	for i, v := range arr {
		out[i] = object(v, what+" entry")
		Expect(out[i]).To(framework.MatchSchema(schema), "an entry of %s", what)
	}
	return out
}

var _ = framework.AreaDescribe("v2 streams: trades and candles", func() {
	framework.ConformanceIt("V2-WS-GETTRADES", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		r := object(s.ok(ctx, "getTrades", frame{"symbol": sym.Code, "limit": 5}), "getTrades result")
		Expect(r).To(HaveKeyWithValue("symbol", sym.Code), "getTrades replies with the symbol")
		Expect(len(data(r, tradeSchema, "getTrades"))).To(BeNumerically("<=", 5), "at most limit trades")
	})

	framework.ConformanceIt("V2-WS-CANDLES", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		Expect(s.ok(ctx, "subscribeCandles", frame{"symbol": sym.Code, "period": "M30", "limit": 10})).To(Equal(true), "subscribeCandles")
		snap := object(s.notification(ctx, "snapshotCandles", nil), "snapshotCandles")
		Expect(snap).To(HaveKeyWithValue("symbol", sym.Code), "snapshotCandles names the symbol")
		Expect(snap).To(HaveKeyWithValue("period", "M30"), "snapshotCandles names the period")
		Expect(len(data(snap, candleSchema, "snapshotCandles"))).To(BeNumerically("<=", 10), "at most limit candles")
	})

	framework.ConformanceIt("V2-WS-CANDLE-DEFAULTS", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		a := s.call(ctx, "subscribeCandles", frame{"symbol": sym.Code})
		if _, ok := a["result"]; !ok {
			framework.Observe("V2-WS-CANDLE-DEFAULTS", "subscribeCandles without period and limit was refused: %v", a["error"])
			return
		}
		snap := object(s.notification(ctx, "snapshotCandles", nil), "snapshotCandles")
		d, _ := snap["data"].([]any)
		framework.Observe("V2-WS-CANDLE-DEFAULTS", "without period and limit: period %v, %d candles in the snapshot", snap["period"], len(d))
	})
})

var _ = framework.AreaDescribe("v2 streams: trades and candles", func() {
	Context("with trades between the suite's accounts over v3 REST", func() {
		framework.ConformanceIt("V2-WS-TRADES-UPDATE", func(ctx SpecContext) {
			f := newFillScene(ctx)
			s := open(ctx, pathPublic)
			Expect(s.ok(ctx, "subscribeTrades", frame{"symbol": f.m.Sym.Code, "limit": 1})).To(Equal(true), "subscribeTrades")
			s.notification(ctx, "snapshotTrades", nil)
			price, qty := f.trade(ctx, 1)
			upd := object(s.notification(ctx, "updateTrades", nil), "updateTrades")
			Expect(upd).To(HaveKeyWithValue("symbol", f.m.Sym.Code), "updateTrades names the symbol")
			ts := data(upd, tradeSchema, "updateTrades")
			Expect(ts).NotTo(BeEmpty(), "updateTrades carries the trade")
			last := ts[len(ts)-1]
			Expect(last["price"]).To(trading.DecEqual(price), "the trade's price")
			Expect(last["quantity"]).To(trading.DecEqual(qty), "the trade's quantity")
		})

		framework.ConformanceIt("V2-WS-TRADES-SNAPSHOT", func(ctx SpecContext) {
			f := newFillScene(ctx)
			p1, _ := f.trade(ctx, 1)
			p2, _ := f.trade(ctx, 2)
			p3, _ := f.trade(ctx, 3)
			s := open(ctx, pathPublic)
			f.awaitTrades(ctx, s, p3, p2, p1)
			Expect(s.ok(ctx, "subscribeTrades", frame{"symbol": f.m.Sym.Code, "limit": 2})).To(Equal(true), "subscribeTrades")
			snap := object(s.notification(ctx, "snapshotTrades", nil), "snapshotTrades")
			Expect(snap).To(HaveKeyWithValue("symbol", f.m.Sym.Code), "snapshotTrades names the symbol")
			// "A full snapshot", at most limit: of the three trades just
			// made, limit 2 gives two, neither more nor fewer.
			Expect(data(snap, tradeSchema, "snapshotTrades")).To(HaveLen(2), "with limit 2, of the three trades just made the full snapshot holds two")
		})

		framework.ConformanceIt("V2-WS-GETTRADES-PAGING", func(ctx SpecContext) {
			f := newFillScene(ctx)
			var prices []decimal.Decimal
			for k := int64(1); k <= 3; k++ {
				p, _ := f.trade(ctx, k)
				prices = append([]decimal.Decimal{p}, prices...)
			}
			s := open(ctx, pathPublic)
			f.awaitTrades(ctx, s, prices...)
			ids := func(p frame) []any {
				GinkgoHelper()
				p["symbol"] = f.m.Sym.Code
				var out []any
				for _, t := range data(s.ok(ctx, "getTrades", p), tradeSchema, "getTrades") {
					out = append(out, t["id"])
				}
				return out
			}
			desc := ids(frame{"limit": 3})
			Expect(desc).To(HaveLen(3), "limit 3 after three trades")
			asc := ids(frame{"sort": "ASC", "limit": 1000})
			Expect(len(asc)).To(BeNumerically(">=", 3), "sort ASC lists the trades")
			Expect(asc[len(asc)-3:]).To(Equal([]any{desc[2], desc[1], desc[0]}), "ASC is DESC (the default) reversed")
			Expect(ids(frame{"limit": 1, "offset": 1})).To(Equal([]any{desc[1]}), "offset 1 skips the newest trade")
			Expect(ids(frame{"by": "id", "from": desc[2], "till": desc[1]})).To(Equal([]any{desc[1], desc[2]}),
				"by id, from and till bound the trades by id")
		})

		framework.ConformanceIt("V2-WS-CANDLES-UPDATE", func(ctx SpecContext) {
			f := newFillScene(ctx)
			s := open(ctx, pathPublic)
			Expect(s.ok(ctx, "subscribeCandles", frame{"symbol": f.m.Sym.Code, "period": "M1", "limit": 5})).To(Equal(true), "subscribeCandles")
			before := map[string]decimal.Decimal{}
			for _, c := range data(s.notification(ctx, "snapshotCandles", nil), candleSchema, "snapshotCandles") {
				v, _ := trading.AsDecimal(c["volume"])
				before[c["timestamp"].(string)] = v
			}
			price, qty := f.trade(ctx, 3)
			upd := object(s.notification(ctx, "updateCandles", nil), "updateCandles")
			Expect(upd).To(And(HaveKeyWithValue("symbol", f.m.Sym.Code), HaveKeyWithValue("period", "M1")), "updateCandles names symbol and period")
			cs := data(upd, candleSchema, "updateCandles")
			Expect(cs).NotTo(BeEmpty(), "updateCandles carries the current candle")
			c := cs[len(cs)-1]
			Expect(c["close"]).To(trading.DecEqual(price), "the current candle closes at the trade's price")
			vol, ok := trading.AsDecimal(c["volume"])
			want := before[c["timestamp"].(string)].Add(qty)
			Expect(ok && vol.GreaterThanOrEqual(want)).To(BeTrue(), "the current candle's volume %v includes the trade: at least %s (before it) + %s", c["volume"], before[c["timestamp"].(string)], qty)
		})

		framework.ConformanceIt("V2-WS-UNSUBSCRIBE-MARKET", func(ctx SpecContext) {
			f := newFillScene(ctx)
			sym := f.m.Sym.Code
			// Each subscription's first notification (its snapshot; for the
			// ticker, a ticker).
			subs := map[string]string{"Ticker": "ticker", "Trades": "snapshotTrades", "Candles": "snapshotCandles"}
			updates := []any{"ticker", "updateTrades", "updateCandles"}
			left, stays := open(ctx, pathPublic), open(ctx, pathPublic)
			for _, s := range []*stream{left, stays} {
				for ch, first := range subs {
					s.ok(ctx, "subscribe"+ch, frame{"symbol": sym})
					s.notification(ctx, first, nil)
				}
			}
			for ch := range subs {
				left.call(ctx, "unsubscribe"+ch, frame{"symbol": sym})
			}
			left.pending() // notifications sent before the answers are the subscriptions' own
			f.trade(ctx, 1)
			// The trade reaches the connection still subscribed: trades and
			// candles updates (a ticker may have come earlier).
			seen := map[any]bool{}
			stays.frames(ctx, "updateTrades and updateCandles", func(fr frame) bool {
				seen[fr["method"]] = true
				return seen["updateTrades"] && seen["updateCandles"]
			})
			left.barrier(ctx, "getSymbol", frame{"symbol": sym})
			for _, fr := range left.pending() {
				Expect(updates).NotTo(ContainElement(fr["method"]), "no ticker, trades or candles notification after their unsubscribe: %v", fr)
			}
		})

		framework.ConformanceIt("V2-WS-GETTRADES-BY-TIME", func(ctx SpecContext) {
			f := newFillScene(ctx)
			p1, _ := f.trade(ctx, 1)
			s := open(ctx, pathPublic)
			f.awaitTrades(ctx, s, p1)
			get := func(p frame) []map[string]any {
				GinkgoHelper()
				p["symbol"] = f.m.Sym.Code
				return data(s.ok(ctx, "getTrades", p), tradeSchema, "getTrades")
			}
			idsOf := func(ts []map[string]any) []any {
				var out []any
				for _, t := range ts {
					out = append(out, t["id"])
				}
				return out
			}
			at := func(t map[string]any) time.Time {
				GinkgoHelper()
				v, err := time.Parse(time.RFC3339Nano, fmt.Sprint(t["timestamp"]))
				Expect(err).NotTo(HaveOccurred(), "trade timestamp %v", t["timestamp"])
				return v
			}
			newest := get(frame{"limit": 1})[0]
			ts := fmt.Sprint(newest["timestamp"])
			got := get(frame{"by": "timestamp", "from": ts, "till": ts, "limit": 1000})
			Expect(idsOf(got)).To(ContainElement(newest["id"]), "by timestamp, from and till %s keep the trade of that timestamp", ts)
			for _, t := range got {
				Expect(at(t).Equal(at(newest))).To(BeTrue(), "by timestamp, from and till %s keep only trades of that time, got %v", ts, t)
			}
			before, after := at(newest).Add(-time.Millisecond).Format(time.RFC3339Nano), at(newest).Add(time.Millisecond).Format(time.RFC3339Nano)
			Expect(idsOf(get(frame{"by": "timestamp", "till": before, "limit": 1000}))).NotTo(ContainElement(newest["id"]),
				"till %s (a millisecond before the trade at %s) leaves it out", before, ts)
			Expect(idsOf(get(frame{"by": "timestamp", "from": after, "limit": 1000}))).NotTo(ContainElement(newest["id"]),
				"from %s (a millisecond after the trade at %s) leaves it out", after, ts)
		})
	})
})
