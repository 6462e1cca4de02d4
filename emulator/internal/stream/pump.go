package stream

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/shopspring/decimal"
)

var one = decimal.New(1, 0)

// pump sends a /ws/public connection's notifications: an update for every
// trade on its trades and candles channels, every change of the books on
// orderbook/full, and the timed channels (ticker, partial books) at their
// speed. It is the only sender of updates; answers come from the reader.
func (p *public) pump() {
	defer p.c.srv.wg.Done()
	defer p.lis.Close()
	defer func() {
		p.mu.Lock()
		if p.book != nil {
			p.book.Close()
		}
		p.mu.Unlock()
	}()
	var tick *time.Ticker
	var tickC <-chan time.Time
	defer func() {
		if tick != nil {
			tick.Stop()
		}
	}()
	// What the pump waits on changes only with the subscriptions, which
	// kick it: it is read again then, not for every update.
	var book *feed.Sub
	var bookC <-chan *engine.Event
	refresh := true
	for {
		if refresh {
			refresh = false
			p.mu.Lock()
			book, bookC = p.book, nil
			if book != nil {
				bookC = book.Events()
			}
			timed := false
			for _, s := range p.subs {
				timed = timed || s.ch.timed()
			}
			p.mu.Unlock()
			switch {
			case timed && tick == nil:
				tick = time.NewTicker(50 * time.Millisecond)
				tickC = tick.C
			case !timed && tick != nil:
				tick.Stop()
				tick, tickC = nil, nil
			}
		}
		select {
		case <-p.c.done:
			return
		case <-p.kick:
			refresh = true
		case u, ok := <-p.lis.C():
			if !ok {
				p.closeSlow()
				return
			}
			if !p.onTrades(u) {
				return
			}
		case ev, ok := <-bookC:
			if !ok {
				if book.Dropped() {
					p.closeSlow()
					return
				}
				refresh = true // orderbook/full was unsubscribed
				continue
			}
			if !p.onBook(*ev) {
				return
			}
		case now := <-tickC:
			if !p.onTick(now) {
				return
			}
		}
	}
}

// maxBatch is the most trades whose updates leave in one write.
const maxBatch = 64

// onTrades sends the updates of trade u and of those queued behind it (up
// to maxBatch trades) in one write; false when the connection failed. A
// pump that keeps up writes each trade alone; one that fell behind catches
// up with a write per batch rather than per update.
func (p *public) onTrades(u *tape.Update) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	frames := p.tradeFrames(p.batch[:0], *u)
drain:
	for n := 1; n < maxBatch; n++ {
		select {
		case next, ok := <-p.lis.C():
			if !ok {
				break drain // dropped: the pump's next receive sees it
			}
			frames = p.tradeFrames(frames, *next)
		default:
			break drain
		}
	}
	err := p.c.write(frames...)
	clear(frames)
	p.batch = frames[:0]
	return err == nil
}

// tradeFrames appends the updates a trade makes to frames.
func (p *public) tradeFrames(frames [][]byte, u tape.Update) [][]byte {
	if u.Reset {
		return frames
	}
	for i := range p.hist {
		h := &p.hist[i]
		if h.sym != u.Symbol || u.Seq <= h.since {
			continue
		}
		frame := p.c.srv.frames.get(frameKey{u.Seq, h.s.ch.name, h.s.target}, func() []byte { return p.tradeUpdate(h.s, u) })
		if frame != nil {
			frames = append(frames, frame)
		}
	}
	return frames
}

// tradeUpdate encodes the update a trade makes on subscription s; nil when
// there is nothing to send.
func (p *public) tradeUpdate(s *subscription, u tape.Update) []byte {
	var entries any
	switch s.ch.kind {
	case kindTrades:
		ts := []tape.Trade{u.Trade}
		if p.on("V3-WS-PUB-UPDATE") {
			if prev := p.m.Tape.Trades(u.Symbol, 2); len(prev) == 2 && prev[0].ID < u.Trade.ID {
				ts = append(prev[:1], ts...)
			}
		}
		entries = p.trades(ts)
	default:
		c, ok := p.m.Tape.CandleOf(u.Symbol, s.ch.period, u.Trade.At)
		if !ok {
			return nil
		}
		cs := p.candles(s, u.Symbol, []tape.Candle{c}, &u.Trade)
		if len(cs) == 0 {
			return nil // no rate into the target currency yet
		}
		entries = cs
	}
	return p.notify(s, "update", map[string]any{u.Symbol: entries}, nil)
}

// onBook sends a change of a book level to orderbook/full; after a reset,
// fresh snapshots.
func (p *public) onBook(ev engine.Event) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.subs["orderbook/full"]
	if s == nil {
		return true
	}
	var frames [][]byte
	if ev.Kind == engine.ResetEvent {
		frames = p.bookSnapshots(s, s.symbols())
	} else {
		l := ev.Level
		since, on := s.since[l.Symbol]
		if !on || ev.Seq <= since {
			return true
		}
		lv := []engine.Level{{Price: l.Price, Size: l.Size}}
		var bids, asks []engine.Level
		if l.Side == engine.Buy {
			bids = lv
		} else {
			asks = lv
		}
		frames = append(frames, p.c.srv.frames.get(frameKey{seq: ev.Seq, ch: s.ch.name}, func() []byte {
			return notification(s.ch.name, "update", "", map[string]any{l.Symbol: bookEntry(p.m.Clock.Now(), ev.Seq, bids, asks)})
		}))
	}
	return p.c.write(frames...) == nil
}

// onTick sends the timed channels that are due.
func (p *public) onTick(wall time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.m.Clock.Now()
	for _, s := range p.subs {
		if !s.ch.timed() || wall.Before(s.next) || len(s.since) == 0 {
			continue
		}
		s.next = wall.Add(s.ch.speed)
		data := map[string]any{}
		for _, sym := range s.symbols() {
			switch s.ch.kind {
			case kindTicker, kindTickerPrice:
				data[sym] = tickerEntry(p.m, sym, now, s.ch.kind == kindTicker)
			case kindBookDepth:
				bids, asks, seq, _ := p.m.Depth(sym, s.ch.depth)
				data[sym] = bookEntry(now, seq, bids, asks)
			case kindBookTop:
				bids, asks, _, _ := p.m.Depth(sym, 1)
				data[sym] = topEntry(now, bids, asks)
			}
			if !s.ch.batch {
				if p.c.write(notification(s.ch.name, "data", "", data)) != nil {
					return false
				}
				data = map[string]any{}
			}
		}
		if s.ch.batch && p.c.write(notification(s.ch.name, "data", "", data)) != nil {
			return false
		}
	}
	return true
}
