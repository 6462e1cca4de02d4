// Package tape is the emulator's public market record, built from the
// matching engine's own trades (the emulator has no outside price source):
// each symbol's latest trades, its candles of every period, and 24-hour
// ticker statistics. It taps the engine's events synchronously, so a trade
// is on the tape by the time the order that made it is answered, and it
// hands every trade on to its listeners (the market data stream) in order,
// numbered, so that a listener can join a snapshot to the updates after it.
package tape

import (
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Keep is how many trades and how many candles per period a symbol keeps:
// the most a snapshot (limit 0 to 1000) can ask for.
const Keep = 1000

// Trade is a public trade.
type Trade struct {
	ID              int64
	Price, Quantity decimal.Decimal
	Side            engine.Side // the taker's
	At              time.Time
}

// Candle is one bucket of a period: its start, open, close (last), high,
// low, base volume and quote volume.
type Candle struct {
	Start                                       time.Time
	Open, Close, High, Low, Volume, VolumeQuote decimal.Decimal
}

// Update is what a listener receives for every trade (CandleOf gives the
// candles it fell in).
type Update struct {
	Seq    uint64
	Symbol string
	Trade  Trade
	// Reset is set (and nothing else) when the engine dropped every trade.
	Reset bool
}

// Pair is what the tape knows of a symbol.
type Pair struct {
	Code, Base, Quote string
}

type symbolTape struct {
	pair Pair
	// trades is a ring of the latest Keep trades; head is the oldest once
	// it is full.
	trades  []Trade
	head    int
	candles [][]Candle // by period index, oldest first, at most Keep each
	// pending are trades not yet in the candles: aggregating them is left
	// to the readers, off the engine's lock.
	pending []Trade
}

// maxPending bounds the trades left for the readers to aggregate.
const maxPending = 4096

// catchUp puts the pending trades into the candles.
func (s *symbolTape) catchUp(periods []market.Period) {
	for _, tr := range s.pending {
		for i, per := range periods {
			s.addToCandle(i, per, tr)
		}
	}
	clear(s.pending)
	s.pending = s.pending[:0]
}

func (s *symbolTape) addTrade(t Trade) {
	if len(s.trades) < Keep {
		s.trades = append(s.trades, t)
		return
	}
	s.trades[s.head] = t
	s.head = (s.head + 1) % Keep
}

// latest returns up to n of the latest trades, oldest first.
func (s *symbolTape) latest(n int) []Trade {
	n = min(n, len(s.trades))
	out := make([]Trade, 0, n)
	for i := len(s.trades) - n; i < len(s.trades); i++ {
		out = append(out, s.trades[(s.head+i)%len(s.trades)])
	}
	return out
}

// last is the latest trade; ok is false when there is none.
func (s *symbolTape) last() (Trade, bool) {
	if len(s.trades) == 0 {
		return Trade{}, false
	}
	return s.trades[(s.head+len(s.trades)-1)%len(s.trades)], true
}

// Tape is the market record. The zero value is not usable; call New.
type Tape struct {
	mu        sync.Mutex
	periods   []market.Period
	syms      map[string]*symbolTape
	order     []string
	seq       uint64
	listeners listeners
}

// New returns an empty tape of the given symbols.
func New(pairs []Pair) *Tape {
	t := &Tape{periods: market.Periods(), syms: map[string]*symbolTape{}, listeners: newListeners()}
	for _, p := range pairs {
		t.syms[p.Code] = &symbolTape{pair: p, candles: make([][]Candle, len(t.periods))}
		t.order = append(t.order, p.Code)
	}
	return t
}

// Kinds are the engine events the tape needs.
const Kinds = engine.TradeEvent | engine.ResetEvent

// Observe records a trade print (or a reset) and hands it to the listeners.
// It is called with the engine's lock held and never blocks.
func (t *Tape) Observe(ev engine.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev.Kind {
	case engine.ResetEvent:
		for _, s := range t.syms {
			s.trades, s.head, s.pending = nil, 0, nil
			s.candles = make([][]Candle, len(t.periods))
		}
		t.seq++
		t.publish(Update{Seq: t.seq, Reset: true})
	case engine.TradeEvent:
		p := ev.Print
		s := t.syms[p.Symbol]
		if s == nil {
			return
		}
		tr := Trade{ID: p.ID, Price: p.Price, Quantity: p.Quantity, Side: p.TakerSide, At: p.Timestamp}
		s.addTrade(tr)
		if len(s.pending) == maxPending {
			s.catchUp(t.periods)
		}
		s.pending = append(s.pending, tr)
		t.seq++
		t.publish(Update{Seq: t.seq, Symbol: p.Symbol, Trade: tr})
	}
}

func (s *symbolTape) addToCandle(i int, per market.Period, tr Trade) Candle {
	start := BucketStart(per, tr.At)
	l := s.candles[i]
	notional := tr.Price.Mul(tr.Quantity)
	if n := len(l); n > 0 && l[n-1].Start.Equal(start) {
		c := &l[n-1]
		c.Close = tr.Price
		if tr.Price.GreaterThan(c.High) {
			c.High = tr.Price
		}
		if tr.Price.LessThan(c.Low) {
			c.Low = tr.Price
		}
		c.Volume = c.Volume.Add(tr.Quantity)
		c.VolumeQuote = c.VolumeQuote.Add(notional)
		return *c
	}
	c := Candle{Start: start, Open: tr.Price, Close: tr.Price, High: tr.Price, Low: tr.Price, Volume: tr.Quantity, VolumeQuote: notional}
	if len(l) == Keep {
		l = append(l[:0], l[1:]...)
	}
	s.candles[i] = append(l, c)
	return c
}

// Has reports whether symbol is on the tape.
func (t *Tape) Has(symbol string) bool {
	_, ok := t.syms[symbol]
	return ok
}

// Pair returns what the tape knows of a symbol.
func (t *Tape) Pair(symbol string) (Pair, bool) {
	s, ok := t.syms[symbol]
	if !ok {
		return Pair{}, false
	}
	return s.pair, true
}

// Symbols lists the tape's symbols in catalogue order.
func (t *Tape) Symbols() []string { return append([]string(nil), t.order...) }

// PeriodIndex is a period's place in Update.Candles, or -1.
func (t *Tape) PeriodIndex(p market.Period) int {
	for i, q := range t.periods {
		if q == p {
			return i
		}
	}
	return -1
}

// Trades returns up to limit of a symbol's latest trades, oldest first.
func (t *Tape) Trades(symbol string, limit int) []Trade {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tradesLocked(symbol, limit)
}

func (t *Tape) tradesLocked(symbol string, limit int) []Trade {
	s := t.syms[symbol]
	if s == nil || limit <= 0 {
		return nil
	}
	return s.latest(limit)
}

// Candles returns up to limit of a symbol's latest candles of a period,
// oldest first.
func (t *Tape) Candles(symbol string, p market.Period, limit int) []Candle {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.candlesLocked(symbol, p, limit)
}

func (t *Tape) candlesLocked(symbol string, p market.Period, limit int) []Candle {
	s, i := t.syms[symbol], t.PeriodIndex(p)
	if s == nil || i < 0 || limit <= 0 {
		return nil
	}
	s.catchUp(t.periods)
	l := s.candles[i]
	n := min(limit, len(l))
	return append([]Candle(nil), l[len(l)-n:]...)
}

// CandleOf is the candle of period p that holds time at (a trade's), as it
// is now; ok is false when there is none.
func (t *Tape) CandleOf(symbol string, p market.Period, at time.Time) (Candle, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, i := t.syms[symbol], t.PeriodIndex(p)
	if s == nil || i < 0 {
		return Candle{}, false
	}
	s.catchUp(t.periods)
	start := BucketStart(p, at)
	l := s.candles[i]
	for j := len(l) - 1; j >= 0; j-- {
		if l[j].Start.Equal(start) {
			return l[j], true
		}
		if l[j].Start.Before(start) {
			break
		}
	}
	return Candle{}, false
}

// LastPrice is a symbol's last trade price.
func (t *Tape) LastPrice(symbol string) (decimal.Decimal, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.syms[symbol]
	if s == nil {
		return decimal.Decimal{}, false
	}
	last, ok := s.last()
	return last.Price, ok
}

// Stats are a symbol's ticker statistics over the 24 hours before now.
type Stats struct {
	Open, High, Low, Last, Volume, VolumeQuote decimal.Decimal
	// Traded is false when no trade happened in the window (the prices are
	// then zero, Last is the last trade ever if any, HasLast says).
	Traded, HasLast bool
	At              time.Time // the last trade's time, zero when none
}

// Stats computes a symbol's 24-hour statistics from its kept trades.
func (t *Tape) Stats(symbol string, now time.Time) Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	var st Stats
	s := t.syms[symbol]
	if s == nil {
		return st
	}
	last, ok := s.last()
	if !ok {
		return st
	}
	st.Last, st.HasLast, st.At = last.Price, true, last.At
	from := now.Add(-24 * time.Hour)
	for _, tr := range s.latest(Keep) {
		if tr.At.Before(from) {
			continue
		}
		if !st.Traded {
			st.Traded, st.Open, st.High, st.Low = true, tr.Price, tr.Price, tr.Price
		}
		st.High = decimal.Max(st.High, tr.Price)
		st.Low = decimal.Min(st.Low, tr.Price)
		st.Volume = st.Volume.Add(tr.Quantity)
		st.VolumeQuote = st.VolumeQuote.Add(tr.Price.Mul(tr.Quantity))
	}
	return st
}

// BucketStart is the start of the period bucket holding t (UTC): minutes and
// hours from the hour or day, D7 from Monday, 1M from the first of the month.
func BucketStart(p market.Period, t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch p {
	case market.D1:
		return day
	case market.D7:
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case market.Month:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	var step time.Duration
	switch p {
	case market.M1:
		step = time.Minute
	case market.M3:
		step = 3 * time.Minute
	case market.M5:
		step = 5 * time.Minute
	case market.M15:
		step = 15 * time.Minute
	case market.M30:
		step = 30 * time.Minute
	case market.H1:
		step = time.Hour
	case market.H4:
		step = 4 * time.Hour
	default:
		return t
	}
	return day.Add(t.Sub(day).Truncate(step))
}

// Rate is the price of one unit of from in to, read from the last trade of
// the symbol that links them (from/to, or to/from inverted); 1 when they are
// the same currency. ok is false when no such symbol has traded.
func (t *Tape) Rate(from, to string) (decimal.Decimal, bool) {
	if from == to {
		return decimal.New(1, 0), true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.syms {
		tr, ok := s.last()
		if !ok {
			continue
		}
		last := tr.Price
		switch {
		case s.pair.Base == from && s.pair.Quote == to:
			return last, true
		case s.pair.Base == to && s.pair.Quote == from && last.IsPositive():
			return decimal.New(1, 0).DivRound(last, 16), true
		}
	}
	return decimal.Decimal{}, false
}

// LastID is a symbol's last trade ID (0: none).
func (t *Tape) LastID(symbol string) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.syms[symbol]
	if s == nil {
		return 0
	}
	last, _ := s.last()
	return last.ID
}

// Seq is the number of the last Update made.
func (t *Tape) Seq() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// Figures are a ticker's 24-hour figures as decimal strings, whichever API
// version renders them: Last is nil before any trade, Open, Low and High
// are nil without a trade in the window.
type Figures struct {
	Last, Open, Low, High *string
	Volume, VolumeQuote   string
}

// Figures renders the statistics as a ticker's figures.
func (st Stats) Figures() Figures {
	f := Figures{Volume: st.Volume.String(), VolumeQuote: st.VolumeQuote.String()}
	if st.HasLast {
		f.Last = DecimalString(&st.Last)
	}
	if st.Traded {
		f.Open, f.Low, f.High = DecimalString(&st.Open), DecimalString(&st.Low), DecimalString(&st.High)
	}
	return f
}

// DecimalString is d as a decimal string, nil for nil (JSON null).
func DecimalString(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := d.String()
	return &s
}
