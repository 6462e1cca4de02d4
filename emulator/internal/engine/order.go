package engine

import (
	"math/big"
	"math/bits"
	"time"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// order is the engine's live record of an order. Prices are kept in ticks
// and quantities in increments of its symbol; times in Unix nanoseconds.
type order struct {
	// The fields history retention reads of an old record come first, in
	// one cache line: evicting a record then costs one miss, not several.
	id      int64
	status  statusCode
	deleted bool
	genID   bool // its client_order_id was generated
	// activeAt is its place in the account's active set plus one, 0
	// when it is not in it (retention reads it with deleted).
	activeAt int32
	// histAt is its entry's position in the account's history (kept true
	// by compaction): finding the entry by a search of history cost a
	// tenth of the engine's time.
	histAt  uint32
	purgeAt int64 // when it leaves history, 0 when not scheduled
	acct    *account
	// cloid is the client_order_id the trader chose; "" when generated
	// (see clientID).
	cloid string

	bk       *book
	side     sideCode
	typ      typeCode
	tif      tifCode
	postOnly bool
	// triggered is set when a stop or take-profit order leaves suspension.
	triggered bool
	genSeq    uint64 // the generator's sequence number then (see index)

	qty, filled int64 // increments
	price       int64 // ticks; limit kinds only
	// qtyDec and priceDec are qty and price as decimals, made once and
	// shared (decimals are immutable) to spare allocations per trade.
	qtyDec, priceDec decimal.Decimal
	stop             int64 // ticks; stop and take-profit kinds only
	created          int64
	updated          int64
	deadline         int64 // expiry by time in force, 0 when none

	fees *rates       // shared with the book unless the order has markups
	resv fixed.Amount // still reserved in spendCurrency
	// cum is Σ ticks × increments of the executions (the executed notional
	// in units of tick × step); x.cumBig takes over should it overflow.
	cum int64

	// Book queue links (lvl is nil when not resting).
	lvl        *level
	prev, next *order

	// list is the order list the order belongs to (nil for single orders);
	// x.listIdx is its place in the request.
	list *orderList
	// inactive: a list secondary waiting for its primary; it is active
	// (it counts, holds funds, can be canceled) but neither rests nor parks.
	inactive bool
	// doomed: an order list's rule has canceled it; it is taken off as soon
	// as the matching in progress allows.
	doomed bool
	// replaced: ended by a replace, which hands its list place on.
	replaced bool
	// superseded: ended by a replace (its replacement reports it).
	superseded bool

	mg *marginOrder // nil for spot orders
	x  *orderExtra  // nil for most orders
}

// orderExtra is what few orders have. Kept apart, it leaves the record
// that every placement allocates in a smaller size class.
type orderExtra struct {
	origCloid string  // a replacement's predecessor's client_order_id
	display   *string // display_quantity as sent
	expire    int64   // GTD expire_time, 0 when none
	// sameCloidPrev is an older history record with the same
	// client_order_id (only after a reuse).
	sameCloidPrev *order
	listIdx       int      // its place in its list's request (0: the primary of OTO and OTOCO)
	cumBig        *big.Int // the executed notional once it outgrows cum
}

// extra is o's orderExtra, made on first use.
func (o *order) extra() *orderExtra {
	if o.x == nil {
		o.x = &orderExtra{}
	}
	return o.x
}

// The readers of orderExtra's fields, for orders without one too.
func (o *order) origCloid() string {
	if o.x == nil {
		return ""
	}
	return o.x.origCloid
}

func (o *order) display() *string {
	if o.x == nil {
		return nil
	}
	return o.x.display
}

func (o *order) expire() int64 {
	if o.x == nil {
		return 0
	}
	return o.x.expire
}

func (o *order) sameCloidPrev() *order {
	if o.x == nil {
		return nil
	}
	return o.x.sameCloidPrev
}

func (o *order) listIdx() int {
	if o.x == nil {
		return 0
	}
	return o.x.listIdx
}

func (o *order) cumBig() *big.Int {
	if o.x == nil {
		return nil
	}
	return o.x.cumBig
}

// marginOrder is what a margin order adds to an order.
type marginOrder struct {
	mode       margin.Mode
	acct       *marginAcct
	reduceOnly bool
	closePos   bool
	fut        bool // a futures order, on a futures margin account
	// force skips the free-margin check (only the fault that opens an
	// account for an order lacking one sets it).
	force bool
	posID int64 // the position it first traded into
}

// reducing reports whether a margin order may only reduce its position
// (reduce_only, close_position): such an order needs no initial margin.
func (o *order) reducing() bool {
	return o.mg != nil && (o.mg.reduceOnly || o.mg.closePos)
}

// rates are the fee rates an order pays.
type rates struct {
	take, make decimal.Decimal
	onePlus    decimal.Decimal // 1 + max(take, make, 0): the reservation factor
	// onePlusF is onePlus in fixed point, for reservations.
	onePlusF fixed.Factor
	// takeV and makeV are the rates times the book's fee volume unit (see
	// book.feeUnit): a trade's fee is then one product of integers, where
	// the volume in fixed point times the rate needed a division by a
	// power of ten.
	takeV, makeV fixed.Factor
}

// newRates makes the rates take and make, with their reservation factor,
// for a book whose fee volume is counted in unit.
func newRates(take, mk, unit decimal.Decimal) rates {
	r := rates{take: take, make: mk, onePlus: decimal.New(1, 0).Add(maxRate(take, mk))}
	r.onePlusF = fixed.NewFactor(r.onePlus)
	r.takeV, r.makeV = fixed.NewFactor(take.Mul(unit)), fixed.NewFactor(mk.Mul(unit))
	return r
}

// clientID is the order's client_order_id. A generated one is kept as its
// sequence number and made a string only where it is read: making it for
// every placement (an allocation each) was a twentieth of the engine.
func (o *order) clientID() string { return clientIDOf(o.cloid, o.genOf()) }

// clientIDOf is a client_order_id kept as the one chosen, or when that is
// "" as the generator's sequence number gen (0: none, as under the
// V3-SPOT-CLOID-GENERATED fault).
func clientIDOf(cloid string, gen uint64) string {
	if cloid == "" && gen != 0 {
		return genString(gen)
	}
	return cloid
}

// genOf is o's generator sequence number when its ID was generated, else 0
// (the generator's first number is 1).
func (o *order) genOf() uint64 {
	if o.genID {
		return o.genSeq
	}
	return 0
}

func (o *order) active() bool {
	return o.status == cNew || o.status == cSuspended || o.status == cPartiallyFilled
}

func (o *order) remaining() int64 { return o.qty - o.filled }

func (o *order) setQty(n int64) {
	o.qty, o.qtyDec = n, o.bk.step.decimal(n)
}

func (o *order) setPrice(n int64) {
	o.price, o.priceDec = n, o.bk.tick.decimal(n)
}

// setQtyFrom and setPriceFrom set n units that the request sent as v,
// exact when v is a whole number of them: such a value is shared
// (decimals are immutable), sparing the allocations of making it again.
func (o *order) setQtyFrom(n int64, v *decimal.Decimal, exact bool) {
	if exact {
		o.qty, o.qtyDec = n, *v
		return
	}
	o.setQty(n)
}

func (o *order) setPriceFrom(n int64, v *decimal.Decimal, exact bool) {
	if exact {
		o.price, o.priceDec = n, *v
		return
	}
	o.setPrice(n)
}

// remainingDec is the remaining quantity as a decimal.
func (o *order) remainingDec() decimal.Decimal {
	if o.filled == 0 {
		return o.qtyDec
	}
	return o.bk.step.decimal(o.remaining())
}

// addExecution counts lots executed at ticks into the cumulative notional.
func (o *order) addExecution(ticks, lots int64) {
	if o.cumBig() == nil {
		hi, lo := bits.Mul64(uint64(ticks), uint64(lots))
		if sum := o.cum + int64(lo); hi == 0 && lo < 1<<63 && sum >= o.cum {
			o.cum = sum
			return
		}
		o.extra().cumBig = big.NewInt(o.cum)
	}
	o.x.cumBig.Add(o.x.cumBig, new(big.Int).Mul(big.NewInt(ticks), big.NewInt(lots)))
}

// priceAverage is Σ price × quantity / Σ quantity of the executions.
func (o *order) priceAverage() decimal.Decimal {
	bk := o.bk
	if o.filled == 0 {
		return decimal.Decimal{}
	}
	if o.cumBig() == nil && o.cum%o.filled == 0 {
		// One price, or prices that average to a whole tick.
		if t := o.cum / o.filled; t != o.price {
			return bk.tick.decimal(t)
		}
		return o.priceDec
	}
	num := o.cumBig()
	if num == nil {
		num = big.NewInt(o.cum)
	}
	notional := decimal.NewFromBigInt(new(big.Int).Mul(num, big.NewInt(bk.tick.coef)), bk.tick.exp)
	return notional.DivRound(decimal.New(o.filled, 0), max(-bk.tick.exp, 0)+8)
}

// spendCurrency is what the order gives up: quote for a buy, base for a sell.
func (o *order) spendCurrency() string {
	if o.side == cBuy {
		return o.bk.sym.Quote
	}
	return o.bk.sym.Base
}

// resvAccount and resvCurrency are the ledger balance that holds the
// order's reservation: the spend currency of the trader's spot balance, or
// the collateral currency of the margin account.
func (o *order) resvAccount() string {
	if o.mg != nil {
		return o.mg.acct.ledgerID
	}
	return o.acct.id
}

// bookRefs are ledger handles on one book's base and quote.
type bookRefs struct{ base, quote *ledger.Ref }

// ref is the handle on the account's balance of the book's base (or quote).
func (a *account) ref(bk *book, base bool) *ledger.Ref {
	r := a.bookRefs(bk)
	if base {
		return r.base
	}
	return r.quote
}

// bookRefs are the handles on the account's balances of the book's base
// and quote.
func (a *account) bookRefs(bk *book) *bookRefs {
	if a.refs == nil {
		a.refs = make([]bookRefs, bk.count)
	}
	r := &a.refs[bk.idx]
	if r.base == nil {
		r.base, r.quote = ledger.NewRef(a.id, bk.sym.Base), ledger.NewRef(a.id, bk.sym.Quote)
	}
	return r
}

// resvRef is the handle on the balance that holds a spot order's
// reservation (its spend currency); nil for a margin order.
func (o *order) resvRef() *ledger.Ref {
	if o.mg != nil {
		return nil
	}
	return o.acct.ref(o.bk, o.side == cSell)
}

func (o *order) resvCurrency() string {
	if o.mg != nil {
		return o.mg.acct.cur
	}
	return o.spendCurrency()
}

// marketNow reports whether the order executes as a market order: a market
// order, or a stopMarket or takeProfitMarket order once triggered.
func (o *order) marketNow() bool {
	return o.typ == cMarket || (o.triggered && (o.typ == cStopMarket || o.typ == cTakeProfitMarket))
}

func isStop(t typeCode) bool {
	return t == cStopLimit || t == cStopMarket || t == cTakeProfitLimit || t == cTakeProfitMarket
}

func isLimitKind(t typeCode) bool { return t == cLimit || t == cStopLimit || t == cTakeProfitLimit }

func isMarketKind(t typeCode) bool { return t == cMarket || t == cStopMarket || t == cTakeProfitMarket }

// triggersUp reports whether a suspended order fires when the last price
// rises to its stop price (stop buy, take-profit sell) rather than falls.
func (o *order) triggersUp() bool {
	stopKind := o.typ == cStopLimit || o.typ == cStopMarket
	return stopKind == (o.side == cBuy)
}

func nanoTime(n int64) time.Time { return time.Unix(0, n).UTC() }

// snapshot is the order as the API answers it.
func (o *order) snapshot() (out Order) {
	o.fill(&out)
	return out
}

// fill writes the snapshot into out, which must be zero: an answer is
// filled where it is returned (as a value passed up two calls, the record
// was copied twice, a twelfth of a placement).
func (o *order) fill(out *Order) {
	bk := o.bk
	out.ID = o.id
	out.cloid, out.genSeq = o.cloid, o.genOf()
	out.Account = o.acct.id
	out.Symbol = bk.sym.Code
	out.Side = o.side.public()
	out.Status = o.status.public()
	out.Type = o.typ.public()
	out.TimeInForce = o.tif.public()
	out.Quantity = o.qtyDec
	out.PriceAverage = o.priceAverage()
	out.PostOnly = o.postOnly
	out.OriginalClientOrderID = o.origCloid()
	out.CreatedAt = nanoTime(o.created)
	out.UpdatedAt = nanoTime(o.updated)
	switch o.filled {
	case 0:
	case o.qty:
		out.QuantityCumulative = o.qtyDec
	default:
		out.QuantityCumulative = bk.step.decimal(o.filled)
	}
	if isLimitKind(o.typ) {
		// Not &o.priceDec: the record is reused once the order is final
		// and history keeps it in compact form (see recycle).
		out.Price = bk.box(o.priceDec)
	}
	if isStop(o.typ) {
		p := bk.tick.decimal(o.stop)
		out.StopPrice = &p
	}
	if o.tif == cGTD && o.expire() != 0 {
		t := nanoTime(o.expire())
		out.ExpireTime = &t
	}
	if o.display() != nil {
		d := *o.display()
		out.DisplayQuantity = &d
	}
	if o.list != nil {
		out.OrderListID, out.ContingencyType = o.list.id, o.list.typ
		out.Inactive = o.inactive && o.active()
	}
	if o.mg != nil {
		out.Account = o.acct.user
		out.MarginMode = string(o.mg.mode)
		out.ReduceOnly = o.mg.reduceOnly
		out.PositionID = o.mg.posID
	}
}

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
