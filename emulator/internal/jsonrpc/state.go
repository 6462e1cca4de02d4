package jsonrpc

import (
	"sort"
	"sync"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
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

// firstSequence is where every symbol's order book sequence starts.
const firstSequence = 1

// subParams are what a subscription asked for, and the tape sequence of
// its snapshot (the trades and candles updates it already holds).
type subParams struct {
	period string
	limit  int
	seq    uint64
}

// symState is one symbol's market as the streams show it, built from the
// engine's events.
type symState struct {
	bids, asks map[string]engine.Level // by price
	seq        int64                   // the sequence of the next update
}

// state is the market data of every symbol and who listens to what. One
// mutex orders everything: an answer, its snapshot and the updates after it
// are queued to a connection under it, so they reach it in that order.
//
// Public trades and candles are the tape's (emulator/internal/tape, shared
// with the v3 market data); its updates are followed all the time. Book and
// order events come with every order, so they are followed only while a v2
// connection is open: the books are read from the engine when the first one
// opens.
type state struct {
	srv  *Server
	mu   sync.Mutex
	syms map[string]*symState
	subs map[channel]map[string]map[*conn]subParams
	// reports are the connections subscribed to order reports, by account.
	reports map[*conn]string
	// awaited are the trading requests waiting for their order's report to
	// be sent before their answer (see awaitReport).
	awaited map[orderKey][]chan struct{}
	tape    *tape.Listener // trade updates, always
	// live follows book and order events while conns > 0; gen tells its
	// events from those of an earlier one still draining.
	conns int
	live  *feed.Sub
	gen   int
	quit  chan struct{}
}

const (
	liveKinds = engine.BookEvent | engine.OrderEvent | engine.ResetEvent
	queueLen  = 1 << 16
)

func newState(s *Server) *state {
	st := &state{srv: s, syms: map[string]*symState{}, subs: map[channel]map[string]map[*conn]subParams{},
		reports: map[*conn]string{}, awaited: map[orderKey][]chan struct{}{}, quit: make(chan struct{})}
	for _, code := range s.spotSymbols() {
		st.syms[code] = &symState{bids: map[string]engine.Level{}, asks: map[string]engine.Level{}, seq: firstSequence}
	}
	st.tape = s.opts.Tape.Listen()
	return st
}

func (st *state) stop() {
	close(st.quit)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.tape.Close()
	if st.live != nil {
		st.live.Close()
	}
}

// follow sends the tape's trade updates until stop; a listener the tape
// dropped (the follower fell behind) is renewed.
func (st *state) follow() {
	defer st.srv.wg.Done()
	for {
		st.mu.Lock()
		l := st.tape
		st.mu.Unlock()
		select {
		case <-st.quit:
			return
		case u, ok := <-l.C():
			if ok {
				if !u.Reset {
					st.mu.Lock()
					st.trade(*u)
					st.mu.Unlock()
				}
				continue
			}
			select {
			case <-st.quit:
				return
			default:
				st.mu.Lock()
				st.tape = st.srv.opts.Tape.Listen()
				st.mu.Unlock()
			}
		}
	}
}

// connected counts a new connection, starting to follow the books and
// orders for the first.
func (st *state) connected() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.conns++
	if st.conns == 1 {
		st.goLive()
	}
}

func (st *state) disconnected() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.conns--
	if st.conns == 0 && st.live != nil {
		st.live.Close()
		st.live = nil
	}
}

// goLive subscribes to book and order events and reads every book from the
// engine, skipping the events the reading already shows. Called under mu.
func (st *state) goLive() {
	st.gen++
	sub := st.srv.opts.Hub.Subscribe(liveKinds, queueLen)
	st.live = sub
	seen := map[string]uint64{}
	for code, ss := range st.syms {
		bids, asks, seq, ok := st.srv.opts.Engine.Depth(code, 0)
		if !ok {
			continue
		}
		seen[code] = seq
		// Nobody listens while no connection is open; the sequence moves
		// on, so that it never repeats.
		ss.bids, ss.asks = levelMap(bids), levelMap(asks)
		ss.seq++
	}
	st.srv.wg.Add(1)
	go st.followLive(sub, st.gen, seen)
}

func levelMap(ls []engine.Level) map[string]engine.Level {
	m := make(map[string]engine.Level, len(ls))
	for _, l := range ls {
		m[l.Price.String()] = l
	}
	return m
}

// followLive applies book and order events of one live subscription until
// it ends; one the hub dropped is renewed while connections are open.
func (st *state) followLive(sub *feed.Sub, gen int, seen map[string]uint64) {
	defer st.srv.wg.Done()
	for ev := range sub.Events() {
		st.mu.Lock()
		if st.gen == gen && !(ev.Kind == engine.BookEvent && ev.Seq <= seen[ev.Level.Symbol]) {
			st.apply(*ev)
		}
		st.mu.Unlock()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if sub.Dropped() && st.gen == gen && st.conns > 0 {
		st.goLive()
	}
}

// apply applies one book or order event (or a reset of the books) under
// mu.
func (st *state) apply(ev engine.Event) {
	switch ev.Kind {
	case engine.BookEvent:
		st.level(ev.Level.Symbol, ev.Level)
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
	// The best prices matter only to ticker listeners; finding them walks
	// the side, so it is skipped when nobody listens.
	ticking := len(st.listeners(chanTicker, symbol)) > 0
	var bestBid, bestAsk decimal.Decimal
	if ticking {
		bestBid, bestAsk = best(ss.bids, true), best(ss.asks, false)
	}
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
	n := broadcast{srv: st.srv, method: "updateOrderbook", params: upd}
	for c := range st.listeners(chanBook, symbol) {
		n.to(c)
	}
	if ticking && (!best(ss.bids, true).Equal(bestBid) || !best(ss.asks, false).Equal(bestAsk)) {
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

// trade sends the trade, candle and ticker updates of a new trade to the
// subscriptions whose snapshot came before it.
func (st *state) trade(u tape.Update) {
	if st.syms[u.Symbol] == nil {
		return
	}
	f := st.srv.opts.Faults
	wt := wireTrade(u.Trade)
	if f.On("V2-WS-TRADES-UPDATE") {
		wt["quantity"] = u.Trade.Quantity.Add(u.Trade.Quantity).String()
	}
	n := broadcast{srv: st.srv, method: "updateTrades", params: map[string]any{"data": []any{wt}, "symbol": u.Symbol}}
	for c, sp := range st.listeners(chanTrades, u.Symbol) {
		if u.Seq > sp.seq {
			n.to(c)
		}
	}
	var candles map[string]*broadcast // by period, made on first use
	for c, sp := range st.listeners(chanCandles, u.Symbol) {
		if u.Seq <= sp.seq {
			continue
		}
		cn, seen := candles[sp.period]
		if !seen {
			cd, ok := st.srv.opts.Tape.CandleOf(u.Symbol, market.Period(sp.period), u.Trade.At)
			if ok {
				if f.On("V2-WS-CANDLES-UPDATE") {
					cd.Volume = cd.Volume.Sub(u.Trade.Quantity)
				}
				cn = &broadcast{srv: st.srv, method: "updateCandles", params: map[string]any{"data": []any{v2shape.NewCandle(cd)}, "symbol": u.Symbol, "period": sp.period}}
			}
			if candles == nil {
				candles = map[string]*broadcast{}
			}
			candles[sp.period] = cn
		}
		if cn != nil {
			cn.to(c)
		}
	}
	st.tickers(u.Symbol)
}

func wireTrade(t tape.Trade) map[string]any {
	return map[string]any{"id": t.ID, "price": t.Price.String(), "quantity": t.Quantity.String(),
		"side": string(t.Side), "timestamp": v2shape.Time(t.At)}
}

// tickers sends the symbol's ticker to its subscribers.
func (st *state) tickers(symbol string) {
	ls := st.listeners(chanTicker, symbol)
	if len(ls) == 0 {
		return
	}
	n := broadcast{srv: st.srv, method: "ticker", params: st.ticker(symbol)}
	for c := range ls {
		n.to(c)
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
