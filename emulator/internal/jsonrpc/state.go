package jsonrpc

import (
	"sort"
	"sync"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/shopspring/decimal"
)

// channel is a market data subscription kind.
type channel int

const (
	chanTicker channel = iota
	chanBook
	chanTrades
	chanCandles
)

// maxTrades bounds the public trades kept per symbol (for snapshots,
// candles and getTrades); older ones are dropped first.
const maxTrades = 10_000

// firstSequence is where every symbol's order book sequence starts.
const firstSequence = 1

// subParams are what a subscription asked for.
type subParams struct {
	period string
	limit  int
}

// symState is one symbol's market as the streams show it, built from the
// engine's events.
type symState struct {
	bids, asks map[string]engine.Level // by price
	seq        int64                   // the sequence of the next update
	trades     []engine.PublicTrade    // oldest first
}

// state is the market data of every symbol and who listens to what. One
// mutex orders everything: an answer, its snapshot and the updates after it
// are queued to a connection under it, so they reach it in that order.
type state struct {
	srv  *Server
	mu   sync.Mutex
	syms map[string]*symState
	subs map[channel]map[string]map[*conn]subParams
	// reports are the connections subscribed to order reports, by account.
	reports map[*conn]string
	sub     *feed.Sub
	quit    chan struct{}
}

func newState(s *Server) *state {
	st := &state{srv: s, syms: map[string]*symState{}, subs: map[channel]map[string]map[*conn]subParams{},
		reports: map[*conn]string{}, quit: make(chan struct{})}
	for _, code := range s.spotSymbols() {
		st.syms[code] = &symState{bids: map[string]engine.Level{}, asks: map[string]engine.Level{}, seq: firstSequence}
	}
	st.sub = s.opts.Hub.Subscribe(engine.OrderEvent|engine.TradeEvent|engine.BookEvent|engine.ResetEvent, 1<<16)
	return st
}

func (st *state) stop() {
	close(st.quit)
	st.sub.Close()
}

// follow applies the engine's events until stop. A subscription the hub
// dropped (the follower fell behind) is renewed and the books are read
// afresh from the engine.
func (st *state) follow() {
	defer st.srv.wg.Done()
	for {
		select {
		case <-st.quit:
			return
		case ev, ok := <-st.sub.Events():
			if ok {
				st.apply(ev)
				continue
			}
			select {
			case <-st.quit:
				return
			default:
			}
			st.resync()
		}
	}
}

func (st *state) resync() {
	st.sub = st.srv.opts.Hub.Subscribe(engine.OrderEvent|engine.TradeEvent|engine.BookEvent|engine.ResetEvent, 1<<16)
	for code := range st.syms {
		bids, asks, _, ok := st.srv.opts.Engine.Depth(code, 0)
		if !ok {
			continue
		}
		st.mu.Lock()
		ss := st.syms[code]
		for _, side := range []struct {
			s    engine.Side
			want []engine.Level
			have map[string]engine.Level
		}{{engine.Buy, bids, ss.bids}, {engine.Sell, asks, ss.asks}} {
			want := map[string]engine.Level{}
			for _, l := range side.want {
				want[l.Price.String()] = l
			}
			for k, l := range side.have {
				if _, ok := want[k]; !ok {
					st.level(code, engine.BookLevel{Symbol: code, Side: side.s, Price: l.Price})
				}
			}
			for _, l := range side.want {
				st.level(code, engine.BookLevel{Symbol: code, Side: side.s, Price: l.Price, Size: l.Size})
			}
		}
		st.mu.Unlock()
	}
}

func (st *state) apply(ev engine.Event) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch ev.Kind {
	case engine.BookEvent:
		st.level(ev.Level.Symbol, ev.Level)
	case engine.TradeEvent:
		st.trade(ev.Print)
	case engine.OrderEvent:
		st.order(ev)
	case engine.ResetEvent:
		for code, ss := range st.syms {
			for _, l := range ss.bids {
				st.level(code, engine.BookLevel{Symbol: code, Side: engine.Buy, Price: l.Price})
			}
			for _, l := range ss.asks {
				st.level(code, engine.BookLevel{Symbol: code, Side: engine.Sell, Price: l.Price})
			}
			ss.trades = nil
		}
	}
}

// listeners are the connections subscribed to ch of symbol.
func (st *state) listeners(ch channel, symbol string) map[*conn]subParams { return st.subs[ch][symbol] }

// level applies a book level change and sends the update.
func (st *state) level(symbol string, l engine.BookLevel) {
	ss := st.syms[symbol]
	if ss == nil {
		return
	}
	f := st.srv.opts.Faults
	side := ss.bids
	if l.Side == engine.Sell {
		side = ss.asks
	}
	key := l.Price.String()
	prev, existed := side[key]
	if !existed && l.Size.IsZero() {
		return // nothing changed
	}
	bestBid, bestAsk := best(ss.bids, true), best(ss.asks, false)
	if l.Size.IsZero() {
		delete(side, key)
	} else {
		side[key] = engine.Level{Price: l.Price, Size: l.Size}
	}
	if f.On("V2-WS-BOOK-REBUILD") && existed && !l.Size.IsZero() {
		return // a size change alone goes unreported
	}
	size := l.Size
	if size.IsZero() && f.On("V2-WS-BOOK-DELETE") {
		size = prev.Size
	}
	upd := map[string]any{"ask": []any{}, "bid": []any{}, "symbol": symbol, "sequence": ss.seq, "timestamp": v2shape.Time(st.srv.opts.Clock.Now())}
	name := "bid"
	if l.Side == engine.Sell {
		name = "ask"
	}
	upd[name] = []any{wireLevel(engine.Level{Price: l.Price, Size: size})}
	if f.On("V2-WS-BOOK-SHAPE") {
		delete(upd, "timestamp")
	}
	if f.On("V2-WS-BOOK-SEQ") {
		ss.seq--
	} else {
		ss.seq++
	}
	for c := range st.listeners(chanBook, symbol) {
		c.notify("updateOrderbook", upd)
	}
	if !best(ss.bids, true).Equal(bestBid) || !best(ss.asks, false).Equal(bestAsk) {
		st.tickers(symbol)
	}
}

func wireLevel(l engine.Level) map[string]string {
	return map[string]string{"price": l.Price.String(), "size": l.Size.String()}
}

// best is the best price of a side (zero when empty).
func best(side map[string]engine.Level, bid bool) decimal.Decimal {
	var b decimal.Decimal
	first := true
	for _, l := range side {
		if first || (bid && l.Price.GreaterThan(b)) || (!bid && l.Price.LessThan(b)) {
			b, first = l.Price, false
		}
	}
	return b
}

// sorted lists a side best first.
func sorted(side map[string]engine.Level, bid bool) []any {
	ls := make([]engine.Level, 0, len(side))
	for _, l := range side {
		ls = append(ls, l)
	}
	sort.Slice(ls, func(i, j int) bool {
		if bid {
			return ls[i].Price.GreaterThan(ls[j].Price)
		}
		return ls[i].Price.LessThan(ls[j].Price)
	})
	out := make([]any, len(ls))
	for i, l := range ls {
		out[i] = wireLevel(l)
	}
	return out
}

// bookSnapshot is the full book with the sequence of the following update.
func (st *state) bookSnapshot(symbol string) map[string]any {
	ss := st.syms[symbol]
	seq := ss.seq
	if st.srv.opts.Faults.On("V2-WS-BOOK-SNAPSHOT-SEQ") {
		seq = ss.seq - 1
	}
	return map[string]any{"ask": sorted(ss.asks, false), "bid": sorted(ss.bids, true), "symbol": symbol,
		"sequence": seq, "timestamp": v2shape.Time(st.srv.opts.Clock.Now())}
}

// trade records a public trade and sends the trade, candle and ticker
// updates.
func (st *state) trade(t engine.PublicTrade) {
	ss := st.syms[t.Symbol]
	if ss == nil {
		return
	}
	ss.trades = append(ss.trades, t)
	if len(ss.trades) > maxTrades {
		ss.trades = append(ss.trades[:0:0], ss.trades[len(ss.trades)-maxTrades:]...)
	}
	f := st.srv.opts.Faults
	wt := wireTrade(t)
	if f.On("V2-WS-TRADES-UPDATE") {
		wt["quantity"] = t.Quantity.Add(t.Quantity).String()
	}
	for c := range st.listeners(chanTrades, t.Symbol) {
		c.notify("updateTrades", map[string]any{"data": []any{wt}, "symbol": t.Symbol})
	}
	for c, sp := range st.listeners(chanCandles, t.Symbol) {
		trades := ss.trades
		if f.On("V2-WS-CANDLES-UPDATE") {
			trades = trades[:len(trades)-1]
		}
		cs := candlesOf(trades, sp.period, 0, bucketOf(sp.period, t.Timestamp))
		data := []any{}
		if len(cs) > 0 {
			data = append(data, cs[len(cs)-1])
		} else {
			data = append(data, emptyCandle(bucketOf(sp.period, t.Timestamp)))
		}
		c.notify("updateCandles", map[string]any{"data": data, "symbol": t.Symbol, "period": sp.period})
	}
	st.tickers(t.Symbol)
}

func wireTrade(t engine.PublicTrade) map[string]any {
	return map[string]any{"id": t.ID, "price": t.Price.String(), "quantity": t.Quantity.String(),
		"side": string(t.TakerSide), "timestamp": v2shape.Time(t.Timestamp)}
}

// tickers sends the symbol's ticker to its subscribers.
func (st *state) tickers(symbol string) {
	ls := st.listeners(chanTicker, symbol)
	if len(ls) == 0 {
		return
	}
	t := st.ticker(symbol)
	for c := range ls {
		c.notify("ticker", t)
	}
}

// drop forgets a closed connection.
func (st *state) drop(c *conn) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, bySym := range st.subs {
		for _, cs := range bySym {
			delete(cs, c)
		}
	}
	delete(st.reports, c)
}
