package engine

import (
	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/shopspring/decimal"
)

// account is one user's orders and trades: their spot orders, or (under
// MarginKey) their margin orders.
type account struct {
	id      string
	user    string            // the trader: id without the margin suffix
	byCloid map[string]*order // newest record per client_order_id, active or final
	active  []*order          // in no order; each one's activeAt is its place (see addActive)
	perSym  []int             // active and suspended orders per book index
	hist    history           // by ID; see history for when deleted entries go
	deleted int
	trimAt  int // history before it holds no final record Retention may delete, but those in behind
	// behind holds the IDs of orders that ended after the cursor had
	// passed them (it skips active orders).
	behind []int64
	// foreignHex: the account chose a client_order_id of the generator's
	// shape, so generated ones must be checked against byCloid.
	foreignHex bool

	// refs are handles on the account's balances of each book's base and
	// quote (by book index), made on first use.
	refs []bookRefs

	trades    []tradeRec // ring of the latest maxTrades
	tradeNext int        // next slot to overwrite once the ring is full
	maxTrades int
}

// histEntry is one record of an account's history, with what retention
// reads of it: walking old history then touches no order (at 100,000
// records per account, reading each evicted order was a cache miss).
type histEntry struct {
	o         *order // nil once deleted, or once compact (see recycle)
	c         compactRec
	id        int64
	genSeq    uint64 // o.genSeq (lookup's binary search reads it)
	deleted   bool   // mirrors o.deleted
	genID     bool   // o.genID
	scheduled bool   // o is in the engine's purge schedule
}

// entryOf is the index of o's history entry (len when it has none: a
// record not registered, or whose entry was deleted).
func (a *account) entryOf(o *order) int {
	if i := a.hist.index(o.histAt); i < a.hist.len() && a.hist.at(i).o == o {
		return i
	}
	return a.hist.len()
}

// find is the index of the history entry of order id (len when absent).
func (a *account) find(id int64) int {
	i := a.hist.search(func(h *histEntry) bool { return h.id >= id })
	if i < a.hist.len() && a.hist.at(i).id == id {
		return i
	}
	return a.hist.len()
}

// tradeRec is one side of a trade in an account's trade history.
type tradeRec struct {
	id int64
	// What the history shows of the order, copied: a trade record that
	// held the order itself kept it alive as long as the trade stayed.
	oid    int64
	cloid  string // chosen; "" when generated, then gen is its sequence number
	gen    uint64
	bk     *book
	side   sideCode
	margin bool
	qty    int64
	price  int64
	fee    fixed.Amount
	taker  bool
	at     int64
	// Margin trades: the position traded into, and the profit or loss
	// realized when the trade reduced it (nil otherwise).
	posID int64
	pnl   *decimal.Decimal
}

// clientID is the client_order_id of the trade's order.
func (t *tradeRec) clientID() string { return clientIDOf(t.cloid, t.gen) }

// addActive puts o into the active set: a slice with each order's place
// in it, which a map keyed by order ID cost a tenth of the engine's time.
func (a *account) addActive(o *order) {
	a.active = append(a.active, o)
	o.activeAt = int32(len(a.active))
}

// isActive reports whether history entry h is an active order.
func (h *histEntry) isActive() bool { return h.o != nil && h.o.activeAt != 0 }

// compactRec is a final order as history keeps it once its record is
// reused (see recycle): what a snapshot of a plain spot order with a
// generated client_order_id reads.
type compactRec struct {
	bk                       *book
	qty, filled, price, stop int64
	cum, created, updated    int64
	status                   statusCode
	side                     sideCode
	typ                      typeCode
	tif                      tifCode
	postOnly, triggered      bool
}

// view is the order of entry h of account a: its record, or for a
// compact entry the order rebuilt into tmp.
func (h *histEntry) view(a *account, tmp *order) *order {
	if h.o != nil || h.deleted {
		return h.o
	}
	c := &h.c
	*tmp = order{id: h.id, status: c.status, genID: true, acct: a,
		bk: c.bk, side: c.side, typ: c.typ, tif: c.tif, postOnly: c.postOnly, triggered: c.triggered,
		genSeq: h.genSeq, qty: c.qty, filled: c.filled, price: c.price, stop: c.stop,
		created: c.created, updated: c.updated, cum: c.cum, fees: &c.bk.fees}
	tmp.qtyDec = c.bk.step.decimal(c.qty)
	if isLimitKind(c.typ) {
		tmp.priceDec = c.bk.tick.decimal(c.price)
	}
	return tmp
}

// created is when entry h's order was created.
func (h *histEntry) created() int64 {
	if h.o != nil {
		return h.o.created
	}
	return h.c.created
}

// removeActive takes o out of the active set (the last one takes its
// place); it reports whether o was in it.
func (a *account) removeActive(o *order) bool {
	i := int(o.activeAt) - 1
	if i < 0 || i >= len(a.active) || a.active[i] != o {
		return false
	}
	last := a.active[len(a.active)-1]
	a.active[i], last.activeAt = last, int32(i+1)
	a.active[len(a.active)-1] = nil
	a.active = a.active[:len(a.active)-1]
	o.activeAt = 0
	return true
}

func (a *account) addTrade(t tradeRec) {
	if len(a.trades) < a.maxTrades {
		a.trades = append(a.trades, t)
		return
	}
	a.trades[a.tradeNext] = t
	if a.tradeNext++; a.tradeNext == a.maxTrades { // (not %: a division per trade showed)
		a.tradeNext = 0
	}
}

// deadline is a heap entry: order o is due at at (Unix nanoseconds).
type deadline struct {
	at int64
	o  *order
}

// deadlines is a min-heap by at, typed to avoid container/heap's boxing.
type deadlines []deadline

func (h *deadlines) push(d deadline) {
	*h = append(*h, d)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].at <= s[i].at {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *deadlines) pop() deadline {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s[n] = deadline{}
	s = s[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s[l].at < s[m].at {
			m = l
		}
		if r < n && s[r].at < s[m].at {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
