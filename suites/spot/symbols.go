package spot

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// restingBuy is a limit buy at k ticks that rests without trading.
func restingBuy(s trading.Symbol, k int64) params { return s.RestingBuy(cloids.New(), k) }

// restingSell is a limit sell far above the market that rests without trading.
func restingSell(s trading.Symbol) params {
	return params{"client_order_id": cloids.New(), "symbol": s.Code, "side": "sell", "type": "limit",
		"quantity": s.Qty(10).String(), "price": s.High().String()}
}

// parkedStops are stop and take-profit sells whose triggers no spec's trade
// reaches under any reading of "trigger": a stop sell at a few ticks and a
// take-profit sell far above the market.
func parkedStops(s trading.Symbol) map[string]params {
	q := s.Qty(10).String()
	base := params{"symbol": s.Code, "side": "sell", "quantity": q}
	return map[string]params{
		"stopLimit":        base.With("client_order_id", cloids.New(), "type", "stopLimit", "stop_price", s.Low(5).String(), "price", s.High().String()),
		"stopMarket":       base.With("client_order_id", cloids.New(), "type", "stopMarket", "stop_price", s.Low(5).String()),
		"takeProfitLimit":  base.With("client_order_id", cloids.New(), "type", "takeProfitLimit", "stop_price", s.High().String(), "price", s.High().String()),
		"takeProfitMarket": base.With("client_order_id", cloids.New(), "type", "takeProfitMarket", "stop_price", s.High().String()),
	}
}

// restable returns the working spot symbols on which t can rest small
// orders on both sides (a few quantity steps of base, a trifle of quote).
func restable(ctx context.Context, t *trading.Trader) []trading.Symbol {
	GinkgoHelper()
	return trading.Holding(trading.WorkingSymbols(ctx), t.ChoiceBalances(ctx), func(s trading.Symbol) (base, quote decimal.Decimal) {
		return s.Qty(10).Mul(decimal.NewFromInt(40)), s.Low(1000).Mul(s.Qty(10)).Mul(decimal.NewFromInt(80))
	})
}

// restingSymbols returns n restable symbols, skipping the spec when the
// target has fewer.
func restingSymbols(ctx context.Context, t *trading.Trader, n int) []trading.Symbol {
	GinkgoHelper()
	out := restable(ctx, t)
	if len(out) < n {
		Skip(fmt.Sprintf("needs %d working spot symbols on which the %s account holds both base and quote; found %d", n, t.Role, len(out)))
	}
	return out[:n]
}

// restingSymbol is restingSymbols for one symbol.
func restingSymbol(ctx context.Context, t *trading.Trader) trading.Symbol {
	GinkgoHelper()
	return restingSymbols(ctx, t, 1)[0]
}
