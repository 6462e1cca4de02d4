package v2

import (
	"cmp"
	"slices"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
)

// newCurrency is the one v2 Currency rendering (v2shape, shared with the
// streams) with this API's fault switches applied on top.
func newCurrency(code string, c market.Currency, d Deps) any {
	out := v2shape.NewCurrency(code, c, false)
	if d.Faults.On("V2-V3-PAYOUT-FEE-SAME") {
		out.PayoutFee = dec(out.PayoutFee).Mul(decimalT{}.Add(one).Add(one)).String()
	}
	if d.Faults.On("V2-V3-NETWORK-SAME") {
		out.PayinConfirmations++
	}
	if d.Faults.On("V2-V3-PRECISION-TRANSFER-SAME") {
		out.PrecisionTransfer++
	}
	if d.Faults.On("V2-V3-CURRENCY-SAME") {
		out.FullName += " (v2)"
	}
	if d.Faults.On("V2-CURRENCY-FIELDS") {
		return v2shape.Without(out, "delisted")
	}
	return out
}

// newSymbol is the one v2 Symbol rendering with this API's fault switches.
func newSymbol(code string, s market.Symbol, d Deps) any {
	out := v2shape.NewSymbol(code, s)
	if d.Faults.On("V2-V3-SYMBOL-SAME") {
		out.TakeLiquidityRate, out.ProvideLiquidityRate = s.MakeRate, s.TakeRate
	}
	if d.Faults.On("V2-SYMBOL-STEPS-POSITIVE") {
		out.QuantityIncrement = "0"
	}
	if d.Faults.On("V2-SYMBOL-FIELDS") {
		return v2shape.Without(out, "feeCurrency")
	}
	return out
}

// spotCodes lists the spot symbols: version 2 has no futures.
func spotCodes(m *market.Catalogue) []string {
	return slices.DeleteFunc(m.SymbolCodes(), m.IsFutures)
}

// filter keeps the codes a comma-separated parameter names (absent or
// empty: all; unknown codes are left out).
func filter(p api.Params, name string, all []string, broken bool) []string {
	want := p.List(name)
	if len(want) == 0 || broken {
		return all
	}
	return slices.DeleteFunc(all, func(c string) bool { return !slices.Contains(want, c) })
}

// ticker is a symbol's Ticker: the best prices of the engine's book and
// the tape's 24-hour statistics, in the one v2 rendering.
func ticker(symbol string, d Deps) v2shape.Ticker {
	now := d.Clock.Now()
	var bid, ask *decimalT
	if bids, asks, _, ok := d.Engine.Depth(symbol, 1); ok {
		if len(asks) > 0 {
			ask = &asks[0].Price
		}
		if len(bids) > 0 {
			bid = &bids[0].Price
		}
	}
	out := v2shape.NewTicker(symbol, now, bid, ask, d.Tape.Stats(symbol, now))
	if d.Faults.On("V2-TICKER-FIELDS") {
		out.Timestamp = ""
	}
	if zero := "0"; d.Faults.On("V2-TICKER-NULL") {
		out.Ask, out.Bid = cmp.Or(out.Ask, &zero), cmp.Or(out.Bid, &zero)
	}
	return out
}

func marketRoutes(d Deps) []api.Route {
	return []api.Route{
		{Method: "GET", Path: "/public/currency", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			out := []any{}
			for _, code := range filter(r.Params, "currencies", d.Market.CurrencyCodes(), d.Faults.On("V2-CURRENCY-FILTER")) {
				c, _ := d.Market.Currency(code)
				out = append(out, newCurrency(code, c, d))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/public/currency/{currency}", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			code := r.PathValue("currency")
			c, ok := d.Market.Currency(code)
			if !ok {
				if d.Faults.On("V2-ERR-2002") {
					return nil, api.SymbolNotFound(code)
				}
				return nil, api.CurrencyNotFound(code)
			}
			if d.Faults.On("V2-CURRENCY-ONE") {
				first := d.Market.CurrencyCodes()[0]
				c, _ = d.Market.Currency(first)
				return newCurrency(first, c, d), nil
			}
			return newCurrency(code, c, d), nil
		}},
		{Method: "GET", Path: "/public/symbol", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			out := []any{}
			for _, code := range filter(r.Params, "symbols", spotCodes(d.Market), d.Faults.On("V2-SYMBOL-FILTER")) {
				s, _ := d.Market.Symbol(code)
				out = append(out, newSymbol(code, s, d))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/public/symbol/{symbol}", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			code := r.PathValue("symbol")
			s, ok := d.Market.Symbol(code)
			if !ok || d.Market.IsFutures(code) {
				return nil, symbolNotFound(code, d)
			}
			if d.Faults.On("V2-SYMBOL-ONE") {
				code = strings.ToLower(code)
			}
			return newSymbol(code, s, d), nil
		}},
		{Method: "GET", Path: "/public/ticker", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			syms := r.Params.List("symbols")
			if d.Faults.On("V2-TICKER-FILTER") {
				syms = nil
			}
			if len(syms) == 0 {
				syms = spotCodes(d.Market)
			}
			out := []v2shape.Ticker{}
			for _, code := range spotCodes(d.Market) {
				if slices.Contains(syms, code) {
					out = append(out, ticker(code, d))
				}
			}
			return out, nil
		}},
	}
}

// symbolNotFound is 2001 (the V2-ERR-2001 fault answers HTTP 404 instead).
func symbolNotFound(code string, d Deps) *api.Error {
	e := api.SymbolNotFound(code)
	if d.Faults.On("V2-ERR-2001") {
		e.Status = 404
	}
	return e
}
