package trading

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Symbol is what the specs read of a Symbol: never hard-coded, always from
// /public/symbol of the target.
type Symbol struct {
	Code, Base, Quote, FeeCurrency string
	Tick, Step, TakeRate, MakeRate decimal.Decimal
	Margin                         bool // margin_trading
}

func (s Symbol) String() string { return s.Code }

// Low is a price of k ticks: far below any price a spec trades at, so a buy
// there rests without trading.
func (s Symbol) Low(k int64) decimal.Decimal { return s.Tick.Mul(decimal.NewFromInt(k)) }

// High is a price far above any price a spec trades at, so a sell there
// rests without trading.
func (s Symbol) High() decimal.Decimal { return s.Tick.Mul(decimal.New(1, 12)) }

// Qty is n quantity increments.
func (s Symbol) Qty(n int64) decimal.Decimal { return s.Step.Mul(decimal.NewFromInt(n)) }

// MaxRate is max(take_rate, make_rate), as the market buy rule uses it.
func (s Symbol) MaxRate() decimal.Decimal { return decimal.Max(s.TakeRate, s.MakeRate) }

// RestingBuy is a limit buy of ten quantity steps at k ticks, which rests
// without trading, with the client_order_id cloid.
func (s Symbol) RestingBuy(cloid string, k int64) Params {
	return Params{"client_order_id": cloid, "symbol": s.Code, "side": "buy", "type": "limit",
		"quantity": s.Qty(10).String(), "price": s.Low(k).String()}
}

// symbolCache holds this process's reading of /public/symbol: listings do
// not change during a run, and real targets rate-limit public calls.
var (
	symbolMu    sync.Mutex
	symbolCache []Symbol
)

// WorkingSymbols returns the spot symbols with status working, by code.
// Futures contracts have endpoint families of their own and are left out.
func WorkingSymbols(ctx context.Context) []Symbol {
	GinkgoHelper()
	symbolMu.Lock()
	defer symbolMu.Unlock()
	if symbolCache != nil {
		return slices.Clone(symbolCache)
	}
	ex, _ := framework.Current().Public().Get(ctx, "/public/symbol", nil)
	Expect(ex).To(framework.BeOK(), "reading the symbol list")
	out := []Symbol{}
	for code, v := range framework.ObjectOf(ex) {
		m, ok := v.(map[string]any)
		if !ok || m["type"] != "spot" || m["status"] != "working" {
			continue
		}
		s := Symbol{Code: code}
		s.Base, _ = m["base_currency"].(string)
		s.Quote, _ = m["quote_currency"].(string)
		s.FeeCurrency, _ = m["fee_currency"].(string)
		s.Margin, _ = m["margin_trading"].(bool)
		s.Tick, s.Step = DecField(m, "tick_size"), DecField(m, "quantity_increment")
		s.TakeRate, s.MakeRate = DecField(m, "take_rate"), DecField(m, "make_rate")
		if s.Base == "" || s.Quote == "" || !s.Tick.IsPositive() || !s.Step.IsPositive() {
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	symbolCache = out
	return slices.Clone(out)
}

// Holding returns the symbols of syms, in order, on which bals (a trader's
// spot balances) hold some of the quote currency and at least what need
// asks of each side: base of the base currency (not checked when zero) and
// quote of the quote currency.
func Holding(syms []Symbol, bals map[string]Balance, need func(Symbol) (base, quote decimal.Decimal)) []Symbol {
	var out []Symbol
	for _, s := range syms {
		base, quote := need(s)
		haveBase, haveQuote := bals[s.Base].Avail, bals[s.Quote].Avail
		if (base.IsPositive() && haveBase.LessThan(base)) || haveQuote.LessThan(quote) || !haveQuote.IsPositive() {
			continue
		}
		out = append(out, s)
	}
	return out
}
