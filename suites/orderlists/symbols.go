package orderlists

import (
	"context"
	"fmt"
	"slices"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	"github.com/shopspring/decimal"
)

// parkable returns the symbols on which t can park orders of both sides: it
// holds the base for parked sells and the quote for parked buys, with room
// for many of them.
func parkable(ctx context.Context, t *trader, want func(trading.Symbol) bool) []trading.Symbol {
	GinkgoHelper()
	var syms []trading.Symbol
	for _, s := range trading.WorkingSymbols(ctx) {
		if want == nil || want(s) {
			syms = append(syms, s)
		}
	}
	return trading.Holding(syms, t.ChoiceBalances(ctx), func(s trading.Symbol) (base, quote decimal.Decimal) {
		return s.Qty(10).Mul(decimal.NewFromInt(40)), parkedQuote(s)
	})
}

// buyable returns the symbols on which t can park buys (it holds the quote);
// allOrNone lists need one symbol per order.
func buyable(ctx context.Context, t *trader) []trading.Symbol {
	GinkgoHelper()
	return trading.Holding(trading.WorkingSymbols(ctx), t.ChoiceBalances(ctx), func(s trading.Symbol) (base, quote decimal.Decimal) {
		return decimal.Zero, parkedQuote(s)
	})
}

// parkedQuote is the quote a trader needs for the parked buys of the specs.
func parkedQuote(s trading.Symbol) decimal.Decimal {
	return s.Low(10).Mul(s.Qty(10)).Mul(decimal.NewFromInt(200))
}

// parkableSymbol returns one parkable symbol (a margin one when margin),
// skipping the spec when the target has none.
func parkableSymbol(ctx context.Context, t *trader, margin bool) trading.Symbol {
	GinkgoHelper()
	var want func(trading.Symbol) bool
	if margin {
		want = func(s trading.Symbol) bool { return s.Margin }
	}
	out := parkable(ctx, t, want)
	if len(out) == 0 {
		Skip(fmt.Sprintf("needs a working spot symbol (margin_trading %v) on which the %s account holds both base and quote", margin, t.Role))
	}
	return out[0]
}

// buyableSymbols returns n distinct symbols on which t can park buys,
// skipping the spec when the target has fewer. Symbols on which t also holds
// the base come first, so that a spec may turn one of the first orders into
// a sell without running short of funds.
func buyableSymbols(ctx context.Context, t *trader, n int) []trading.Symbol {
	GinkgoHelper()
	out := buyableFirstParkable(ctx, t)
	if len(out) < n {
		Skip(fmt.Sprintf("needs %d working spot symbols whose quote currency the %s account holds; found %d", n, t.Role, len(out)))
	}
	return out[:n]
}

// buyableFirstParkable is every symbol on which t can park buys, those on
// which it also holds the base first.
func buyableFirstParkable(ctx context.Context, t *trader) []trading.Symbol {
	GinkgoHelper()
	out := parkable(ctx, t, nil)
	for _, s := range buyable(ctx, t) {
		if !slices.ContainsFunc(out, func(o trading.Symbol) bool { return o.Code == s.Code }) {
			out = append(out, s)
		}
	}
	return out
}
