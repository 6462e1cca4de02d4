package v2

import (
	"slices"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
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
	return bookJSON{Ask: side(asks), Bid: side(bids), Timestamp: wireTime(at)}
}

type publicTradeJSON struct {
	ID        int64  `json:"id"`
	Price     string `json:"price"`
	Quantity  string `json:"quantity"`
	Side      string `json:"side"`
	Timestamp string `json:"timestamp"`
}

type candleJSON struct {
	Timestamp   string `json:"timestamp"`
	Open        string `json:"open"`
	Close       string `json:"close"`
	Min         string `json:"min"`
	Max         string `json:"max"`
	Volume      string `json:"volume"`
	VolumeQuote string `json:"volumeQuote"`
}

// periods are the candle periods of the public service.
var periods = map[string]time.Duration{
	"M1": time.Minute, "M3": 3 * time.Minute, "M5": 5 * time.Minute, "M15": 15 * time.Minute, "M30": 30 * time.Minute,
	"H1": time.Hour, "H4": 4 * time.Hour, "D1": 24 * time.Hour, "D7": 7 * 24 * time.Hour,
}

// bucket is the start of the candle of period p holding t.
func bucket(t time.Time, p string) time.Time {
	if p == "1M" {
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return t.Truncate(periods[p])
}

func candles(ts []engine.PublicTrade, period string) []candleJSON {
	out := []candleJSON{}
	var cur *candleJSON
	var start time.Time
	for _, t := range ts {
		b := bucket(t.Timestamp, period)
		if cur == nil || !b.Equal(start) {
			out = append(out, candleJSON{Timestamp: wireTime(b), Open: t.Price.String(), Close: t.Price.String(), Min: t.Price.String(),
				Max: t.Price.String(), Volume: "0", VolumeQuote: "0"})
			cur, start = &out[len(out)-1], b
		}
		cur.Close = t.Price.String()
		if t.Price.LessThan(dec(cur.Min)) {
			cur.Min = t.Price.String()
		}
		if t.Price.GreaterThan(dec(cur.Max)) {
			cur.Max = t.Price.String()
		}
		cur.Volume = dec(cur.Volume).Add(t.Quantity).String()
		cur.VolumeQuote = dec(cur.VolumeQuote).Add(t.Quantity.Mul(t.Price)).String()
	}
	return out
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
		return newTicker(d.Engine.Tickers([]string{s})[0], d), nil
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
			ts, _ := d.Engine.Tape(s, q.from, q.till)
			if q.byID {
				ts = slices.DeleteFunc(ts, func(t engine.PublicTrade) bool {
					return (q.fromID != nil && t.ID < *q.fromID) || (q.tillID != nil && t.ID > *q.tillID)
				})
			}
			out := make([]publicTradeJSON, 0, len(ts))
			for _, t := range ts {
				out = append(out, publicTradeJSON{ID: t.ID, Price: t.Price.String(), Quantity: t.Quantity.String(), Side: string(t.TakerSide), Timestamp: wireTime(t.Timestamp)})
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
			ts, _ := d.Engine.Tape(s, q.from, q.till)
			return page(candles(ts, period), q.desc, q.offset, q.limit), nil
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

type tape struct {
	desc, byID     bool
	from, till     *time.Time
	fromID, tillID *int64
	limit, offset  int
}

// tapeQuery reads sort (default DESC), by (timestamp or id), from, till,
// limit (default 100, at most 1000) and offset (at most 100000).
func tapeQuery(p api.Params) (tape, *api.Error) {
	var q tape
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
