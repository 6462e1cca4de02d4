package jsonrpc

import (
	"sort"
	"strconv"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/shopspring/decimal"
)

// Candle periods of v2 and their lengths (1M is a calendar month).
var periods = map[string]time.Duration{
	"M1": time.Minute, "M3": 3 * time.Minute, "M5": 5 * time.Minute, "M15": 15 * time.Minute, "M30": 30 * time.Minute,
	"H1": time.Hour, "H4": 4 * time.Hour, "D1": 24 * time.Hour, "D7": 7 * 24 * time.Hour, "1M": 0,
}

// Defaults where the document gives none (V2-WS-CANDLE-DEFAULTS): the
// period of its example and the v2 pagination default.
const (
	defaultPeriod = "M30"
	defaultLimit  = 100
	maxLimit      = 1000
	maxOffset     = 100_000
)

func bucketOf(period string, t time.Time) time.Time {
	t = t.UTC()
	if d := periods[period]; d > 0 {
		return t.Truncate(d)
	}
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// candle is one v2 candle.
type candle struct {
	Timestamp   string `json:"timestamp"`
	Open        string `json:"open"`
	Close       string `json:"close"`
	Min         string `json:"min"`
	Max         string `json:"max"`
	Volume      string `json:"volume"`
	VolumeQuote string `json:"volumeQuote"`
}

func emptyCandle(at time.Time) candle {
	return candle{Timestamp: v2shape.Time(at), Open: "0", Close: "0", Min: "0", Max: "0", Volume: "0", VolumeQuote: "0"}
}

// candlesOf builds the candles of period from trades (oldest first): the
// last limit buckets that have trades (all when limit <= 0), oldest first;
// only buckets up to until when until is not zero.
func candlesOf(trades []engine.PublicTrade, period string, limit int, until time.Time) []candle {
	type acc struct {
		at                        time.Time
		open, close, lo, hi, v, q decimal.Decimal
	}
	var out []acc
	for _, t := range trades {
		b := bucketOf(period, t.Timestamp)
		if !until.IsZero() && b.After(until) {
			break
		}
		if n := len(out); n == 0 || !out[n-1].at.Equal(b) {
			out = append(out, acc{at: b, open: t.Price, lo: t.Price, hi: t.Price})
		}
		a := &out[len(out)-1]
		a.close = t.Price
		a.lo, a.hi = decimal.Min(a.lo, t.Price), decimal.Max(a.hi, t.Price)
		a.v = a.v.Add(t.Quantity)
		a.q = a.q.Add(t.Quantity.Mul(t.Price))
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	cs := make([]candle, len(out))
	for i, a := range out {
		cs[i] = candle{Timestamp: v2shape.Time(a.at), Open: a.open.String(), Close: a.close.String(), Min: a.lo.String(),
			Max: a.hi.String(), Volume: a.v.String(), VolumeQuote: a.q.String()}
	}
	return cs
}

// ticker is the symbol's Ticker: best bid and ask now, trades of the last
// 24 hours.
func (st *state) ticker(symbol string) any {
	ss := st.syms[symbol]
	now := st.srv.opts.Clock.Now()
	str := func(d decimal.Decimal) *string { s := d.String(); return &s }
	// Like ask and bid, last, open, low and high are null without data (as
	// the v2 REST ticker answers).
	t := v2shape.Ticker{Volume: "0", VolumeQuote: "0", Timestamp: v2shape.Time(now), Symbol: symbol}
	if len(ss.bids) > 0 {
		t.Bid = str(best(ss.bids, true))
	}
	if len(ss.asks) > 0 {
		t.Ask = str(best(ss.asks, false))
	}
	if n := len(ss.trades); n > 0 {
		t.Last = str(ss.trades[n-1].Price)
	}
	since := now.Add(-24 * time.Hour)
	var open, lo, hi, v, q decimal.Decimal
	seen := false
	for _, tr := range ss.trades {
		if tr.Timestamp.Before(since) {
			continue
		}
		if !seen {
			open, lo, hi, seen = tr.Price, tr.Price, tr.Price, true
		}
		lo, hi = decimal.Min(lo, tr.Price), decimal.Max(hi, tr.Price)
		v, q = v.Add(tr.Quantity), q.Add(tr.Quantity.Mul(tr.Price))
	}
	if seen {
		t.Open, t.Low, t.High = str(open), str(lo), str(hi)
	}
	t.Volume, t.VolumeQuote = v.String(), q.String()
	if st.srv.opts.Faults.On("V2-WS-TICKER") {
		return without(t, "volumeQuote")
	}
	return t
}

// subscribe handles subscribeTicker, subscribeOrderbook, subscribeTrades
// and subscribeCandles: true, then the snapshot, then updates.
func (s *Server) subscribe(ch channel) func(c *conn, req *request, p api.Params) (any, *api.Error) {
	return func(c *conn, req *request, p api.Params) (any, *api.Error) {
		symbol, err := s.knownSymbol(p)
		if err != nil {
			return nil, err
		}
		var sp subParams
		switch ch {
		case chanCandles:
			if sp.period, err = p.Enum("period", defaultPeriod, "M1", "M3", "M5", "M15", "M30", "H1", "H4", "D1", "D7", "1M"); err != nil {
				return nil, err
			}
			fallthrough
		case chanTrades:
			n, err := p.Int("limit", defaultLimit, 0, maxLimit)
			if err != nil {
				return nil, err
			}
			sp.limit = int(n)
		}
		st := s.state
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.subs[ch] == nil {
			st.subs[ch] = map[string]map[*conn]subParams{}
		}
		if st.subs[ch][symbol] == nil {
			st.subs[ch][symbol] = map[*conn]subParams{}
		}
		st.subs[ch][symbol][c] = sp
		method, snap := st.snapshot(ch, symbol, sp)
		var ok any = true
		if s.opts.Faults.On("V2-WS-SUB-TRUE") {
			ok = "subscribed"
		}
		if s.opts.Faults.On("V2-WS-SUB-ORDER") {
			c.notify(method, snap)
			c.result(req, ok)
		} else {
			c.result(req, ok)
			c.notify(method, snap)
		}
		return answered, nil
	}
}

// snapshot is the notification that follows a subscription.
func (st *state) snapshot(ch channel, symbol string, sp subParams) (string, any) {
	ss := st.syms[symbol]
	f := st.srv.opts.Faults
	switch ch {
	case chanBook:
		return "snapshotOrderbook", st.bookSnapshot(symbol)
	case chanTrades:
		trades := ss.trades
		if sp.limit < len(trades) && !f.On("V2-WS-TRADES-SNAPSHOT") {
			trades = trades[len(trades)-sp.limit:]
		}
		data := make([]any, len(trades))
		for i, t := range trades {
			data[i] = wireTrade(t)
		}
		return "snapshotTrades", map[string]any{"data": data, "symbol": symbol}
	case chanCandles:
		snap := map[string]any{"data": candlesOf(ss.trades, sp.period, sp.limit, time.Time{}), "symbol": symbol, "period": sp.period}
		if f.On("V2-WS-CANDLES") {
			delete(snap, "period")
		}
		return "snapshotCandles", snap
	default:
		return "ticker", st.ticker(symbol)
	}
}

func (s *Server) unsubscribe(ch channel) func(c *conn, req *request, p api.Params) (any, *api.Error) {
	return func(c *conn, _ *request, p api.Params) (any, *api.Error) {
		symbol, err := s.knownSymbol(p)
		if err != nil {
			return nil, err
		}
		if ch == chanBook && s.opts.Faults.On("V2-WS-UNSUBSCRIBE") {
			return true, nil
		}
		st := s.state
		st.mu.Lock()
		defer st.mu.Unlock()
		delete(st.subs[ch][symbol], c)
		return true, nil
	}
}

// getTrades answers the symbol's public trades: sort (default DESC), by id
// (default) or timestamp, from and till (ids, or DateTimes by timestamp),
// limit (default 100, at most 1000) and offset (at most 100000).
func (s *Server) getTrades(_ *conn, _ *request, p api.Params) (any, *api.Error) {
	symbol, err := s.knownSymbol(p)
	if err != nil {
		return nil, err
	}
	sortDir, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return nil, err
	}
	by, err := p.Enum("by", "id", "id", "timestamp")
	if err != nil {
		return nil, err
	}
	limit, err := p.Int("limit", defaultLimit, 0, maxLimit)
	if err != nil {
		return nil, err
	}
	offset, err := p.Int("offset", 0, 0, maxOffset)
	if err != nil {
		return nil, err
	}
	keep, err := tradeFilter(p, by)
	if err != nil {
		return nil, err
	}
	s.state.mu.Lock()
	all := append([]engine.PublicTrade(nil), s.state.syms[symbol].trades...)
	s.state.mu.Unlock()
	var sel []engine.PublicTrade
	for _, t := range all {
		if keep(t) {
			sel = append(sel, t)
		}
	}
	if sortDir == "DESC" {
		sort.SliceStable(sel, func(i, j int) bool { return sel[i].ID > sel[j].ID })
	}
	if s.opts.Faults.On("V2-WS-GETTRADES-PAGING") {
		offset = 0
	}
	if int(offset) >= len(sel) {
		sel = nil
	} else {
		sel = sel[offset:]
	}
	if int(limit) < len(sel) {
		sel = sel[:limit]
	}
	data := make([]any, len(sel))
	for i, t := range sel {
		data[i] = wireTrade(t)
	}
	out := map[string]any{"data": data, "symbol": symbol}
	if s.opts.Faults.On("V2-WS-GETTRADES") {
		delete(out, "symbol")
	}
	return out, nil
}

// tradeFilter reads from and till: trade ids when by is id, DateTimes when
// by is timestamp; both bounds inclusive.
func tradeFilter(p api.Params, by string) (func(engine.PublicTrade) bool, *api.Error) {
	if by == "timestamp" {
		from, hasFrom, err := p.Time("from")
		if err != nil {
			return nil, err
		}
		till, hasTill, err := p.Time("till")
		if err != nil {
			return nil, err
		}
		return func(t engine.PublicTrade) bool {
			return (!hasFrom || !t.Timestamp.Before(from)) && (!hasTill || !t.Timestamp.After(till))
		}, nil
	}
	bound := func(name string) (int64, bool, *api.Error) {
		v, ok := p.String(name)
		if !ok {
			return 0, false, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false, api.Validation("%s must be a trade id when by is id, got %q", name, v)
		}
		return n, true, nil
	}
	from, hasFrom, err := bound("from")
	if err != nil {
		return nil, err
	}
	till, hasTill, err := bound("till")
	if err != nil {
		return nil, err
	}
	return func(t engine.PublicTrade) bool {
		return (!hasFrom || t.ID >= from) && (!hasTill || t.ID <= till)
	}, nil
}
