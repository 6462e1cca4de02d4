package v3

import (
	"errors"
	"slices"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/market"
)

// Limits of the futures candle endpoints (spec: Market data).
const (
	candleListLimit = 10  // default limit of the list endpoints
	candleOneLimit  = 100 // default limit of the by-contract endpoints
	candleMaxLimit  = 1000
	candleMaxOffset = 100000
)

// marketHandlers serve the public market data endpoints.
type marketHandlers struct {
	m   *market.Catalogue
	f   *faults.Set
	clk clock.Clock
}

// marketRoutes is the route table of public market data.
func marketRoutes(m *market.Catalogue, f *faults.Set, clk clock.Clock) []api.Route {
	if clk == nil {
		clk = clock.Real{}
	}
	h := marketHandlers{m: m, f: f, clk: clk}
	return []api.Route{
		{Method: "GET", Path: "/public/currency", Public: true, Handle: h.currencies},
		{Method: "GET", Path: "/public/currency/{currency}", Public: true, Handle: h.currency},
		{Method: "GET", Path: "/public/symbol", Public: true, Handle: h.symbols},
		{Method: "GET", Path: "/public/symbol/{symbol}", Public: true, Handle: h.symbol},
		{Method: "GET", Path: "/public/futures/candles/open_interest", Public: true, Handle: h.candleList(market.OpenInterest)},
		{Method: "GET", Path: "/public/futures/candles/open_interest/{symbol}", Public: true, Handle: h.candleOne(market.OpenInterest)},
		{Method: "GET", Path: "/public/futures/candles/premium_index", Public: true, Handle: h.candleList(market.PremiumIndex)},
		{Method: "GET", Path: "/public/futures/candles/premium_index/{symbol}", Public: true, Handle: h.candleOne(market.PremiumIndex)},
	}
}

// listFilter applies a comma-separated code filter (currencies, symbols) to
// all, the sorted codes. Absent or empty means all; unknown codes are
// ignored. filterRule and emptyRule name the faults that break each half.
func (h marketHandlers) listFilter(p api.Params, name string, all []string, filterRule, emptyRule string) []string {
	if _, sent := p.String(name); !sent || h.f.On(filterRule) {
		return all
	}
	want := p.List(name)
	if len(want) == 0 {
		if h.f.On(emptyRule) {
			return nil
		}
		return all
	}
	return slices.DeleteFunc(all, func(code string) bool { return !slices.Contains(want, code) })
}

func (h marketHandlers) currencies(r *api.Request) (any, *api.Error) {
	codes := h.listFilter(r.Params, "currencies", h.m.CurrencyCodes(), "V3-CURRENCY-FILTER", "V3-CURRENCY-FILTER-EMPTY")
	if net, ok := r.Params.String("preferred_network"); ok && net != "" {
		codes = slices.DeleteFunc(codes, func(code string) bool {
			cur, _ := h.m.Currency(code)
			return !slices.ContainsFunc(cur.Networks, func(n market.Network) bool { return n.Code == net })
		})
	}
	return keyedByCode(codes, h.m.Currency, h.f.On("V3-CURRENCY-MAP")), nil
}

// keyedByCode is a listing answer: records keyed by code, or, under the
// listing's *-MAP fault, a bare array of them.
func keyedByCode[T any](codes []string, lookup func(string) (T, bool), asArray bool) any {
	if asArray {
		out := make([]T, 0, len(codes))
		for _, code := range codes {
			v, _ := lookup(code)
			out = append(out, v)
		}
		return out
	}
	out := make(map[string]T, len(codes))
	for _, code := range codes {
		out[code], _ = lookup(code)
	}
	return out
}

// oneByCode is a by-code answer: the record itself, or, under the
// endpoint's *-ONE fault, the record wrapped as {code: record}.
func oneByCode[T any](code string, v T, wrapped bool) any {
	if wrapped {
		return map[string]T{code: v}
	}
	return v
}

func (h marketHandlers) currency(r *api.Request) (any, *api.Error) {
	code := r.PathValue("currency")
	cur, ok := h.m.Currency(code)
	if !ok {
		return nil, api.CurrencyNotFound(code)
	}
	return oneByCode(code, cur, h.f.On("V3-CURRENCY-ONE")), nil
}

func (h marketHandlers) symbols(r *api.Request) (any, *api.Error) {
	codes := h.listFilter(r.Params, "symbols", h.m.SymbolCodes(), "V3-SYMBOL-FILTER", "V3-SYMBOL-FILTER-EMPTY")
	return keyedByCode(codes, h.m.Symbol, h.f.On("V3-SYMBOL-MAP")), nil
}

func (h marketHandlers) symbol(r *api.Request) (any, *api.Error) {
	code := r.PathValue("symbol")
	s, ok := h.m.Symbol(code)
	if !ok {
		return nil, api.SymbolNotFound(code)
	}
	return oneByCode(code, s, h.f.On("V3-SYMBOL-ONE")), nil
}

// candleList serves /public/futures/candles/{kind}: candles per contract.
func (h marketHandlers) candleList(kind market.Kind) api.Handler {
	return func(r *api.Request) (any, *api.Error) {
		limit := int64(candleListLimit)
		if h.f.On("V3-FCANDLE-LIST-LIMIT-DEFAULT") {
			limit = 20
		}
		q, err := h.candleQuery(r.Params, limit, false)
		if err != nil {
			return nil, err
		}
		contracts := h.m.FuturesCodes()
		if want := r.Params.List("symbols"); len(want) > 0 && !h.f.On("V3-FCANDLE-SYMBOLS") {
			contracts = slices.DeleteFunc(contracts, func(code string) bool { return !slices.Contains(want, code) })
		}
		byContract := make(map[string]any, len(contracts))
		var flat []market.Candle
		for _, code := range contracts {
			cs, err := h.candles(code, kind, q)
			if err != nil {
				return nil, err
			}
			byContract[code] = h.render(cs)
			flat = append(flat, cs...)
		}
		if h.f.On("V3-FCANDLE-LIST-SHAPE") {
			return h.render(flat), nil
		}
		return byContract, nil
	}
}

// candleOne serves /public/futures/candles/{kind}/{symbol}.
func (h marketHandlers) candleOne(kind market.Kind) api.Handler {
	return func(r *api.Request) (any, *api.Error) {
		code := r.PathValue("symbol")
		if !h.m.IsFutures(code) {
			return nil, api.SymbolNotFound(code)
		}
		limit := int64(candleOneLimit)
		if h.f.On("V3-FCANDLE-ONE-LIMIT-DEFAULT") {
			limit = 50
		}
		q, err := h.candleQuery(r.Params, limit, true)
		if err != nil {
			return nil, err
		}
		cs, err := h.candles(code, kind, q)
		if err != nil {
			return nil, err
		}
		return h.render(cs), nil
	}
}

func (h marketHandlers) candles(code string, kind market.Kind, q market.CandleQuery) ([]market.Candle, *api.Error) {
	cs, err := h.m.Candles(code, kind, q)
	switch {
	case errors.Is(err, market.ErrUnknownContract):
		return nil, api.SymbolNotFound(code)
	case err != nil: // the query was validated, so this is an emulator bug
		return nil, api.Internal("futures candles of %s: %v", code, err)
	}
	return cs, nil
}

// candleQuery reads sort, period, from, till, limit and (on the
// by-contract endpoints) offset.
func (h marketHandlers) candleQuery(p api.Params, defLimit int64, withOffset bool) (market.CandleQuery, *api.Error) {
	q := market.CandleQuery{Now: h.clk.Now()}

	defSort := "DESC"
	if h.f.On("V3-FCANDLE-SORT-DEFAULT") {
		defSort = "ASC"
	}
	sort, err := p.Enum("sort", defSort, "ASC", "DESC")
	if err != nil {
		if !h.f.On("V3-ERR-10001") {
			return q, err
		}
		sort = defSort
	}
	if _, sent := p.String("sort"); sent && h.f.On("V3-FCANDLE-SORT") {
		sort = "DESC"
	}
	q.Desc = sort == "DESC"

	defPeriod := market.M30
	if h.f.On("V3-FCANDLE-PERIOD-DEFAULT") {
		defPeriod = market.H1
	}
	var allowed []string
	for _, per := range market.Periods() {
		if h.f.On("V3-FCANDLE-PERIOD") && (per == market.D7 || per == market.Month) {
			continue
		}
		allowed = append(allowed, string(per))
	}
	period, err := p.Enum("period", string(defPeriod), allowed...)
	if err != nil {
		return q, err
	}
	q.Period = market.Period(period)

	from, hasFrom, err := p.Time("from")
	if err != nil {
		return q, err
	}
	till, hasTill, err := p.Time("till")
	if err != nil {
		return q, err
	}
	if hasFrom && hasTill && from.After(till) {
		return q, api.Validation("from (%s) is after till (%s)", from.Format(market.TimeLayout), till.Format(market.TimeLayout))
	}
	q.From = from
	if !h.f.On("V3-FCANDLE-RANGE") {
		q.Till = till
	}

	limit, err := p.Int("limit", defLimit, 1, candleMaxLimit)
	if err != nil {
		return q, err
	}
	if _, sent := p.String("limit"); sent && h.f.On("V3-FCANDLE-LIMIT") {
		limit++
	}
	q.Limit = int(limit)

	if withOffset {
		offset, err := p.Int("offset", 0, 0, candleMaxOffset)
		if err != nil {
			return q, err
		}
		if !h.f.On("V3-FCANDLE-OFFSET") {
			q.Offset = int(offset)
		}
	}
	return q, nil
}

// lowHighCandle is the V3-FCANDLE-FIELDS fault's candle: min and max renamed.
type lowHighCandle struct {
	Timestamp string `json:"timestamp"`
	Open      string `json:"open"`
	Close     string `json:"close"`
	Low       string `json:"low"`
	High      string `json:"high"`
}

// render turns candles into their answer, never null.
func (h marketHandlers) render(cs []market.Candle) any {
	if !h.f.On("V3-FCANDLE-FIELDS") {
		if cs == nil {
			cs = []market.Candle{}
		}
		if h.f.On("V3-FCANDLE-MINMAX") {
			// min and max swapped: every candle with a range breaks min <= open <= max.
			cs = slices.Clone(cs)
			for i := range cs {
				cs[i].Min, cs[i].Max = cs[i].Max, cs[i].Min
			}
		}
		return cs
	}
	out := make([]lowHighCandle, 0, len(cs))
	for _, c := range cs {
		out = append(out, lowHighCandle{Timestamp: market.FormatTime(c.Timestamp),
			Open: c.Open, Close: c.Close, Low: c.Min, High: c.Max})
	}
	return out
}
