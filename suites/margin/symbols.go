package margin

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// restingBuy is a limit buy of ten steps at k ticks, which never trades.
func restingBuy(s trading.Symbol, k int64) params { return s.RestingBuy(cloids.New(), k) }

// marginSymbols returns the working spot symbols with margin_trading true,
// by code. Futures contracts carry margin_trading too, but have endpoint
// families of their own.
func marginSymbols(ctx context.Context) []trading.Symbol {
	GinkgoHelper()
	var out []trading.Symbol
	for _, s := range trading.WorkingSymbols(ctx) {
		if s.Margin {
			out = append(out, s)
		}
	}
	return out
}

// fundable returns n margin symbols whose quote t holds (the collateral of
// the suite's margin accounts), skipping the spec when there are fewer.
func fundable(ctx context.Context, t *trader, n int) []trading.Symbol {
	GinkgoHelper()
	out := trading.Holding(marginSymbols(ctx), t.ChoiceBalances(ctx), func(trading.Symbol) (base, quote decimal.Decimal) {
		return decimal.Zero, decimal.Zero
	})
	if len(out) < n {
		Skip(fmt.Sprintf("needs %d working margin symbols whose quote currency the %s account holds; found %d", n, t.Role, len(out)))
	}
	return out[:n]
}

// otherFundable returns a margin symbol other than s whose quote t holds,
// skipping the spec when there is none.
func otherFundable(ctx context.Context, t *trader, s trading.Symbol) trading.Symbol {
	GinkgoHelper()
	bals := t.ChoiceBalances(ctx)
	for _, o := range marginSymbols(ctx) {
		if o.Code != s.Code && bals[o.Quote].Avail.IsPositive() {
			return o
		}
	}
	Skip(fmt.Sprintf("needs a second working margin symbol besides %s whose quote currency the %s account holds", s, t.Role))
	return trading.Symbol{}
}
