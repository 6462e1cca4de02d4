package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// Closing positions and the margin trade history.

// ClosePosition closes a position (DELETE
// /margin/position/{margin_mode}/{symbol}) with a reduce-only order for
// its whole size: a limit GTC order at price when given, else a market
// IOC order (which closes what the book can take). It answers the
// position as it stood when the close was asked (none: an empty list).
// strict is strict_validate for price.
func (e *Engine) ClosePosition(account, mode, symbol string, price *decimal.Decimal, strict bool) ([]Position, error) {
	return e.closePosition(account, mode, symbol, price, strict, false)
}

func (e *Engine) closePosition(account, mode, symbol string, price *decimal.Decimal, strict, fut bool) ([]Position, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	bk := e.books[symbol]
	if bk == nil || bk.sym.Futures != fut {
		return nil, errorf(ErrSymbolNotFound, "symbol %q not found", symbol)
	}
	m := margin.Mode(mode)
	if m != margin.Isolated && m != margin.Cross {
		return nil, errorf(ErrValidation, "margin_mode %q must be isolated or cross", mode)
	}
	var ticks int64
	if price != nil {
		n, err := e.units(bk.tick, "price", price, strict)
		if err != nil {
			return nil, err
		}
		ticks = n
	}
	ma := e.margin[acctLedgerID(account, fut, m, marginInstrument(bk, m))]
	if ma == nil {
		if _, _, err := e.resolveMargin(mode, marginInstrument(bk, m), fut); err != nil {
			return nil, err
		}
		return nil, errorf(ErrValidation, "no %s margin account for %s", m, marginInstrument(bk, m))
	}
	out := []Position{}
	if p := ma.pos[bk.idx]; p != nil {
		out = append(out, e.positionView(ma, p, e.marginBalance(ma)))
		e.closeWith(ma, p, price != nil, ticks, now)
	}
	e.drain(now)
	return out, nil
}

// CloseAllPositions closes every open position of the trader (DELETE
// /margin/position) with market IOC orders, and answers the positions as
// they stood.
func (e *Engine) CloseAllPositions(account string) []Position {
	return e.closeAllPositions(account, false)
}

func (e *Engine) closeAllPositions(account string, fut bool) []Position {
	e.lock()
	defer e.unlock()
	now := e.now()
	out := []Position{}
	type job struct {
		ma *marginAcct
		p  *position
	}
	var jobs []job
	for _, ma := range e.userMargins(account, fut) {
		mb := e.marginBalance(ma)
		for _, pv := range e.positionsOf(ma, mb) {
			out = append(out, pv)
			jobs = append(jobs, job{ma, ma.pos[e.books[pv.Symbol].idx]})
		}
	}
	for _, j := range jobs {
		if j.p.lots != 0 && j.ma.pos[j.p.bk.idx] == j.p {
			e.closeWith(j.ma, j.p, false, 0, now)
		}
		e.drain(now)
	}
	return out
}

// closeWith places the order that closes position p: reduce-only, for its
// whole size, limit GTC at ticks or market IOC. It holds only its fee and
// is never refused for margin: closing must always be possible.
func (e *Engine) closeWith(ma *marginAcct, p *position, limit bool, ticks int64, now int64) {
	if e.faults.On("V3-MARGIN-POSITION-CLOSE") && !ma.fut {
		return
	}
	bk := p.bk
	key := MarginKey(ma.user)
	if ma.fut {
		key = FuturesKey(ma.user)
	}
	a := e.account(key)
	o := &order{acct: a, bk: bk, side: cSell, typ: cMarket, tif: cIOC, fees: &bk.fees,
		mg: &marginOrder{mode: ma.mode, acct: ma, reduceOnly: true, fut: ma.fut}}
	if p.lots < 0 {
		o.side = cBuy
	}
	o.setQty(max(p.lots, -p.lots))
	if limit {
		o.typ, o.tif = cLimit, cGTC
		o.setPrice(ticks)
	}
	e.genID(o)
	if err := e.reserveMargin(o); err != nil {
		// A reducing order is never refused for margin; only a ledger
		// changed behind the engine's back gets here.
		panic(fmt.Sprintf("engine: closing position %d: %v", p.id, err))
	}
	o.created, o.updated = now, now
	o.deadline = e.deadlineOf(o, now)
	e.register(o)
	e.admit(o, now, nil, ReportNew)
}

// MarginTradeQuery selects margin trades (GET /margin/history/trade).
type MarginTradeQuery struct {
	Account string
	OrderID int64    // 0: all
	Symbols []string // empty: all
	SortAsc bool     // default DESC
	// ByTimestamp filters From and Till on the trade time; otherwise
	// FromID and TillID bound the trade ID (From and Till still apply
	// when given).
	ByTimestamp    bool
	From, Till     *time.Time
	FromID, TillID *int64
	Limit, Offset  int // Limit <= 0 means 100
	// Futures selects futures trades (GET /futures/history/trade) instead
	// of margin ones.
	Futures bool
}

// MarginTrade is one execution of a margin order (spec: Resources, Margin
// trade history record).
type MarginTrade struct {
	ID, OrderID   int64
	ClientOrderID string
	Symbol        string
	Side          Side
	Quantity      decimal.Decimal
	Price         decimal.Decimal
	Fee           decimal.Decimal
	Timestamp     time.Time
	Taker         bool
	PositionID    int64            // 0: none
	PnL           *decimal.Decimal // realized, when the trade reduced the position
	Margin        bool             // the order was a margin order
}

// MarginTrades answers a trader's margin trades.
func (e *Engine) MarginTrades(q MarginTradeQuery) []MarginTrade {
	e.lock()
	defer e.unlock()
	e.now()
	var sel []tradeRec
	key := MarginKey(q.Account)
	if q.Futures {
		key = FuturesKey(q.Account)
	}
	if a := e.accounts[key]; a != nil {
		sel = selectTrades(a, q, sel)
	}
	return e.shapeTrades(q, sel)
}

// selectTrades appends the trades of a that q selects, oldest first.
func selectTrades(a *account, q MarginTradeQuery, sel []tradeRec) []tradeRec {
	n := len(a.trades)
	for i := 0; i < n; i++ {
		// Oldest first: the ring starts at tradeNext once full.
		t := a.trades[(a.tradeNext+i)%n]
		switch {
		case q.OrderID != 0 && t.oid != q.OrderID,
			len(q.Symbols) > 0 && !slices.Contains(q.Symbols, t.bk.sym.Code),
			q.From != nil && t.at < q.From.UnixNano(),
			q.Till != nil && t.at > q.Till.UnixNano(),
			q.FromID != nil && t.id < *q.FromID,
			q.TillID != nil && t.id > *q.TillID:
			continue
		}
		sel = append(sel, t)
	}
	return sel
}

// shapeTrades sorts, pages and shapes selected trades (oldest first by ID).
func (e *Engine) shapeTrades(q MarginTradeQuery, sel []tradeRec) []MarginTrade {
	out := []MarginTrade{}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultTradesLimit
	}
	slices.SortStableFunc(sel, func(x, y tradeRec) int {
		if q.ByTimestamp {
			if c := cmp.Compare(x.at, y.at); c != 0 {
				return c
			}
		}
		return cmp.Compare(x.id, y.id)
	})
	if !q.SortAsc {
		slices.Reverse(sel)
	}
	if q.Offset >= len(sel) {
		return out
	}
	sel = sel[q.Offset:]
	if len(sel) > limit {
		sel = sel[:limit]
	}
	for _, t := range sel {
		bk := t.bk
		out = append(out, MarginTrade{ID: t.id, OrderID: t.oid, ClientOrderID: t.clientID(), Symbol: bk.sym.Code, Side: t.side.public(),
			Quantity: bk.step.decimal(t.qty), Price: bk.tick.decimal(t.price), Fee: t.fee.Decimal(), Timestamp: nanoTime(t.at),
			Taker: t.taker, PositionID: t.posID, PnL: t.pnl, Margin: t.margin})
	}
	return out
}

// Margin selections of UserTrades (the v2 margin parameter).
const (
	MarginInclude = "include"
	MarginOnly    = "only"
	MarginIgnore  = "ignore"
)

// UserTrades answers a trader's trades, spot and margin together as margin
// says (MarginInclude, MarginOnly, MarginIgnore; "" is include): the
// account-wide trade history of API v2. Sorting, bounds and paging are
// those of MarginTrades, over the union.
func (e *Engine) UserTrades(q MarginTradeQuery, marginSel string) []MarginTrade {
	e.lock()
	defer e.unlock()
	e.now()
	var sel []tradeRec
	if a := e.accounts[q.Account]; a != nil && marginSel != MarginOnly {
		sel = selectTrades(a, q, sel)
	}
	if a := e.accounts[MarginKey(q.Account)]; a != nil && marginSel != MarginIgnore {
		sel = selectTrades(a, q, sel)
	}
	return e.shapeTrades(q, sel)
}
