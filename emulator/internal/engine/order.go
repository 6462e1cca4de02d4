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
