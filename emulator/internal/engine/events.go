package engine

import (
	"time"

	"github.com/shopspring/decimal"
)

// EventKind says what an Event describes. Kinds are bits so an Observer can
// say cheaply which ones it wants.
type EventKind uint8

// Event kinds.
const (
	// OrderEvent: an order changed (Report says how).
	OrderEvent EventKind = 1 << iota
	// TradeEvent: a public trade print.
	TradeEvent
	// BookEvent: the total size of one price level of a book changed.
	BookEvent
	// ResetEvent: every book, order and trade was dropped (Reset).
	ResetEvent
)

// ReportType says what happened to an order in an OrderEvent.
type ReportType string

// Report types. Trading streams map them to their own report_type values.
const (
	ReportNew       ReportType = "new"       // placed and live (or about to match)
	ReportSuspended ReportType = "suspended" // placed and parked until its trigger
	ReportTriggered ReportType = "triggered" // a stop or take-profit order left suspension
	ReportActivated ReportType = "activated" // an order-list secondary whose primary filled
	ReportTrade     ReportType = "trade"     // partially filled or filled (Trade is set)
	ReportCanceled  ReportType = "canceled"
	ReportExpired   ReportType = "expired"
	ReportReplaced  ReportType = "replaced" // the replacement of a replaced order; the old one gets no other event
)

// Event is one change the engine made. Events reach the Observer in the order
// the engine made the changes, while the engine's lock is held.
type Event struct {
	Kind EventKind
	// Seq numbers the events the engine emitted, from 1, across kinds.
	Seq uint64

	// OrderEvent.
	Report ReportType
	// Account is the trader (for margin orders too; Margin tells them apart).
	Account string
	Margin  bool
	// Futures is set (with Margin) on futures orders.
	Futures bool
	// Order is the order's public snapshot after the change.
	Order Order
	// Trade is this order's side of the trade, with its fee (ReportTrade only).
	Trade *Trade

	// TradeEvent.
	Print PublicTrade

	// BookEvent.
	Level BookLevel
}

// PublicTrade is a trade as the market sees it.
type PublicTrade struct {
	Symbol          string
	ID              int64
	Price, Quantity decimal.Decimal
	TakerSide       Side
	Timestamp       time.Time
}

// BookLevel is a price level of a book and its new total size (zero: the
// level is gone).
type BookLevel struct {
	Symbol      string
	Side        Side
	Price, Size decimal.Decimal
}

// Observer receives the engine's events. Observe is called with the engine's
// lock held: it must only enqueue, never call back into the engine. Wants is
// asked before an event is built, so that nothing is allocated for kinds
// nobody listens to.
type Observer interface {
	Wants(EventKind) bool
	Observe(Event)
}

func (e *Engine) wants(k EventKind) bool { return e.obs != nil && e.obs.Wants(k) }

func (e *Engine) emit(ev Event) {
	e.seq++
	ev.Seq = e.seq
	e.obs.Observe(ev)
}

// emitOrder reports an order's change; tr is its side of a trade, if any.
func (e *Engine) emitOrder(o *order, r ReportType, tr *Trade) {
	if !e.wants(OrderEvent) {
		return
	}
	s := o.snapshot()
	if tr != nil {
		// The trade report carries the status the trade leaves the order in;
		// finalize has not run yet.
		s.Status = PartiallyFilled
		if o.remaining() == 0 {
			s.Status = Filled
		}
	}
	e.emit(Event{Kind: OrderEvent, Report: r, Account: o.acct.user, Margin: o.mg != nil, Futures: o.mg != nil && o.mg.fut, Order: s, Trade: tr})
}

// emitLevel reports the current total size of bk's level at ticks on side s.
func (e *Engine) emitLevel(bk *book, s sideCode, ticks int64) {
	if !e.wants(BookEvent) {
		return
	}
	lvl := BookLevel{Symbol: bk.sym.Code, Side: s.public(), Price: bk.tick.decimal(ticks)}
	if _, lv := bk.sideOf(s).find(ticks); lv != nil {
		lvl.Size = bk.step.decimal(lv.lots)
	}
	e.emit(Event{Kind: BookEvent, Level: lvl})
}

// emitPrint reports a public trade.
func (e *Engine) emitPrint(bk *book, id int64, p, q decimal.Decimal, taker sideCode, now int64) {
	if !e.wants(TradeEvent) {
		return
	}
	e.emit(Event{Kind: TradeEvent, Print: PublicTrade{Symbol: bk.sym.Code, ID: id, Price: p, Quantity: q, TakerSide: taker.public(), Timestamp: nanoTime(now)}})
}

// Level is one price level of a book snapshot.
type Level struct {
	Price, Size decimal.Decimal
}

// Depth is a book's best levels on each side (depth <= 0: all of them),
// best first, with the Seq of the last event emitted before it was taken, so
// that a consumer of BookEvents can join the snapshot to the stream.
func (e *Engine) Depth(symbol string, depth int) (bids, asks []Level, seq uint64, ok bool) {
	e.lock()
	defer e.unlock()
	bk := e.books[symbol]
	if bk == nil {
		return nil, nil, e.seq, false
	}
	levels := func(s *side) []Level {
		n := len(s.levels)
		if depth > 0 && depth < n {
			n = depth
		}
		out := make([]Level, 0, n)
		for i := len(s.levels) - 1; i >= 0 && len(out) < n; i-- {
			lv := s.levels[i]
			out = append(out, Level{Price: lv.price, Size: bk.step.decimal(lv.lots)})
		}
		return out
	}
	return levels(&bk.bids), levels(&bk.asks), e.seq, true
}
