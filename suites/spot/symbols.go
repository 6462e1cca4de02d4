package spot

import (
	"context"
	"fmt"
	"sort"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// spotSymbol is what the specs read of a Symbol: never hard-coded, always
// from /public/symbol of the target.
type spotSymbol struct {
	Code, Base, Quote, FeeCurrency string
	Tick, Step, TakeRate, MakeRate decimal.Decimal
}

func (s spotSymbol) String() string { return s.Code }

// low is a buy price of k ticks: far below any price the specs trade at.
func (s spotSymbol) low(k int64) decimal.Decimal { return s.Tick.Mul(decimal.NewFromInt(k)) }

// high is a sell price far above any price the specs trade at.
func (s spotSymbol) high() decimal.Decimal { return s.Tick.Mul(decimal.New(1, 12)) }

// qty is n quantity increments.
func (s spotSymbol) qty(n int64) decimal.Decimal { return s.Step.Mul(decimal.NewFromInt(n)) }

// maxRate is max(take_rate, make_rate), as the market buy rule uses it.
func (s spotSymbol) maxRate() decimal.Decimal { return decimal.Max(s.TakeRate, s.MakeRate) }

// restingBuy is a limit buy at k ticks that rests without trading.
func (s spotSymbol) restingBuy(k int64) params {
	return params{"client_order_id": newCloid(), "symbol": s.Code, "side": "buy", "type": "limit",
		"quantity": s.qty(10).String(), "price": s.low(k).String()}
}

// restingSell is a limit sell far above the market that rests without trading.
func (s spotSymbol) restingSell() params {
	return params{"client_order_id": newCloid(), "symbol": s.Code, "side": "sell", "type": "limit",
		"quantity": s.qty(10).String(), "price": s.high().String()}
}

// parkedStops are stop and take-profit sells whose triggers no spec's trade
// reaches under any reading of "trigger": a stop sell at a few ticks and a
// take-profit sell far above the market.
func (s spotSymbol) parkedStops() map[string]params {
	q := s.qty(10).String()
	base := params{"symbol": s.Code, "side": "sell", "quantity": q}
	return map[string]params{
		"stopLimit":        base.with("client_order_id", newCloid(), "type", "stopLimit", "stop_price", s.low(5).String(), "price", s.high().String()),
		"stopMarket":       base.with("client_order_id", newCloid(), "type", "stopMarket", "stop_price", s.low(5).String()),
		"takeProfitLimit":  base.with("client_order_id", newCloid(), "type", "takeProfitLimit", "stop_price", s.high().String(), "price", s.high().String()),
		"takeProfitMarket": base.with("client_order_id", newCloid(), "type", "takeProfitMarket", "stop_price", s.high().String()),
	}
}

// symbolCache holds this process's reading of /public/symbol: listings do
// not change during a run, and real targets rate-limit public calls.
var symbolCache []spotSymbol

// workingSymbols returns the spot symbols with status working, by code.
func workingSymbols(ctx context.Context) []spotSymbol {
	GinkgoHelper()
	if symbolCache != nil {
		return symbolCache
	}
	ex, _ := framework.Current().Public().Get(ctx, "/public/symbol", nil)
	Expect(ex).To(framework.BeOK(), "reading the symbol list")
	var out []spotSymbol
	for code, v := range framework.ObjectOf(ex) {
		m, ok := v.(map[string]any)
		if !ok || m["type"] != "spot" || m["status"] != "working" {
			continue
		}
		s := spotSymbol{Code: code}
		s.Base, _ = m["base_currency"].(string)
		s.Quote, _ = m["quote_currency"].(string)
		s.FeeCurrency, _ = m["fee_currency"].(string)
		s.Tick, s.Step = decField(m, "tick_size"), decField(m, "quantity_increment")
		s.TakeRate, s.MakeRate = decField(m, "take_rate"), decField(m, "make_rate")
		if s.Base == "" || s.Quote == "" || !s.Tick.IsPositive() || !s.Step.IsPositive() {
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	symbolCache = out
	return out
}

// restable returns the working spot symbols on which t can rest small
// orders on both sides (a few quantity steps of base, a trifle of quote).
func restable(ctx context.Context, t *trader) []spotSymbol {
	GinkgoHelper()
	bals := t.balances(ctx)
	var out []spotSymbol
	for _, s := range workingSymbols(ctx) {
		needBase := s.qty(10).Mul(decimal.NewFromInt(40))
		needQuote := s.low(1000).Mul(s.qty(10)).Mul(decimal.NewFromInt(80))
		if bals[s.Base].avail.GreaterThanOrEqual(needBase) && bals[s.Quote].avail.GreaterThanOrEqual(needQuote) && bals[s.Quote].avail.IsPositive() {
			out = append(out, s)
		}
	}
	return out
}

// restingSymbols returns n restable symbols, skipping the spec when the
// target has fewer.
func restingSymbols(ctx context.Context, t *trader, n int) []spotSymbol {
	GinkgoHelper()
	out := restable(ctx, t)
	if len(out) < n {
		Skip(fmt.Sprintf("needs %d working spot symbols on which the %s account holds both base and quote; found %d", n, t.role, len(out)))
	}
	return out[:n]
}

// restingSymbol is restingSymbols for one symbol.
func restingSymbol(ctx context.Context, t *trader) spotSymbol {
	GinkgoHelper()
	return restingSymbols(ctx, t, 1)[0]
}
