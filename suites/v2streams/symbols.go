package v2streams

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// cloids makes the suite's client_order_ids; v2 streams' start with "c2w".
const cloids trading.Cloids = "c2w"

// anySymbol is a working spot symbol of the target.
func anySymbol(ctx context.Context) trading.Symbol {
	GinkgoHelper()
	syms := trading.WorkingSymbols(ctx)
	if len(syms) == 0 {
		Skip("the target lists no working spot symbol")
	}
	return syms[0]
}

// restingSymbol is a working spot symbol on which t can afford resting
// buys (ten quantity steps at a few hundred ticks).
func restingSymbol(ctx context.Context, t *trading.Trader) trading.Symbol {
	GinkgoHelper()
	bals := t.ChoiceBalances(ctx)
	hold := trading.Holding(trading.WorkingSymbols(ctx), bals, func(s trading.Symbol) (decimal.Decimal, decimal.Decimal) {
		return decimal.Zero, s.Low(maxRestingTicks).Mul(s.Qty(20))
	})
	if len(hold) == 0 {
		Skip(fmt.Sprintf("needs a working spot symbol whose quote currency the %s account holds", t.Role))
	}
	return hold[0]
}

// Resting buys go at a random price of this many ticks or fewer, so that
// two specs rarely share a level (and nothing the suites trade at is near).
const (
	minRestingTicks = 200
	maxRestingTicks = 20_000
)

func restingPrice() int64 { return minRestingTicks + rand.Int64N(maxRestingTicks-minRestingTicks) }

// levelsOf are the {price, size} entries of side ("ask" or "bid") of book
// notification params.
func levelsOf(params any, side string) []map[string]any {
	p, _ := params.(map[string]any)
	ls, _ := p[side].([]any)
	out := make([]map[string]any, 0, len(ls))
	for _, l := range ls {
		if m, ok := l.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// levelAt is the level of side at price in book params (nil: none).
func levelAt(params any, side, price string) map[string]any {
	want, err := decimal.NewFromString(price)
	if err != nil {
		return nil
	}
	for _, l := range levelsOf(params, side) {
		if p, ok := trading.AsDecimal(l["price"]); ok && p.Equal(want) {
			return l
		}
	}
	return nil
}

// hasLevelParams matches book notification params that name the level.
func hasLevelParams(side, price string) func(any) bool {
	return func(params any) bool { return levelAt(params, side, price) != nil }
}

// hasLevel matches an updateOrderbook message that names the level.
func hasLevel(side, price string) func(frame) bool {
	return func(f frame) bool {
		return f["method"] == "updateOrderbook" && levelAt(f["params"], side, price) != nil
	}
}
