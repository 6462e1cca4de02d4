package spot

import (
	"context"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// market is where a fill spec trades, with what the fee specs compute on it.
type market struct{ trading.Market }

// fillMarket chooses where maker and taker may trade with each other, with
// room ticks free on either side of mid (see trading.FillMarkets). want,
// when not nil, narrows the symbols. The fee specs need fees charged in
// base or quote, so other symbols are passed over.
func fillMarket(ctx context.Context, maker, taker *trading.Trader, ticks int64, want func(trading.Symbol) bool) market {
	GinkgoHelper()
	var syms []trading.Symbol
	for _, s := range trading.WorkingSymbols(ctx) {
		if want == nil || want(s) {
			syms = append(syms, s)
		}
	}
	ms := trading.FillMarkets(ctx, maker, taker, trading.FillPlan{
		Symbols: syms, N: 1, Ticks: ticks, Cloids: cloids,
		Unfit: func(s trading.Symbol) string {
			if s.FeeCurrency != s.Quote && s.FeeCurrency != s.Base {
				return "fee currency is neither base nor quote"
			}
			return ""
		},
		// Both sides can afford ten trades of either side.
		Need: func(m trading.Market) (quote, base decimal.Decimal) {
			return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(10)).Mul(decimal.NewFromInt(2)), m.Q.Mul(decimal.NewFromInt(10))
		},
	})
	return market{ms[0]}
}

// volume is what a fee is a fraction of, in the fee currency: the quote
// amount when fees are charged in quote, the quantity when in base.
func (m market) volume(qty, price decimal.Decimal) decimal.Decimal {
	if m.Sym.FeeCurrency == m.Sym.Base {
		return qty
	}
	return qty.Mul(price)
}

// feeCharged is what t paid in fees over one trade of qty at price on side,
// read from its balances (available plus reserved) before and after: the
// change of the fee currency less the trade's own flow in it. A rebate is
// negative.
func (m market) feeCharged(side string, qty, price decimal.Decimal, before, after map[string]trading.Balance) decimal.Decimal {
	flow := map[string]decimal.Decimal{m.Sym.Base: qty, m.Sym.Quote: qty.Mul(price).Neg()}
	if side == "sell" {
		flow = map[string]decimal.Decimal{m.Sym.Base: qty.Neg(), m.Sym.Quote: qty.Mul(price)}
	}
	cur := m.Sym.FeeCurrency
	return flow[cur].Sub(after[cur].Total().Sub(before[cur].Total()))
}

// currencies are the balances a trade on the market moves.
func (m market) currencies() []string { return []string{m.Sym.Base, m.Sym.Quote, m.Sym.FeeCurrency} }
