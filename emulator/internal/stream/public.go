package stream

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
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
	// batch is the pump's list of frames to write, kept between batches.
	batch [][]byte
	// hist lists the symbols of the history channels (trades, candles),
	// one entry per channel and symbol: what the pump reads for every
	// trade, in one slice rather than a map of maps per connection.
	hist []histEntry
}

// histEntry is a symbol of a history subscription and the Seq its
// updates start after.
type histEntry struct {
	sym   string
	since uint64
	s     *subscription
}

// changed rebuilds hist and wakes the pump; it runs under p.mu after every
// change of the subscriptions.
func (p *public) changed() {
	p.hist = p.hist[:0]
	for _, s := range p.subs {
		if !s.ch.history() {
			continue
		}
		for sym, since := range s.since {
			p.hist = append(p.hist, histEntry{sym, since, s})
		}
	}
	slices.SortFunc(p.hist, func(a, b histEntry) int {
		return cmp.Or(strings.Compare(a.s.ch.name, b.s.ch.name), strings.Compare(a.sym, b.sym))
	})
	p.wake()
}

func newPublic(c *conn, m *Market) *public {
	p := &public{c: c, m: m, lis: m.Tape.Listen(), subs: map[string]*subscription{}, kick: make(chan struct{}, 1)}
	p.lis.Only(map[string]bool{}) // no trade updates until a history channel is subscribed
	return p
}

// follow makes the tape listener deliver the trades of the symbols of the
// history channels, plus extra; it runs under p.mu, before a subscription's
// snapshot is taken, so that no update after the snapshot is filtered out.
func (p *public) follow(extra []string) {
	want := map[string]bool{}
	for _, s := range p.subs {
		if s.ch.history() {
			for sym := range s.since {
				want[sym] = true
			}
		}
	}
	for _, sym := range extra {
		want[sym] = true
	}
	p.lis.Only(want)
}

// subscribeParams are the documented parameters: symbols, limit and, for
// converted candles, target_currency.
type subscribeParams struct {
	Symbols        []string `json:"symbols"`
	Limit          *float64 `json:"limit"`
	TargetCurrency string   `json:"target_currency"`
}

// on reports whether a fault of the stream is switched on.
func (p *public) on(id string) bool { return p.c.srv.opts.Faults.On(id) }

// result is {result: {ch, subscriptions}, id}.
func (p *public) result(ch string, subs []string, id json.RawMessage) []byte {
	if subs == nil {
		subs = []string{}
	}
	if p.on("V3-WS-PUB-ID-RESULT") {
		id = nil
	}
	return encode(map[string]any{"result": map[string]any{"ch": ch, "subscriptions": subs}}, id)
}

// errorMsg is the streaming error shape {error: {code, message,
// description}, id}.
func (p *public) errorMsg(e *api.Error, id json.RawMessage) []byte {
	if p.on("V3-WS-PUB-ID-ERROR") {
		id = nil
	}
	if p.on("V3-WS-PUB-ERROR-SHAPE") {
		return encode(map[string]any{"error": map[string]any{"code": fmt.Sprint(e.Code), "message": e.Message, "description": e.Description}}, id)
	}
	return errorMessage(e, id)
}

// malformed answers a request that did not parse.
func (p *public) malformed(e *api.Error, req request) []byte {
	if len(req.ID) > 0 && p.on("V3-WS-PUB-MALFORMED") {
		p.c.close() // no close frame
		return nil
	}
	return p.errorMsg(e, req.ID)
}

// answer handles one request of the market data stream.
func (p *public) answer(req request) []byte {
	if len(req.ID) == 0 && p.on("V3-WS-PUB-ID-OPTIONAL") {
		return nil
	}
	switch req.Method {
	case "subscribe":
		return p.subscribe(req)
	case "unsubscribe":
		return p.unsubscribe(req)
	case "subscriptions":
		p.mu.Lock()
		defer p.mu.Unlock()
		var syms []string
		if s := p.subs[req.Ch]; s != nil && !p.on("V3-WS-PUB-SUBSCRIPTIONS") {
			syms = s.symbols()
		}
		return p.result(req.Ch, syms, req.ID)
	case "":
		return p.errorMsg(api.Validation("method is required: subscribe, unsubscribe or subscriptions"), req.ID)
	case "subscribeTrades", "subscribeCandles", "getSymbols":
		if p.on("V3-WS-PUB-V2-METHODS") { // the fault: version 2's methods answered as if subscribed
			return p.result(req.Ch, nil, req.ID)
		}
	}
	if p.on("V3-WS-PUB-UNKNOWN-METHOD") {
		return nil
	}
	return p.errorMsg(api.Validation("method %q is not one of subscribe, unsubscribe, subscriptions", req.Method), req.ID)
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
	if subscribing && len(ps.Symbols) == 0 && !p.on("V3-WS-PUB-SYMBOLS-REQUIRED") {
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
	maxLimit := float64(MaxLimit)
	if p.on("V3-WS-PUB-LIMIT-BOUNDS") {
		maxLimit = 5000
	}
	if l := ps.Limit; l != nil && (*l < 0 || *l > maxLimit || *l != float64(int(*l))) {
		return ps, api.Validation("params.limit %v is not an integer from 0 to %d", *l, MaxLimit)
	}
	if ch.kind == kindConverted {
		switch {
		case ps.TargetCurrency == "" && p.on("V3-WS-PUB-CONVERTED-TARGET") && len(ps.Symbols) > 0:
			pair, _ := p.m.Tape.Pair(ps.Symbols[0])
			ps.TargetCurrency = pair.Quote
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
	if ok && ch.kind == kindCandles && (ch.period == "D7" || ch.period == "1M") && p.on("V3-WS-PUB-CANDLE-PERIODS") {
		ok = false
	}
	if !ok {
		if p.on("V3-WS-PUB-UNKNOWN-CHANNEL") {
			return p.result(req.Ch, nil, req.ID)
		}
		return p.errorMsg(api.Validation("channel %q is not served", req.Ch), req.ID)
	}
	if ch.kind == kindConverted && p.on("V3-WS-PUB-NO-RIGHT") {
		return p.errorMsg(api.AuthRequired(), req.ID)
	}
	ps, e := p.readParams(req, ch, true)
	if e != nil {
		return p.errorMsg(e, req.ID)
	}
	limit := 0
	switch {
	case ps.Limit != nil:
		limit = int(*ps.Limit)
	case p.on("V3-WS-PUB-LIMIT-DEFAULT"):
		limit = 10
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
		p.follow(ps.Symbols)
		frames = p.historySnapshots(s, ps.Symbols, limit, req.ID)
	default:
		for _, sym := range ps.Symbols {
			s.since[sym] = 0
		}
		if s.next.IsZero() {
			s.next = time.Now()
		}
	}
	subs := s.symbols()
	if p.on("V3-WS-PUB-SUBSCRIBE") {
		subs = nil
	}
	out := append([][]byte{p.result(req.Ch, subs, req.ID)}, frames...)
	if p.on("V3-WS-PUB-SNAPSHOT-ORDER") {
		out = append(frames, out[0])
	}
	if p.c.write(out...) != nil {
		return nil
	}
	p.changed()
	return nil
}

// historySnapshots registers the symbols of a trades or candles
// subscription and returns, when limit > 0, one snapshot notification per
// symbol with its latest limit entries.
func (p *public) historySnapshots(s *subscription, symbols []string, limit int, id json.RawMessage) [][]byte {
	n := limit
	if p.on("V3-WS-PUB-LIMIT-SNAPSHOT") {
		n++
	}
	if s.ch.kind != kindTrades && p.on("V3-WS-PUB-CANDLE-LIMIT") {
		n, limit = 1<<20, 1<<20
	}
	var snap tape.Snapshot
	if s.ch.kind == kindTrades {
		snap = p.m.Tape.SnapshotTrades(symbols, n)
	} else {
		snap = p.m.Tape.SnapshotCandles(symbols, s.ch.period, n)
	}
	for _, sym := range symbols {
		s.since[sym] = snap.Seq
	}
	if limit <= 0 {
		return nil
	}
	var frames [][]byte
	member := "snapshot"
	if p.on("V3-WS-PUB-NOTIFY-SHAPE") {
		member = "data"
	}
	all := map[string]any{}
	for _, sym := range symbols {
		var entries any
		if s.ch.kind == kindTrades {
			entries = p.trades(snap.Trades[sym])
		} else {
			entries = p.candles(s, sym, snap.Candles[sym], nil)
		}
		if p.on("V3-WS-PUB-ONE-SYMBOL") {
			all[sym] = entries
			continue
		}
		frames = append(frames, p.notify(s, member, map[string]any{sym: entries}, id))
	}
	if len(all) > 0 {
		frames = append(frames, p.notify(s, member, all, id))
	}
	return frames
}

// notify is a notification of subscription s; id is set only by the
// V3-WS-PUB-NOTIFY-NO-ID fault.
func (p *public) notify(s *subscription, member string, bySymbol map[string]any, id json.RawMessage) []byte {
	target := s.target
	if p.on("V3-WS-PUB-CONVERTED") {
		target = ""
	}
	b := notification(s.ch.name, member, target, bySymbol)
	if len(id) > 0 && p.on("V3-WS-PUB-NOTIFY-NO-ID") {
		var msg map[string]any
		if json.Unmarshal(b, &msg) == nil {
			b = encode(msg, id)
		}
	}
	return b
}

func (p *public) unsubscribe(req request) []byte {
	ch, ok := parseChannel(req.Ch)
	if !ok {
		return p.errorMsg(api.Validation("channel %q is not served", req.Ch), req.ID)
	}
	ps, e := p.readParams(req, ch, false)
	if e != nil {
		return p.errorMsg(e, req.ID)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.subs[req.Ch]
	if s == nil {
		return p.result(req.Ch, nil, req.ID)
	}
	if p.on("V3-WS-PUB-UNSUBSCRIBE") {
		return p.result(req.Ch, s.symbols(), req.ID)
	}
	if p.on("V3-WS-PUB-UNSUB-SILENT") {
		// The answer lists what an unsubscribe would leave; nothing ends.
		rest := slices.DeleteFunc(s.symbols(), func(sym string) bool { return len(ps.Symbols) == 0 || slices.Contains(ps.Symbols, sym) })
		return p.result(req.Ch, rest, req.ID)
	}
	if len(ps.Symbols) == 0 {
		clear(s.since)
	}
	for _, sym := range ps.Symbols {
		delete(s.since, sym)
	}
	if ch.history() {
		defer p.follow(nil)
	}
	if len(s.since) == 0 {
		delete(p.subs, req.Ch)
		if ch.kind == kindBookFull && p.book != nil {
			p.book.Close() // nothing left to build book events for
			p.book = nil
		}
	}
	p.changed()
	return p.result(req.Ch, s.symbols(), req.ID)
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
	// Only the books followed wake this connection (set before the
	// snapshots, so that no change after them is filtered out).
	want := map[string]bool{}
	for sym := range s.since {
		want[sym] = true
	}
	for _, sym := range symbols {
		want[sym] = true
	}
	p.book.OnlyBooks(want)
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
	p.c.closeWith(websocket.ClosePolicyViolation, "too slow: notifications queued beyond the limit")
}
