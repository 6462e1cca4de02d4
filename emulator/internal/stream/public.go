package stream

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/gorilla/websocket"
)

// Market is what the market data channels read: the tape of trades and
// candles, the books, the engine's events (for orderbook/full) and the
// clock the notifications are stamped with.
type Market struct {
	Tape  *tape.Tape
	Depth func(symbol string, depth int) (bids, asks []engine.Level, seq uint64, ok bool)
	Feed  *feed.Hub
	Clock clock.Clock
	// Currency reports whether a currency code is listed (target_currency).
	Currency func(code string) bool
}

// MaxLimit is the largest limit a subscription takes (0 to 1000).
const MaxLimit = 1000

// subscription is one channel's active symbols on a connection.
type subscription struct {
	ch     channel
	target string // converted candles
	// since holds, per symbol, the tape (or book) Seq its updates start
	// after: what the snapshot taken at subscription already holds.
	since map[string]uint64
	next  time.Time // timed channels: when to send next
}

func (s *subscription) symbols() []string {
	out := make([]string, 0, len(s.since))
	for sym := range s.since {
		out = append(out, sym)
	}
	sort.Strings(out)
	return out
}

// public is the market data side of one /ws/public connection. Its mutex
// is held while a subscription's frames are written, so that an answer, the
// snapshot after it and the updates after that leave in this order.
type public struct {
	c   *conn
	m   *Market
	lis *tape.Listener

	mu   sync.Mutex
	subs map[string]*subscription
	book *feed.Sub // BookEvents while orderbook/full is subscribed
	kick chan struct{}
}

func newPublic(c *conn, m *Market) *public {
	return &public{c: c, m: m, lis: m.Tape.Listen(), subs: map[string]*subscription{}, kick: make(chan struct{}, 1)}
}

// subscribeParams are the documented parameters: symbols, limit and, for
// converted candles, target_currency.
type subscribeParams struct {
	Symbols        []string `json:"symbols"`
	Limit          *float64 `json:"limit"`
	TargetCurrency string   `json:"target_currency"`
}

func result(ch string, subs []string, id json.RawMessage) []byte {
	if subs == nil {
		subs = []string{}
	}
	return encode(map[string]any{"result": map[string]any{"ch": ch, "subscriptions": subs}}, id)
}

// answer handles one request of the market data stream.
func (p *public) answer(req request) []byte {
	switch req.Method {
	case "subscribe":
		return p.subscribe(req)
	case "unsubscribe":
		return p.unsubscribe(req)
	case "subscriptions":
		p.mu.Lock()
		defer p.mu.Unlock()
		var syms []string
		if s := p.subs[req.Ch]; s != nil {
			syms = s.symbols()
		}
		return result(req.Ch, syms, req.ID)
	case "":
		return errorMessage(api.Validation("method is required: subscribe, unsubscribe or subscriptions"), req.ID)
	}
	return errorMessage(api.Validation("method %q is not one of subscribe, unsubscribe, subscriptions", req.Method), req.ID)
}

// readParams decodes and checks the parameters of a subscribe or
// unsubscribe request.
func (p *public) readParams(req request, ch channel, subscribing bool) (subscribeParams, *api.Error) {
	var ps subscribeParams
	if len(req.Params) > 0 && string(req.Params) != "null" {
		if err := json.Unmarshal(req.Params, &ps); err != nil {
			return ps, api.Validation("params must be an object {symbols, limit, target_currency}: %v", err)
		}
	}
	if len(ps.Symbols) == 1 && ps.Symbols[0] == "*" {
		ps.Symbols = p.m.Tape.Symbols()
	}
	if subscribing && len(ps.Symbols) == 0 {
		return ps, api.Validation("params.symbols is required: the symbols to subscribe to")
	}
	for _, s := range ps.Symbols {
		if !p.m.Tape.Has(s) {
			return ps, api.SymbolNotFound(s)
		}
	}
	if !subscribing {
		return ps, nil
	}
	if l := ps.Limit; l != nil && (*l < 0 || *l > MaxLimit || *l != float64(int(*l))) {
		return ps, api.Validation("params.limit %v is not an integer from 0 to %d", *l, MaxLimit)
	}
	if ch.kind == kindConverted {
		switch {
		case ps.TargetCurrency == "":
			return ps, api.Validation("params.target_currency is required on %s", ch.name)
		case p.m.Currency != nil && !p.m.Currency(ps.TargetCurrency):
			return ps, api.CurrencyNotFound(ps.TargetCurrency)
		}
	}
	return ps, nil
}

func (p *public) subscribe(req request) []byte {
	ch, ok := parseChannel(req.Ch)
	if !ok {
		return errorMessage(api.Validation("channel %q is not served", req.Ch), req.ID)
	}
	ps, e := p.readParams(req, ch, true)
	if e != nil {
		return errorMessage(e, req.ID)
	}
	limit := 0
	if ps.Limit != nil {
		limit = int(*ps.Limit)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.subs[req.Ch]
	if s == nil {
		s = &subscription{ch: ch, since: map[string]uint64{}}
		p.subs[req.Ch] = s
	}
	if ch.kind == kindConverted {
		s.target = ps.TargetCurrency
	}
	// Take the snapshot (and the Seq the updates start after) before
	// answering: the symbols are live from here on.
	var frames [][]byte
	switch {
	case ch.kind == kindBookFull:
		frames = p.bookSnapshots(s, ps.Symbols)
	case ch.history():
		frames = p.historySnapshots(s, ps.Symbols, limit)
	default:
		for _, sym := range ps.Symbols {
			s.since[sym] = 0
		}
		if s.next.IsZero() {
			s.next = time.Now()
		}
	}
	if err := p.c.write(result(req.Ch, s.symbols(), req.ID)); err != nil {
		return nil
	}
	for _, f := range frames {
		if err := p.c.write(f); err != nil {
			return nil
		}
	}
	p.wake()
	return nil
}

// historySnapshots registers the symbols of a trades or candles
// subscription and returns, when limit > 0, one snapshot notification per
// symbol with its latest limit entries.
func (p *public) historySnapshots(s *subscription, symbols []string, limit int) [][]byte {
	var snap tape.Snapshot
	if s.ch.kind == kindTrades {
		snap = p.m.Tape.SnapshotTrades(symbols, limit)
	} else {
		snap = p.m.Tape.SnapshotCandles(symbols, s.ch.period, limit)
	}
	for _, sym := range symbols {
		s.since[sym] = snap.Seq
	}
	if limit <= 0 {
		return nil
	}
	var frames [][]byte
	for _, sym := range symbols {
		var entries any
		if s.ch.kind == kindTrades {
			entries = tradeEntries(snap.Trades[sym])
		} else {
			entries = p.candles(s, sym, snap.Candles[sym])
		}
		frames = append(frames, notification(s.ch.name, "snapshot", s.target, map[string]any{sym: entries}))
	}
	return frames
}

// candles writes candles of a subscription: converted ones at the current
// rate into the target currency, and none while there is no rate.
func (p *public) candles(s *subscription, sym string, cs []tape.Candle) []candleEntry {
	if s.ch.kind != kindConverted {
		return candleEntries(cs, one)
	}
	pair, _ := p.m.Tape.Pair(sym)
	rate, ok := p.m.Tape.Rate(pair.Quote, s.target)
	if !ok {
		return []candleEntry{}
	}
	return candleEntries(cs, rate)
}

func (p *public) unsubscribe(req request) []byte {
	if _, ok := parseChannel(req.Ch); !ok {
		return errorMessage(api.Validation("channel %q is not served", req.Ch), req.ID)
	}
	ch, _ := parseChannel(req.Ch)
	ps, e := p.readParams(req, ch, false)
	if e != nil {
		return errorMessage(e, req.ID)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.subs[req.Ch]
	if s == nil {
		return result(req.Ch, nil, req.ID)
	}
	if len(ps.Symbols) == 0 {
		clear(s.since)
	}
	for _, sym := range ps.Symbols {
		delete(s.since, sym)
	}
	if len(s.since) == 0 {
		delete(p.subs, req.Ch)
	}
	p.wake()
	return result(req.Ch, s.symbols(), req.ID)
}

// wake tells the pump that subscriptions changed.
func (p *public) wake() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// bookSnapshots starts (if need be) the flow of book changes and returns a
// snapshot of each symbol's full book.
func (p *public) bookSnapshots(s *subscription, symbols []string) [][]byte {
	if p.book == nil {
		p.book = p.m.Feed.Subscribe(engine.BookEvent|engine.ResetEvent, 0)
	}
	now := p.m.Clock.Now()
	var frames [][]byte
	for _, sym := range symbols {
		bids, asks, seq, _ := p.m.Depth(sym, 0)
		s.since[sym] = seq
		frames = append(frames, notification(s.ch.name, "snapshot", "", map[string]any{sym: bookEntry(now, seq, bids, asks)}))
	}
	return frames
}

// closeSlow ends a connection whose reader fell too far behind.
func (p *public) closeSlow() {
	_ = p.c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "too slow: notifications queued beyond the limit"), time.Now().Add(time.Second))
	p.c.close()
}
