package orderlists

import (
	"context"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// market is where a fill spec trades, with what the list specs do there.
type market struct{ trading.Market }

// fillMarkets chooses n distinct symbols where maker and taker may trade
// with each other, with room ticks free on either side of mid (see
// trading.FillMarkets).
func fillMarkets(ctx context.Context, maker, taker *trader, n int, ticks int64) []market {
	GinkgoHelper()
	ms := trading.FillMarkets(ctx, maker.Trader, taker.Trader, trading.FillPlan{
		Symbols: trading.WorkingSymbols(ctx), N: n, Ticks: ticks, Cloids: cloids,
		// Both sides can afford ten trades of either side.
		Need: func(m trading.Market) (quote, base decimal.Decimal) {
			return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(20)), m.Q.Mul(decimal.NewFromInt(10))
		},
	})
	out := make([]market, 0, len(ms))
	for _, m := range ms {
		out = append(out, market{m})
	}
	return out
}

// rest places a spot limit order of the trader that must rest untouched.
func (m market) rest(ctx context.Context, t *trader, side string, n, k int64) params {
	GinkgoHelper()
	p := m.Limit(side, n, k)
	m.Rest(ctx, t.On(trading.Spot), p)
	return p
}

// probeIOC sends an IOC limit order of the trader at k ticks and returns
// what it executed: a way to ask whether anything rests at a price.
func (m market) probeIOC(ctx context.Context, t *trader, side string, n, k int64) decimal.Decimal {
	GinkgoHelper()
	o := m.Take(ctx, t.On(trading.Spot), m.Limit(side, n, k).With("time_in_force", "IOC"))
	return trading.DecField(o, "quantity_cumulative")
}
