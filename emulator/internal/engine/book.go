package engine

import (
	"fmt"
	"slices"
	"sort"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/shopspring/decimal"
)

// book is one symbol's order book, its parked stop orders and its last
// trade price.
type book struct {
	sym        Symbol
	idx        int
	tick, step unit
	// stepF is the quantity increment and notionalF tick × increment, as
	// factors: amounts of lots and of ticks × lots in fixed point.
	stepF, notionalF fixed.Factor
	feeInQuote       bool
	feeInBase        bool  // (a symbol may charge fees in a third currency)
	fees             rates // the symbol's own rates
	// feeCache holds taker fees lately made decimals for an answer, by a
	// hash of the amount: trades repeat their fees (same price and
	// quantity), and making the decimal allocates.
	feeCache [64]feeDec
	boxes    []decimal.Decimal // see box

	bids, asks side

	// Suspended orders by trigger: stopsUp fire when the price rises to
	// their stop (sorted by stop ascending), stopsDown when it falls
	// (sorted by stop descending); ties by ID.
	stopsUp, stopsDown []*order

	// Trade prices since the triggers were last checked.
	traded bool
	lo, hi int64

	// last is the last trade price (when hasLast), for margin positions'
	// unrealized profit and loss.
	last    int64
	hasLast bool

	margin *marginSym // margin configuration; nil when none

	count  int         // books in the engine (sizes account.refs)
	feeRef *ledger.Ref // the fee account's balance of the fee currency
}

func newBook(s Symbol, idx int) (*book, error) {
	tick, err := newUnit(s.TickSize)
	if err != nil {
		return nil, fmt.Errorf("symbol %s tick_size: %w", s.Code, err)
	}
	step, err := newUnit(s.QuantityStep)
	if err != nil {
		return nil, fmt.Errorf("symbol %s quantity_increment: %w", s.Code, err)
	}
	if s.Base == "" || s.Quote == "" || s.Base == s.Quote {
		return nil, fmt.Errorf("symbol %s: base %q and quote %q must be two currencies", s.Code, s.Base, s.Quote)
	}
	if s.FeeCurrency != s.Base && s.FeeCurrency != s.Quote {
		return nil, fmt.Errorf("symbol %s: fee currency %s is neither base nor quote", s.Code, s.FeeCurrency)
	}
	one := decimal.New(1, 0)
	if s.TakeRate.Cmp(one) >= 0 || s.MakeRate.Cmp(one) >= 0 || s.MakeRate.Add(one).Sign() <= 0 {
		return nil, fmt.Errorf("symbol %s: fee rates %s and %s out of range", s.Code, s.TakeRate, s.MakeRate)
	}
	b := &book{sym: s, idx: idx, tick: tick, step: step, feeInQuote: s.FeeCurrency == s.Quote, feeInBase: s.FeeCurrency == s.Base,
		stepF: fixed.NewFactor(step.dec), notionalF: fixed.NewFactor(tick.dec.Mul(step.dec))}
	b.fees = newRates(s.TakeRate, s.MakeRate, b.feeUnit())
	b.reset()
	return b, nil
}

// feeUnit is what a trade's fee volume is counted in: tick × increment
// when the fee is in the quote currency (the volume is the notional),
// the increment when it is in the base (the volume is the quantity).
func (b *book) feeUnit() decimal.Decimal {
	if b.feeInQuote {
		return b.tick.dec.Mul(b.step.dec)
	}
	return b.step.dec
}

// fee is the fee at rate r (a rates' takeV or makeV: the rate times
// feeUnit) on a trade of lots increments at ticks.
func (b *book) fee(r fixed.Factor, ticks, lots int64) fixed.Amount {
	if b.feeInQuote {
		return r.TimesProduct(ticks, lots)
	}
	return r.Times(lots)
}

// maxRate is max(take, make, 0): the fee a reservation must cover.
func maxRate(take, mk decimal.Decimal) decimal.Decimal {
	m := take
	if mk.Cmp(m) > 0 {
		m = mk
	}
	if m.IsNegative() {
		return decimal.Decimal{}
	}
	return m
}

func (b *book) reset() {
	b.bids = side{buy: true}
	b.asks = side{}
	b.stopsUp, b.stopsDown = nil, nil
	b.traded = false
	b.last, b.hasLast = 0, false
}

func (b *book) sideOf(s sideCode) *side {
	if s == cBuy {
		return &b.bids
	}
	return &b.asks
}

func (b *book) opposite(s sideCode) *side {
	if s == cBuy {
		return &b.asks
	}
	return &b.bids
}

// noteTrade records a trade price for the stop triggers.
func (b *book) noteTrade(ticks int64) {
	b.last, b.hasLast = ticks, true
	if !b.traded {
		b.traded, b.lo, b.hi = true, ticks, ticks
		return
	}
	b.lo, b.hi = min(b.lo, ticks), max(b.hi, ticks)
}

// stopBefore orders a stop list: by stop price (ascending when up,
// descending when down), then by ID.
func stopBefore(up bool, a, o *order) bool {
	if a.stop != o.stop {
		return (a.stop < o.stop) == up
	}
	return a.id < o.id
}

func (b *book) stops(up bool) *[]*order {
	if up {
		return &b.stopsUp
	}
	return &b.stopsDown
}

// park adds a suspended order to its stop list.
func (b *book) park(o *order) {
	up := o.triggersUp()
	l := b.stops(up)
	i := sort.Search(len(*l), func(i int) bool { return !stopBefore(up, (*l)[i], o) })
	*l = slices.Insert(*l, i, o)
}

// unpark removes a suspended order from its stop list.
func (b *book) unpark(o *order) {
	up := o.triggersUp()
	l := b.stops(up)
	i := sort.Search(len(*l), func(i int) bool { return !stopBefore(up, (*l)[i], o) })
	for ; i < len(*l); i++ {
		if (*l)[i] == o {
			*l = slices.Delete(*l, i, i+1)
			return
		}
	}
}

// takeFired removes and appends to dst the suspended orders whose trigger
// the trade prices lo..hi reached.
func (b *book) takeFired(dst []*order, lo, hi int64) []*order {
	n := 0
	for n < len(b.stopsUp) && b.stopsUp[n].stop <= hi {
		n++
	}
	dst = append(dst, b.stopsUp[:n]...)
	b.stopsUp = slices.Delete(b.stopsUp, 0, n)
	n = 0
	for n < len(b.stopsDown) && b.stopsDown[n].stop >= lo {
		n++
	}
	dst = append(dst, b.stopsDown[:n]...)
	b.stopsDown = slices.Delete(b.stopsDown, 0, n)
	return dst
}

// side is one side of a book: price levels, each a FIFO queue of orders.
type side struct {
	buy bool
	// levels is sorted by key ascending, so the best level is last and
	// matching pops from the end without moving the rest.
	levels []*level
	free   []*level // spare levels, to avoid an allocation per new price
}

// level is the orders resting at one price, oldest first.
type level struct {
	ticks, key int64
	price      decimal.Decimal // ticks as a decimal, made once
	lots       int64           // total remaining quantity
	n          int
	head, tail *order
}

// keyOf makes better prices larger: higher bids, lower asks.
func (s *side) keyOf(ticks int64) int64 {
	if s.buy {
		return ticks
	}
	return -ticks
}

func (s *side) best() *level {
	if len(s.levels) == 0 {
		return nil
	}
	return s.levels[len(s.levels)-1]
}

// crosses reports whether a taker on the other side with limit price
// ticks would match a level of this side at lvTicks.
func (s *side) crosses(lvTicks, ticks int64) bool {
	if s.buy {
		return lvTicks >= ticks
	}
	return lvTicks <= ticks
}

// find is the level at ticks (nil when none) and, either way, its place
// in levels: a binary search of the sorted levels, which a map by price
// (hashing, and an insert and a delete per level's life) cost more.
func (s *side) find(ticks int64) (int, *level) {
	key := s.keyOf(ticks)
	lo, hi := 0, len(s.levels)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.levels[m].key < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.levels) && s.levels[lo].key == key {
		return lo, s.levels[lo]
	}
	return lo, nil
}

// add appends a resting order to the queue of its price.
func (s *side) add(o *order) {
	i, lv := s.find(o.price)
	if lv == nil {
		if n := len(s.free); n > 0 {
			lv = s.free[n-1]
			s.free = s.free[:n-1]
		} else {
			lv = &level{}
		}
		*lv = level{ticks: o.price, key: s.keyOf(o.price), price: o.priceDec}
		s.levels = slices.Insert(s.levels, i, lv)
	}
	o.lvl, o.prev, o.next = lv, lv.tail, nil
	if lv.tail != nil {
		lv.tail.next = o
	} else {
		lv.head = o
	}
	lv.tail = o
	lv.n++
	lv.lots += o.remaining()
}

// remove takes a resting order off its level, dropping the level when it
// empties.
func (s *side) remove(o *order) {
	lv := o.lvl
	if o.prev != nil {
		o.prev.next = o.next
	} else {
		lv.head = o.next
	}
	if o.next != nil {
		o.next.prev = o.prev
	} else {
		lv.tail = o.prev
	}
	o.lvl, o.prev, o.next = nil, nil, nil
	lv.n--
	lv.lots -= o.remaining()
	if lv.n > 0 {
		return
	}
	if last := len(s.levels) - 1; s.levels[last] == lv {
		s.levels[last] = nil
		s.levels = s.levels[:last]
	} else {
		i, _ := s.find(lv.ticks)
		s.levels = slices.Delete(s.levels, i, i+1)
	}
	*lv = level{}
	s.free = append(s.free, lv)
}

// fillable reports whether this side holds want increments at prices a
// taker with limit ticks (any price when market) would accept.
func (s *side) fillable(ticks int64, market bool, want int64) bool {
	for i := len(s.levels) - 1; i >= 0 && want > 0; i-- {
		lv := s.levels[i]
		if !market && !s.crosses(lv.ticks, ticks) {
			break
		}
		want -= lv.lots
	}
	return want <= 0
}

// crossable reports whether a taker would match at least one order.
func (s *side) crossable(ticks int64, market bool) bool {
	lv := s.best()
	return lv != nil && (market || s.crosses(lv.ticks, ticks))
}

// cost is Σ price × quantity of the best want increments of this side: what
// a market order for want would trade.
func (s *side) cost(b *book, want int64) fixed.Amount {
	var total fixed.Amount
	for i := len(s.levels) - 1; i >= 0 && want > 0; i-- {
		lv := s.levels[i]
		take := min(want, lv.lots)
		total = total.Add(b.notionalF.TimesProduct(lv.ticks, take))
		want -= take
	}
	return total
}

// box is a place holding d for an answer's price: the free head of a
// chunk shared by answers, so that each does not allocate its own.
func (b *book) box(d decimal.Decimal) *decimal.Decimal {
	if len(b.boxes) == 0 {
		b.boxes = make([]decimal.Decimal, 128)
	}
	p := &b.boxes[0]
	*p = d
	b.boxes = b.boxes[1:]
	return p
}

// feeDec is a fee and its decimal.
type feeDec struct {
	fee fixed.Amount
	dec decimal.Decimal
}

// feeDecimal is fee as a decimal, shared with an earlier trade's when equal.
// The cache is two-way: a sweep's fees (one per level) collided often in a
// direct-mapped one, and each miss allocates.
func (b *book) feeDecimal(fee fixed.Amount) decimal.Decimal {
	set := b.feeCache[fee.Hash()>>59<<1:][:2] // (a multiplicative hash's best bits are its top ones)
	switch {
	case fee == set[0].fee && !set[0].dec.IsZero():
		return set[0].dec
	case fee == set[1].fee && !set[1].dec.IsZero():
		set[0], set[1] = set[1], set[0]
		return set[0].dec
	}
	set[1] = set[0]
	set[0] = feeDec{fee: fee, dec: fee.Decimal()}
	return set[0].dec
}
