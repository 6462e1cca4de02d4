package v2

import (
	"slices"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/market"
)

// currencyJSON is the v2 Currency resource, fields in the document's order.
type currencyJSON struct {
	ID                 string   `json:"id"`
	FullName           string   `json:"fullName"`
	Crypto             bool     `json:"crypto"`
	PayinEnabled       bool     `json:"payinEnabled"`
	PayinPaymentID     bool     `json:"payinPaymentId"`
	PayinConfirmations int64    `json:"payinConfirmations"`
	PayoutEnabled      bool     `json:"payoutEnabled"`
	PayoutIsPaymentID  bool     `json:"payoutIsPaymentId"`
	TransferEnabled    bool     `json:"transferEnabled"`
	Delisted           *bool    `json:"delisted,omitempty"`
	PayoutFee          string   `json:"payoutFee"`
	PayoutMinimalAmt   string   `json:"payoutMinimalAmount"`
	PrecisionPayout    int      `json:"precisionPayout"`
	PrecisionTransfer  int      `json:"precisionTransfer"`
	LowProcessingTime  *float64 `json:"lowProcessingTime,omitempty"`
	HighProcessingTime *float64 `json:"highProcessingTime,omitempty"`
	AvgProcessingTime  *float64 `json:"avgProcessingTime,omitempty"`
}

// digits is the number of places after the point of a precision such as
// "0.00000001".
func digits(precision string) int {
	_, frac, ok := strings.Cut(precision, ".")
	if !ok {
		return 0
	}
	return len(frac)
}

// newCurrency builds the v2 record from the v3 one: per-network values come
// from the currency's default network.
func newCurrency(code string, c market.Currency, d Deps) currencyJSON {
	out := currencyJSON{ID: code, FullName: c.FullName, Crypto: c.Crypto, PayinEnabled: c.PayinEnabled, PayoutEnabled: c.PayoutEnabled,
		TransferEnabled: c.TransferEnabled, PayoutFee: "0", PayoutMinimalAmt: "0", PrecisionTransfer: digits(c.PrecisionTransfer)}
	delisted := c.Delisted
	if !d.Faults.On("V2-CURRENCY-FIELDS") {
		out.Delisted = &delisted
	}
	out.PrecisionPayout = digits(c.PrecisionTransfer)
	for _, n := range c.Networks {
		if !n.Default {
			continue
		}
		out.PayinPaymentID, out.PayinConfirmations, out.PayoutIsPaymentID = n.PayinPaymentID, n.PayinConfirmations, n.PayoutIsPaymentID
		if n.PayoutFee != nil {
			// The minimal payout is the fee itself: less would pay nothing.
			out.PayoutFee, out.PayoutMinimalAmt = *n.PayoutFee, *n.PayoutFee
			if d.Faults.On("V2-V3-PAYOUT-FEE-SAME") {
				out.PayoutFee = dec(*n.PayoutFee).Mul(decimalT{}.Add(one).Add(one)).String()
			}
		}
		out.PrecisionPayout = digits(n.PrecisionPayout)
		out.LowProcessingTime, out.HighProcessingTime, out.AvgProcessingTime = n.LowProcessingTime, n.HighProcessingTime, n.AvgProcessingTime
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
	return out
}

// symbolJSON is the v2 Symbol resource.
type symbolJSON struct {
	ID                   string  `json:"id"`
	BaseCurrency         string  `json:"baseCurrency"`
	QuoteCurrency        string  `json:"quoteCurrency"`
	QuantityIncrement    string  `json:"quantityIncrement"`
	TickSize             string  `json:"tickSize"`
	TakeLiquidityRate    string  `json:"takeLiquidityRate"`
	ProvideLiquidityRate string  `json:"provideLiquidityRate"`
	FeeCurrency          string  `json:"feeCurrency,omitempty"`
	MarginTrading        *bool   `json:"marginTrading,omitempty"`
	MaxInitialLeverage   *string `json:"maxInitialLeverage,omitempty"`
}

func newSymbol(code string, s market.Symbol, d Deps) symbolJSON {
	out := symbolJSON{ID: code, QuoteCurrency: s.QuoteCurrency, QuantityIncrement: s.QuantityIncrement, TickSize: s.TickSize,
		TakeLiquidityRate: s.TakeRate, ProvideLiquidityRate: s.MakeRate, FeeCurrency: s.FeeCurrency, MaxInitialLeverage: s.MaxInitialLeverage}
	if s.BaseCurrency != nil {
		out.BaseCurrency = *s.BaseCurrency
	}
	mt := s.MarginTrading
	out.MarginTrading = &mt
	if d.Faults.On("V2-V3-SYMBOL-SAME") {
		out.TakeLiquidityRate, out.ProvideLiquidityRate = s.MakeRate, s.TakeRate
	}
	if d.Faults.On("V2-SYMBOL-FIELDS") {
		out.FeeCurrency = "" // left out
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

// tickerJSON is the v2 Ticker resource.
type tickerJSON struct {
	Ask         *string `json:"ask"`
	Bid         *string `json:"bid"`
	Last        *string `json:"last"`
	Open        *string `json:"open"`
	Low         *string `json:"low"`
	High        *string `json:"high"`
	Volume      string  `json:"volume"`
	VolumeQuote string  `json:"volumeQuote"`
	Timestamp   string  `json:"timestamp"`
	Symbol      string  `json:"symbol"`
}

// ticker builds a symbol's Ticker: the best prices of the book and the
// 24-hour statistics of the tape.
func ticker(symbol string, d Deps) tickerJSON {
	now := d.Clock.Now()
	st := d.Tape.Stats(symbol, now)
	out := tickerJSON{Symbol: symbol, Volume: st.Volume.String(), VolumeQuote: st.VolumeQuote.String(), Timestamp: wireTime(now)}
	str := func(v decimalT) *string {
		s := v.String()
		return &s
	}
	if bids, asks, _, ok := d.Engine.Depth(symbol, 1); ok {
		if len(asks) > 0 {
			out.Ask = str(asks[0].Price)
		}
		if len(bids) > 0 {
			out.Bid = str(bids[0].Price)
		}
	}
	if d.Faults.On("V2-TICKER-FIELDS") {
		out.Timestamp = ""
	}
	if st.HasLast {
		out.Last = str(st.Last)
	}
	if st.Traded {
		out.Open, out.Low, out.High = str(st.Open), str(st.Low), str(st.High)
	}
	return out
}

func marketRoutes(d Deps) []api.Route {
	return []api.Route{
		{Method: "GET", Path: "/public/currency", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			out := []currencyJSON{}
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
			out := []symbolJSON{}
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
			out := newSymbol(code, s, d)
			if d.Faults.On("V2-SYMBOL-ONE") {
				out.ID = strings.ToLower(out.ID)
			}
			return out, nil
		}},
		{Method: "GET", Path: "/public/ticker", Public: true, Handle: func(r *api.Request) (any, *api.Error) {
			syms := r.Params.List("symbols")
			if d.Faults.On("V2-TICKER-FILTER") {
				syms = nil
			}
			if len(syms) == 0 {
				syms = spotCodes(d.Market)
			}
			out := []tickerJSON{}
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
