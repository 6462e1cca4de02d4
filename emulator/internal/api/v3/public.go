package v3

import (
	"slices"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
)

// Beyond the contract: the document names /public/ticker, /public/trades,
// /public/orderbook, /public/candles and /public/price/rate but shows no
// parameters or answers. They are served with the shapes of the public
// service that its client libraries parse (ccxt's hitbtc fetchTicker,
// fetchTickers, fetchTrades, fetchOrderBook, fetchOHLCV), from the
// emulator's own trades and books; the suites never assert them.

// Defaults of the public service's market data queries.
const (
	tradesDefLimit     = 10
	bookDefDepth       = 100
	spotCandleDefList  = 10
	spotCandleDefOne   = 100
	publicMaxLimit     = 1000
	publicMaxBookDepth = 1000
)

type publicHandlers struct {
	t     *tape.Tape
	depth func(symbol string, depth int) (bids, asks []engine.Level, seq uint64, ok bool)
	clk   clock.Clock
}

func publicRoutes(d Deps) []api.Route {
	if d.Tape == nil {
		return nil
	}
	clk := d.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	h := publicHandlers{t: d.Tape, depth: d.Engine.Depth, clk: clk}
	return []api.Route{
		{Method: "GET", Path: "/public/ticker", Public: true, Handle: h.each(h.ticker)},
		{Method: "GET", Path: "/public/ticker/{symbol}", Public: true, Handle: h.one(h.ticker)},
		{Method: "GET", Path: "/public/trades", Public: true, Handle: h.each(h.trades(false))},
		{Method: "GET", Path: "/public/trades/{symbol}", Public: true, Handle: h.one(h.trades(true))},
		{Method: "GET", Path: "/public/orderbook", Public: true, Handle: h.each(h.book)},
		{Method: "GET", Path: "/public/orderbook/{symbol}", Public: true, Handle: h.one(h.book)},
		{Method: "GET", Path: "/public/candles", Public: true, Handle: h.each(h.candles(spotCandleDefList))},
		{Method: "GET", Path: "/public/candles/{symbol}", Public: true, Handle: h.one(h.candles(spotCandleDefOne))},
		{Method: "GET", Path: "/public/price/rate", Public: true, Handle: h.rate},
	}
}

// perSymbol answers one symbol of a query.
type perSymbol func(sym string, p api.Params) (any, *api.Error)

// each answers {symbol: answer} for the symbols parameter (all when absent).
func (h publicHandlers) each(f perSymbol) api.Handler {
	return func(r *api.Request) (any, *api.Error) {
		syms := h.t.Symbols()
		if want := r.Params.List("symbols"); len(want) > 0 {
			for _, s := range want {
				if !h.t.Has(s) {
					return nil, api.SymbolNotFound(s)
				}
			}
			syms = slices.DeleteFunc(syms, func(s string) bool { return !slices.Contains(want, s) })
		}
		out := make(map[string]any, len(syms))
		for _, s := range syms {
			v, err := f(s, r.Params)
			if err != nil {
				return nil, err
			}
			out[s] = v
		}
		return out, nil
	}
}

// one answers the symbol of the path.
func (h publicHandlers) one(f perSymbol) api.Handler {
	return func(r *api.Request) (any, *api.Error) {
		s := r.PathValue("symbol")
		if !h.t.Has(s) {
			return nil, api.SymbolNotFound(s)
		}
		return f(s, r.Params)
	}
}

// publicTicker is the public service's ticker; prices are null until the
// symbol trades (or while its book side is empty).
type publicTicker struct {
	Ask         *string `json:"ask"`
	Bid         *string `json:"bid"`
	Last        *string `json:"last"`
	Low         *string `json:"low"`
	High        *string `json:"high"`
	Open        *string `json:"open"`
	Volume      string  `json:"volume"`
	VolumeQuote string  `json:"volume_quote"`
	Timestamp   string  `json:"timestamp"`
}

func (h publicHandlers) ticker(sym string, _ api.Params) (any, *api.Error) {
	now := h.clk.Now()
	st := h.t.Stats(sym, now)
	bids, asks, _, _ := h.depth(sym, 1)
	f := st.Figures()
	tk := publicTicker{Last: f.Last, Low: f.Low, High: f.High, Open: f.Open, Volume: f.Volume, VolumeQuote: f.VolumeQuote, Timestamp: wireTime(now)}
	if len(bids) > 0 {
		tk.Bid = tape.DecimalString(&bids[0].Price)
	}
	if len(asks) > 0 {
		tk.Ask = tape.DecimalString(&asks[0].Price)
	}
	return tk, nil
}

// publicTrade is a public trade of the public service.
type publicTrade struct {
	ID        int64  `json:"id"`
	Price     string `json:"price"`
	Qty       string `json:"qty"`
	Side      string `json:"side"`
	Timestamp string `json:"timestamp"`
}

// window reads sort (default DESC), from and till.
func window(p api.Params) (desc bool, from, till time.Time, hasFrom, hasTill bool, err *api.Error) {
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return
	}
	desc = sort == "DESC"
	if from, hasFrom, err = p.Time("from"); err != nil {
		return
	}
	till, hasTill, err = p.Time("till")
	return
}

func inWindow(t, from, till time.Time, hasFrom, hasTill bool) bool {
	return (!hasFrom || !t.Before(from)) && (!hasTill || !t.After(till))
}

func (h publicHandlers) trades(_ bool) perSymbol {
	return func(sym string, p api.Params) (any, *api.Error) {
		limit, err := p.Int("limit", tradesDefLimit, 1, publicMaxLimit)
		if err != nil {
			return nil, err
		}
		desc, from, till, hasFrom, hasTill, err := window(p)
		if err != nil {
			return nil, err
		}
		all := h.t.Trades(sym, tape.Keep)
		if desc {
			slices.Reverse(all)
		}
		out := []publicTrade{}
		for _, t := range all {
			if len(out) == int(limit) {
				break
			}
			if inWindow(t.At, from, till, hasFrom, hasTill) {
				out = append(out, publicTrade{ID: t.ID, Price: t.Price.String(), Qty: t.Quantity.String(), Side: string(t.Side), Timestamp: wireTime(t.At)})
			}
		}
		return out, nil
	}
}

// publicBook is an order book of the public service: [[price, size], ...].
type publicBook struct {
	Timestamp string      `json:"timestamp"`
	Ask       [][2]string `json:"ask"`
	Bid       [][2]string `json:"bid"`
}

func bookLevels(ls []engine.Level) [][2]string {
	out := make([][2]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, [2]string{l.Price.String(), l.Size.String()})
	}
	return out
}

func (h publicHandlers) book(sym string, p api.Params) (any, *api.Error) {
	depth, err := p.Int("depth", bookDefDepth, 0, publicMaxBookDepth)
	if err != nil {
		return nil, err
	}
	bids, asks, _, _ := h.depth(sym, int(depth))
	return publicBook{Timestamp: wireTime(h.clk.Now()), Ask: bookLevels(asks), Bid: bookLevels(bids)}, nil
}

// publicCandle is a spot candle of the public service.
type publicCandle struct {
	Timestamp   string `json:"timestamp"`
	Open        string `json:"open"`
	Close       string `json:"close"`
	Min         string `json:"min"`
	Max         string `json:"max"`
	Volume      string `json:"volume"`
	VolumeQuote string `json:"volume_quote"`
}

func (h publicHandlers) candles(defLimit int64) perSymbol {
	return func(sym string, p api.Params) (any, *api.Error) {
		var allowed []string
		for _, per := range market.Periods() {
			allowed = append(allowed, string(per))
		}
		period, err := p.Enum("period", string(market.M30), allowed...)
		if err != nil {
			return nil, err
		}
		limit, err := p.Int("limit", defLimit, 1, publicMaxLimit)
		if err != nil {
			return nil, err
		}
		desc, from, till, hasFrom, hasTill, err := window(p)
		if err != nil {
			return nil, err
		}
		all := h.t.Candles(sym, market.Period(period), tape.Keep)
		if desc {
			slices.Reverse(all)
		}
		out := []publicCandle{}
		for _, c := range all {
			if len(out) == int(limit) {
				break
			}
			if inWindow(c.Start, from, till, hasFrom, hasTill) {
				out = append(out, publicCandle{Timestamp: wireTime(c.Start), Open: c.Open.String(), Close: c.Close.String(),
					Min: c.Low.String(), Max: c.High.String(), Volume: c.Volume.String(), VolumeQuote: c.VolumeQuote.String()})
			}
		}
		return out, nil
	}
}

// rate answers /public/price/rate?from=A,B&to=C: {A: {currency: C, price,
// timestamp}}, from the last trade linking the two; currencies without one
// are left out.
func (h publicHandlers) rate(r *api.Request) (any, *api.Error) {
	to, ok := r.Params.String("to")
	if !ok || to == "" {
		return nil, api.Validation("to is required")
	}
	from := r.Params.List("from")
	if len(from) == 0 {
		return nil, api.Validation("from is required")
	}
	now := wireTime(h.clk.Now())
	out := map[string]any{}
	for _, f := range from {
		if p, ok := h.t.Rate(f, to); ok {
			out[f] = map[string]string{"currency": to, "price": p.String(), "timestamp": now}
		}
	}
	return out, nil
}
