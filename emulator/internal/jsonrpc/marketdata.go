package jsonrpc

import (
	"sort"
	"strconv"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/shopspring/decimal"
)

// Defaults where the document gives none (V2-WS-CANDLE-DEFAULTS): the
// period of its example and the v2 pagination default.
const (
	defaultPeriod = "M30"
	defaultLimit  = 100
	maxLimit      = 1000
	maxOffset     = 100_000
)

// ticker is the symbol's Ticker: best bid and ask now, trades of the last
// 24 hours.
func (st *state) ticker(symbol string) any {
	ss := st.syms[symbol]
	now := st.srv.opts.Clock.Now()
	var bid, ask *decimal.Decimal
	if len(ss.bids) > 0 {
		b := best(ss.bids, true)
		bid = &b
	}
	if len(ss.asks) > 0 {
		a := best(ss.asks, false)
		ask = &a
	}
	t := v2shape.NewTicker(symbol, now, bid, ask, st.srv.opts.Tape.Stats(symbol, now))
	if st.srv.opts.Faults.On("V2-WS-TICKER") {
		return v2shape.Without(t, "volumeQuote")
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
		method, snap, sp := st.snapshot(ch, symbol, sp)
		st.subs[ch][symbol][c] = sp
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

// snapshot is the notification that follows a subscription, and the
// subscription with the tape sequence the snapshot holds.
func (st *state) snapshot(ch channel, symbol string, sp subParams) (string, any, subParams) {
	f := st.srv.opts.Faults
	switch ch {
	case chanBook:
		return "snapshotOrderbook", st.bookSnapshot(symbol), sp
	case chanTrades:
		limit := sp.limit
		if f.On("V2-WS-TRADES-SNAPSHOT") {
			limit = tape.Keep
		}
		snap := st.srv.opts.Tape.SnapshotTrades([]string{symbol}, limit)
		sp.seq = snap.Seq
		data := make([]any, 0, len(snap.Trades[symbol]))
		for _, t := range snap.Trades[symbol] {
			data = append(data, wireTrade(t))
		}
		return "snapshotTrades", map[string]any{"data": data, "symbol": symbol}, sp
	case chanCandles:
		limit := sp.limit
		if f.On("V2-WS-CANDLES-LIMIT") {
			limit = tape.Keep
		}
		snap := st.srv.opts.Tape.SnapshotCandles([]string{symbol}, market.Period(sp.period), limit)
		sp.seq = snap.Seq
		data := make([]v2shape.Candle, 0, len(snap.Candles[symbol]))
		for _, c := range snap.Candles[symbol] {
			vc := v2shape.NewCandle(c)
			if f.On("V2-WS-CANDLE-MINMAX") {
				vc.Min, vc.Max = vc.Max, vc.Min
			}
			data = append(data, vc)
		}
		msg := map[string]any{"data": data, "symbol": symbol, "period": sp.period}
		if f.On("V2-WS-CANDLES") {
			delete(msg, "period")
		}
		return "snapshotCandles", msg, sp
	default:
		return "ticker", st.ticker(symbol), sp
	}
}

func (s *Server) unsubscribe(ch channel) func(c *conn, req *request, p api.Params) (any, *api.Error) {
	return func(c *conn, _ *request, p api.Params) (any, *api.Error) {
		symbol, err := s.knownSymbol(p)
		if err != nil {
			return nil, err
		}
		if ch == chanBook && s.opts.Faults.On("V2-WS-UNSUBSCRIBE") ||
			ch != chanBook && s.opts.Faults.On("V2-WS-UNSUBSCRIBE-MARKET") {
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
	if by == "timestamp" && s.opts.Faults.On("V2-WS-GETTRADES-BY-TIME") {
		keep = func(tape.Trade) bool { return true }
	}
	all := s.opts.Tape.Trades(symbol, tape.Keep)
	var sel []tape.Trade
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
func tradeFilter(p api.Params, by string) (func(tape.Trade) bool, *api.Error) {
	if by == "timestamp" {
		from, hasFrom, err := p.Time("from")
		if err != nil {
			return nil, err
		}
		till, hasTill, err := p.Time("till")
		if err != nil {
			return nil, err
		}
		// DateTimes are written to the millisecond: a till naming the
		// millisecond of a trade keeps it, whatever its nanoseconds.
		from, till = from.Truncate(time.Millisecond), till.Truncate(time.Millisecond).Add(time.Millisecond-1)
		return func(t tape.Trade) bool {
			return (!hasFrom || !t.At.Before(from)) && (!hasTill || !t.At.After(till))
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
	return func(t tape.Trade) bool {
		return (!hasFrom || t.ID >= from) && (!hasTill || t.ID <= till)
	}, nil
}
