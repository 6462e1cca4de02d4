package engine

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// maxPrints bounds a symbol's public trade tape (its depth is not in
// either document).
const maxPrints = 10_000

// print is one trade on the public tape: the taker's side.
type print struct {
	id, ticks, lots int64
	side            Side
	at              int64
}

func (b *book) addPrint(p print) {
	if len(b.prints) < maxPrints {
		b.prints = append(b.prints, p)
		return
	}
	b.prints[b.printNext] = p
	b.printNext = (b.printNext + 1) % maxPrints
}

// Tape answers a symbol's public trades from the oldest on, within
// [from, till] when given; ok is false for an unknown symbol.
func (e *Engine) Tape(symbol string, from, till *time.Time) ([]PublicTrade, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now()
	bk := e.books[symbol]
	if bk == nil {
		return nil, false
	}
	out := []PublicTrade{}
	n := len(bk.prints)
	for i := 0; i < n; i++ {
		p := bk.prints[(bk.printNext+i)%n]
		if (from != nil && p.at < from.UnixNano()) || (till != nil && p.at > till.UnixNano()) {
			continue
		}
		out = append(out, PublicTrade{Symbol: symbol, ID: p.id, Price: bk.tick.decimal(p.ticks), Quantity: bk.step.decimal(p.lots),
			TakerSide: p.side, Timestamp: nanoTime(p.at)})
	}
	return out, true
}

// Ticker is a symbol's best prices and its last 24 hours of trades.
type Ticker struct {
	Symbol                string
	Ask, Bid              *decimal.Decimal // nil: that side is empty
	Last, Open, Low, High *decimal.Decimal // nil: no trade in 24 hours (Last: none at all)
	Volume, VolumeQuote   decimal.Decimal
	Timestamp             time.Time
}

// Tickers answers the tickers of the given symbols (empty: every symbol,
// in listing order); unknown symbols are left out.
func (e *Engine) Tickers(symbols []string) []Ticker {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	out := []Ticker{}
	for _, bk := range e.bookList {
		if len(symbols) > 0 && !slices.Contains(symbols, bk.sym.Code) {
			continue
		}
		t := Ticker{Symbol: bk.sym.Code, Timestamp: nanoTime(now)}
		if lv := bk.asks.best(); lv != nil {
			p := lv.price
			t.Ask = &p
		}
		if lv := bk.bids.best(); lv != nil {
			p := lv.price
			t.Bid = &p
		}
		if bk.hasLast {
			l := bk.tick.decimal(bk.last)
			t.Last = &l
		}
		since := now - int64(24*time.Hour)
		n := len(bk.prints)
		for i := 0; i < n; i++ {
			p := bk.prints[(bk.printNext+i)%n]
			if p.at < since {
				continue
			}
			price, qty := bk.tick.decimal(p.ticks), bk.step.decimal(p.lots)
			if t.Open == nil {
				o, lo, hi := price, price, price
				t.Open, t.Low, t.High = &o, &lo, &hi
			}
			if price.LessThan(*t.Low) {
				*t.Low = price
			}
			if price.GreaterThan(*t.High) {
				*t.High = price
			}
			t.Volume = t.Volume.Add(qty)
			t.VolumeQuote = t.VolumeQuote.Add(qty.Mul(price))
		}
		out = append(out, t)
	}
	return out
}
