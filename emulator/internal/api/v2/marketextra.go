package v2

import (
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"slices"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
)

// Market data the v2 document leaves "not shown" but v2 clients call,
// served beyond the contract in the shapes of the public service (its v2
// API reference and ccxt's v2 hitbtc class parsers): the ticker of one
// symbol, the order book, public trades and candles, each by symbol or for
// several symbols at once (an object keyed by symbol).

type levelJSON struct {
	Price string `json:"price"`
	Size  string `json:"size"`
}

type bookJSON struct {
	Ask       []levelJSON `json:"ask"`
	Bid       []levelJSON `json:"bid"`
	Timestamp string      `json:"timestamp"`
}

func newBook(bids, asks []engine.Level, at time.Time) bookJSON {
	side := func(ls []engine.Level) []levelJSON {
		out := make([]levelJSON, 0, len(ls))
		for _, l := range ls {
			out = append(out, levelJSON{Price: l.Price.String(), Size: l.Size.String()})
		}
		return out
	}
	return bookJSON{Ask: side(asks), Bid: side(bids), Timestamp: v2shape.Time(at)}
}

type publicTradeJSON struct {
	ID        int64  `json:"id"`
	Price     string `json:"price"`
	Quantity  string `json:"quantity"`
	Side      string `json:"side"`
	Timestamp string `json:"timestamp"`
}

// page sorts (ascending unless DESC), then skips offset and keeps limit.
func page[T any](xs []T, desc bool, offset, limit int) []T {
	xs = slices.Clone(xs)
	if desc {
		slices.Reverse(xs)
	}
	if offset >= len(xs) {
		return []T{}
	}
	xs = xs[offset:]
	if limit > 0 && len(xs) > limit {
		xs = xs[:limit]
	}
	return xs
}

// symbolsOf is the symbol of the path, or the symbols filter (all spot
// symbols when absent).
func symbolsOf(r *api.Request, d Deps) ([]string, bool, *api.Error) {
	if s := r.PathValue("symbol"); s != "" {
		if !d.Market.IsSymbol(s) || d.Market.IsFutures(s) {
			return nil, true, symbolNotFound(s, d)
		}
		return []string{s}, true, nil
	}
	return filter(r.Params, "symbols", spotCodes(d.Market), false), false, nil
}

// bySymbol answers one symbol's value or, on the list paths, an object
// keyed by symbol.
func bySymbol(r *api.Request, d Deps, one func(string) (any, *api.Error)) (any, *api.Error) {
	syms, single, err := symbolsOf(r, d)
	if err != nil {
		return nil, err
	}
	if single {
		return one(syms[0])
	}
	out := map[string]any{}
	for _, s := range syms {
		v, err := one(s)
		if err != nil {
			return nil, err
		}
		out[s] = v
	}
	return out, nil
}

func marketExtraRoutes(d Deps) []api.Route {
	ticker := func(r *api.Request) (any, *api.Error) {
		s := r.PathValue("symbol")
		if !d.Market.IsSymbol(s) || d.Market.IsFutures(s) {
			return nil, symbolNotFound(s, d)
		}
		return ticker(s, d), nil
	}
	book := func(r *api.Request) (any, *api.Error) {
		limit, err := r.Params.Int("limit", 100, 0, 1000) // 0: the whole book
		if err != nil {
			return nil, err
		}
		return bySymbol(r, d, func(s string) (any, *api.Error) {
			bids, asks, _, _ := d.Engine.Depth(s, int(limit))
			return newBook(bids, asks, d.Clock.Now()), nil
		})
	}
	trades := func(r *api.Request) (any, *api.Error) {
		q, err := tapeQuery(r.Params)
		if err != nil {
			return nil, err
		}
		return bySymbol(r, d, func(s string) (any, *api.Error) {
			out := []publicTradeJSON{}
			for _, t := range d.Tape.Trades(s, tape.Keep) { // oldest first
				if q.byID && ((q.fromID != nil && t.ID < *q.fromID) || (q.tillID != nil && t.ID > *q.tillID)) ||
					!q.byID && ((q.from != nil && t.At.Before(*q.from)) || (q.till != nil && t.At.After(*q.till))) {
					continue
				}
				out = append(out, publicTradeJSON{ID: t.ID, Price: t.Price.String(), Quantity: t.Quantity.String(), Side: string(t.Side), Timestamp: v2shape.Time(t.At)})
			}
			return page(out, q.desc, q.offset, q.limit), nil
		})
	}
	candle := func(r *api.Request) (any, *api.Error) {
		period, err := r.Params.Enum("period", "M30", "M1", "M3", "M5", "M15", "M30", "H1", "H4", "D1", "D7", "1M")
		if err != nil {
			return nil, err
		}
		q, err := tapeQuery(r.Params)
		if err != nil {
			return nil, err
		}
		if !r.Params.Has("sort") {
			q.desc = false // candles come oldest first unless asked
		}
		return bySymbol(r, d, func(s string) (any, *api.Error) {
			out := []v2shape.Candle{}
			for _, c := range d.Tape.Candles(s, market.Period(period), tape.Keep) { // oldest first
				if (q.from != nil && c.Start.Before(*q.from)) || (q.till != nil && c.Start.After(*q.till)) {
					continue
				}
				out = append(out, v2shape.NewCandle(c))
			}
			return page(out, q.desc, q.offset, q.limit), nil
		})
	}
	return []api.Route{
		{Method: "GET", Path: "/public/ticker/{symbol}", Public: true, Handle: ticker},
		{Method: "GET", Path: "/public/orderbook", Public: true, Handle: book},
		{Method: "GET", Path: "/public/orderbook/{symbol}", Public: true, Handle: book},
		{Method: "GET", Path: "/public/trades", Public: true, Handle: trades},
		{Method: "GET", Path: "/public/trades/{symbol}", Public: true, Handle: trades},
		{Method: "GET", Path: "/public/candles", Public: true, Handle: candle},
		{Method: "GET", Path: "/public/candles/{symbol}", Public: true, Handle: candle},
	}
}

type tapeQ struct {
	desc, byID     bool
	from, till     *time.Time
	fromID, tillID *int64
	limit, offset  int
}

// tapeQuery reads sort (default DESC), by (timestamp or id), from, till,
// limit (default 100, at most 1000) and offset (at most 100000).
func tapeQuery(p api.Params) (tapeQ, *api.Error) {
	var q tapeQ
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return q, err
	}
	by, err := p.Enum("by", "timestamp", "timestamp", "id")
	if err != nil {
		return q, err
	}
	q.desc, q.byID = sort == "DESC", by == "id"
	if q.byID {
		if q.fromID, err = optInt(p, "from"); err != nil {
			return q, err
		}
		if q.tillID, err = optInt(p, "till"); err != nil {
			return q, err
		}
	} else if q.from, q.till, err = timeBounds(p); err != nil {
		return q, err
	}
	limit, err := p.Int("limit", 100, 0, 1000)
	if err != nil {
		return q, err
	}
	offset, err := p.Int("offset", 0, 0, 100000)
	if err != nil {
		return q, err
	}
	q.limit, q.offset = int(limit), int(offset)
	if q.limit == 0 {
		q.limit = -1 // 0 means no limit on the public paths; page treats <= 0 as none
	}
	return q, nil
}
