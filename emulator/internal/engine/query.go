package engine

import (
	"slices"
	"sort"
	"strings"
)

// Cancel cancels an active (new, suspended or partiallyFilled) order
// (DELETE /spot/order/{client_order_id}) and answers it canceled.
func (e *Engine) Cancel(account, clientOrderID string) (Order, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	o, err := e.activeOrder(account, clientOrderID)
	if err != nil {
		return Order{}, err
	}
	prev := o.status
	e.cancel(o, now)
	out := o.snapshot()
	if e.faults.On("V3-SPOT-CANCEL") {
		out.Status = prev.public()
	}
	return out, nil
}

// cancel ends an active order as canceled and releases its funds.
func (e *Engine) cancel(o *order, now int64) {
	e.unlink(o)
	e.finalize(o, cCanceled, now, !e.faults.On("V3-SPOT-RESERVE"))
}

// CancelAll cancels every active order of the account, of one symbol when
// symbol is not "" (DELETE /spot/order), and answers them by ID. An unknown
// symbol is ErrSymbolNotFound.
func (e *Engine) CancelAll(account, symbol string) ([]Order, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	if symbol != "" && e.books[symbol] == nil {
		return nil, errorf(ErrSymbolNotFound, "symbol %q not found", symbol)
	}
	if e.faults.On("V3-SPOT-CANCEL-ALL") {
		symbol = ""
	}
	os := append(e.activeOf(account, symbol, false), e.otherVenue(account, symbol)...)
	out := make([]Order, 0, len(os))
	for _, o := range os {
		e.cancel(o, now)
		out = append(out, o.snapshot())
	}
	return out, nil
}

// Active lists the account's active orders (new, suspended,
// partiallyFilled), of one symbol when symbol is not "", by ID.
func (e *Engine) Active(account, symbol string) ([]Order, error) {
	e.lock()
	defer e.unlock()
	e.now()
	if symbol != "" && e.books[symbol] == nil {
		return nil, errorf(ErrSymbolNotFound, "symbol %q not found", symbol)
	}
	os := append(e.activeOf(account, symbol, e.faults.On("V3-SPOT-ACTIVE")), e.otherVenue(account, symbol)...)
	out := make([]Order, 0, len(os))
	for _, o := range os {
		out = append(out, o.snapshot())
	}
	return out, nil
}

// otherVenue is the separation faults' reach into the other venue: the
// spot orders of a margin account's owner (V3-MARGIN-SPOT-SEPARATE) or the
// margin orders of a spot account (V3-SPOT-MARGIN-SEPARATE); none otherwise.
func (e *Engine) otherVenue(account, symbol string) []*order {
	if spot, isMargin := strings.CutSuffix(account, marginSuffix); isMargin {
		if e.faults.On("V3-MARGIN-SPOT-SEPARATE") {
			return e.activeOf(spot, symbol, false)
		}
		return nil
	}
	if e.faults.On("V3-SPOT-MARGIN-SEPARATE") {
		return e.activeOf(MarginKey(account), symbol, false)
	}
	return nil
}

// historyAccounts are the accounts a history lookup reads: the one asked
// for, and under the V3-MARGIN-HISTORY-SEPARATE fault the other venue's of
// the same owner too.
func (e *Engine) historyAccounts(a *account, key string) []*account {
	if !e.faults.On("V3-MARGIN-HISTORY-SEPARATE") {
		return []*account{a}
	}
	other := MarginKey(key)
	if spot, isMargin := strings.CutSuffix(key, marginSuffix); isMargin {
		other = spot
	}
	if b := e.accounts[other]; b != nil {
		return []*account{a, b}
	}
	return []*account{a}
}

// activeOf collects an account's active orders by ID.
func (e *Engine) activeOf(account, symbol string, skipSuspended bool) []*order {
	a := e.accounts[account]
	if a == nil {
		return nil
	}
	os := make([]*order, 0, len(a.active))
	for _, o := range a.active {
		if (symbol == "" || o.bk.sym.Code == symbol) && !(skipSuspended && o.status == cSuspended) {
			os = append(os, o)
		}
	}
	slices.SortFunc(os, func(x, y *order) int { return int(x.id - y.id) })
	return os
}

// Get answers one active order by client_order_id
// (GET /spot/order/{client_order_id}); final orders are in History.
func (e *Engine) Get(account, clientOrderID string) (Order, error) {
	e.lock()
	defer e.unlock()
	e.now()
	o, err := e.activeOrder(account, clientOrderID)
	if err != nil {
		return Order{}, err
	}
	return o.snapshot(), nil
}

// History answers the account's order history records, active and final
// (GET /spot/history/order). Orders without executions leave history 24
// hours after their last update.
func (e *Engine) History(q HistoryQuery) ([]Order, error) {
	e.lock()
	defer e.unlock()
	e.now()
	a := e.accounts[q.Account]
	if a == nil {
		return []Order{}, nil
	}
	limit := q.Limit
	if q.DefaultLimit || limit <= 0 {
		limit = defaultHistoryLimit
		if e.faults.On("V3-SPOT-HISTORY-PAGING") {
			limit = 10
		}
	}
	asc := q.SortAsc
	if q.DefaultSort {
		asc = e.faults.On("V3-SPOT-HISTORY")
	}

	if q.ClientOrderID != "" {
		// Every other parameter is ignored: all records with the ID, newest first.
		var os []*order
		for _, a := range e.historyAccounts(a, q.Account) {
			for o := a.lookup(q.ClientOrderID); o != nil; o = o.sameCloidPrev() {
				if !o.deleted {
					os = append(os, o)
				}
			}
		}
		if e.faults.On("V3-SPOT-HISTORY-CLOID") {
			os = page(os, q.Offset, limit)
		}
		return snapshots(os), nil
	}

	match := func(o *order) bool {
		if o == nil || o.deleted { // (history lets go of deleted records)
			return false
		}
		if len(q.Symbols) > 0 && !slices.Contains(q.Symbols, o.bk.sym.Code) {
			return false
		}
		if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, o.status.public()) && !e.faults.On("V3-SPOT-HISTORY-FILTERS") {
			return false
		}
		if q.From != nil && o.created < q.From.UnixNano() {
			return false
		}
		if q.Till != nil && o.created > q.Till.UnixNano() {
			return false
		}
		return true
	}
	var tmp order // compact entries are rebuilt here (see histEntry.view)
	if q.ByTimestamp {
		var hs []*histEntry
		for i := range a.hist.len() {
			if h := a.hist.at(i); match(h.view(a, &tmp)) {
				hs = append(hs, h)
			}
		}
		sort.SliceStable(hs, func(i, j int) bool {
			if ci, cj := hs[i].created(), hs[j].created(); ci != cj {
				return (ci < cj) == asc
			}
			return (hs[i].id < hs[j].id) == asc
		})
		if q.Offset >= len(hs) {
			return []Order{}, nil
		}
		hs = hs[q.Offset:]
		out := make([]Order, 0, min(len(hs), limit))
		for _, h := range hs[:min(len(hs), limit)] {
			out = append(out, h.view(a, &tmp).snapshot())
		}
		return out, nil
	}
	// By ID: history is already in ID order, so walk it and stop early.
	out := []Order{}
	skip := q.Offset
	n := a.hist.len()
	for i := 0; i < n && len(out) < limit; i++ {
		j := i
		if !asc {
			j = n - 1 - i
		}
		o := a.hist.at(j).view(a, &tmp)
		if !match(o) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, o.snapshot())
	}
	return out, nil
}

func page(os []*order, offset, limit int) []*order {
	if offset >= len(os) {
		return nil
	}
	os = os[offset:]
	if len(os) > limit {
		os = os[:limit]
	}
	return os
}

func snapshots(os []*order) []Order {
	out := make([]Order, 0, len(os))
	for _, o := range os {
		out = append(out, o.snapshot())
	}
	return out
}

// Trades answers the account's spot trades, newest first, of one symbol
// when symbol is not "", at most limit (<= 0: 100). Only the latest
// Retention.Trades trades of an account are kept (default 101,000).
func (e *Engine) Trades(account, symbol string, limit int) []TradeRecord {
	e.lock()
	defer e.unlock()
	e.now()
	if limit <= 0 {
		limit = defaultTradesLimit
	}
	out := []TradeRecord{}
	a := e.accounts[account]
	if a == nil {
		return out
	}
	n := len(a.trades)
	for i := 0; i < n && len(out) < limit; i++ {
		// The newest record sits just before tradeNext (which stays 0 until
		// the ring is full).
		t := a.trades[(a.tradeNext-1-i+2*n)%n]
		bk := t.bk
		if symbol != "" && bk.sym.Code != symbol {
			continue
		}
		out = append(out, TradeRecord{
			ID: t.id, OrderID: t.oid, ClientOrderID: t.clientID(), Symbol: bk.sym.Code, Side: t.side.public(),
			Quantity: bk.step.decimal(t.qty), Price: bk.tick.decimal(t.price), Fee: t.fee.Decimal(),
			Taker: t.taker, Timestamp: nanoTime(t.at),
		})
	}
	return out
}
