package v2streams

import (
	"context"
	"encoding/json"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var (
	bookSchema = framework.Schema{"ask": {Kind: framework.Array}, "bid": {Kind: framework.Array}, "symbol": {Kind: framework.String},
		"sequence": {Kind: framework.Number}, "timestamp": {Kind: framework.DateTime}}
	levelSchema = framework.Schema{"price": {Kind: framework.Decimal}, "size": {Kind: framework.Decimal}}
	// ask and bid may be null without data; last, open, low and high are held
	// to the same reading, as the v2 REST suite does (what a target sends
	// without trades is recorded there).
	tickerSchema = framework.Schema{"ask": {Kind: framework.Decimal, Nullable: true}, "bid": {Kind: framework.Decimal, Nullable: true},
		"last": {Kind: framework.Decimal, Nullable: true}, "open": {Kind: framework.Decimal, Nullable: true}, "low": {Kind: framework.Decimal, Nullable: true},
		"high": {Kind: framework.Decimal, Nullable: true}, "volume": {Kind: framework.Decimal}, "volumeQuote": {Kind: framework.Decimal},
		"timestamp": {Kind: framework.DateTime}, "symbol": {Kind: framework.String}}
)

// sequenceOf reads the sequence Number of book params.
func sequenceOf(params any) int64 {
	GinkgoHelper()
	n, ok := object(params, "order book params")["sequence"].(json.Number)
	Expect(ok).To(BeTrue(), "sequence is a JSON number: %v", params)
	v, err := n.Int64()
	Expect(err).NotTo(HaveOccurred(), "sequence is an integer: %v", n)
	return v
}

// bookSide is one side of a rebuilt book: size by price, both as canonical
// decimal text (so 0.10 and 0.1 are one price).
type bookSide map[string]string

// book is a book rebuilt from a snapshot and updates.
type book struct{ ask, bid bookSide }

func (b *book) apply(params any) {
	GinkgoHelper()
	for side, m := range map[string]bookSide{"ask": b.ask, "bid": b.bid} {
		for _, l := range levelsOf(params, side) {
			p, ok1 := trading.AsDecimal(l["price"])
			sz, ok2 := trading.AsDecimal(l["size"])
			Expect(ok1 && ok2).To(BeTrue(), "a level is {price, size} as decimals: %v", l)
			if sz.IsZero() {
				delete(m, p.String())
			} else {
				m[p.String()] = sz.String()
			}
		}
	}
}

func newBook(snapshot any) *book {
	GinkgoHelper()
	b := &book{ask: bookSide{}, bid: bookSide{}}
	b.apply(snapshot)
	return b
}

// bookScene is a subscribed order book and a trader who rests buys in it.
type bookScene struct {
	t        *trading.Trader
	sym      trading.Symbol
	s        *stream
	snapshot any
}

func newBookScene(ctx context.Context) *bookScene {
	GinkgoHelper()
	framework.Current().RequireTrading()
	t := trading.NewTrader(target.RoleFull, trading.Spot)
	sym := restingSymbol(ctx, t)
	s := open(ctx, pathPublic)
	Expect(s.ok(ctx, "subscribeOrderbook", frame{"symbol": sym.Code})).To(Equal(true), "subscribeOrderbook")
	return &bookScene{t: t, sym: sym, s: s, snapshot: s.notification(ctx, "snapshotOrderbook", nil)}
}

// rest places a resting buy at k ticks and returns its client_order_id and
// the level's price.
func (b *bookScene) rest(ctx context.Context, k int64) (string, string) {
	GinkgoHelper()
	id := cloids.New()
	b.t.PlaceOK(ctx, b.sym.RestingBuy(id, k))
	return id, b.sym.Low(k).String()
}

var _ = framework.AreaDescribe("v2 streams: ticker and order book", func() {
	framework.ConformanceIt("V2-WS-TICKER", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		Expect(s.ok(ctx, "subscribeTicker", frame{"symbol": sym.Code})).To(Equal(true), "subscribeTicker")
		t := object(s.notification(ctx, "ticker", nil), "ticker params")
		Expect(t).To(framework.MatchSchema(tickerSchema), "the Ticker fields")
		Expect(t["symbol"]).To(Equal(sym.Code), "the ticker of the symbol subscribed to")
	})

	framework.ConformanceIt("V2-WS-BOOK-SHAPE", func(ctx SpecContext) {
		b := newBookScene(ctx)
		check := func(params any, what string) {
			GinkgoHelper()
			Expect(object(params, what)).To(framework.MatchSchema(bookSchema), what)
			Expect(object(params, what)["symbol"]).To(Equal(b.sym.Code), "%s names the symbol", what)
			for _, side := range []string{"ask", "bid"} {
				for _, l := range levelsOf(params, side) {
					Expect(l).To(framework.MatchSchema(levelSchema), "a level of %s %s", what, side)
				}
			}
		}
		check(b.snapshot, "snapshotOrderbook")
		_, price := b.rest(ctx, restingPrice())
		check(b.s.notification(ctx, "updateOrderbook", hasLevelParams("bid", price)), "updateOrderbook")
	})

	framework.ConformanceIt("V2-WS-BOOK-SNAPSHOT-SEQ", func(ctx SpecContext) {
		b := newBookScene(ctx)
		b.rest(ctx, restingPrice())
		first := b.s.notification(ctx, "updateOrderbook", nil)
		Expect(sequenceOf(first)).To(Equal(sequenceOf(b.snapshot)), "the first update after the snapshot carries the snapshot's sequence")
	})

	framework.ConformanceIt("V2-WS-BOOK-SEQ", func(ctx SpecContext) {
		b := newBookScene(ctx)
		id, price := b.rest(ctx, restingPrice())
		b.s.notification(ctx, "updateOrderbook", hasLevelParams("bid", price))
		b.t.CancelOK(ctx, id)
		b.rest(ctx, restingPrice())
		_, last := b.rest(ctx, restingPrice())
		seqs := []int64{}
		for _, f := range b.s.frames(ctx, "the update of the last level", hasLevel("bid", last)) {
			if f["method"] == "updateOrderbook" {
				seqs = append(seqs, sequenceOf(f["params"]))
			}
		}
		Expect(len(seqs)).To(BeNumerically(">=", 3), "a cancel and two new levels make three updates")
		for i := 1; i < len(seqs); i++ {
			Expect(seqs[i]).To(BeNumerically(">", seqs[i-1]), "sequences grow from update to update: %v", seqs)
		}
	})

	framework.ConformanceIt("V2-WS-BOOK-DELETE", func(ctx SpecContext) {
		b := newBookScene(ctx)
		id, price := b.rest(ctx, restingPrice())
		added := levelAt(b.s.notification(ctx, "updateOrderbook", hasLevelParams("bid", price)), "bid", price)
		Expect(added["size"]).To(trading.DecEqual(b.sym.Qty(10)), "the new level holds the order's quantity")
		b.t.CancelOK(ctx, id)
		gone := levelAt(b.s.notification(ctx, "updateOrderbook", hasLevelParams("bid", price)), "bid", price)
		Expect(gone["size"]).To(trading.DecEqual(decimal.Zero), "the level emptied by the cancel is sent with size 0")
	})

	framework.ConformanceIt("V2-WS-BOOK-REBUILD", func(ctx SpecContext) {
		b := newBookScene(ctx)
		rebuilt := newBook(b.snapshot)
		// A new level, a second order on it (its size changes) and a level
		// that comes and goes.
		k := restingPrice()
		b.rest(ctx, k)
		b.rest(ctx, k)
		gone, _ := b.rest(ctx, k+1)
		b.t.CancelOK(ctx, gone)
		// A fresh subscription's snapshot is the book before the update
		// carrying its sequence; one more order makes sure such an update comes.
		other := open(ctx, pathPublic)
		other.ok(ctx, "subscribeOrderbook", frame{"symbol": b.sym.Code})
		fresh := other.notification(ctx, "snapshotOrderbook", nil)
		at := sequenceOf(fresh)
		b.rest(ctx, k+2)
		b.s.frames(ctx, "an update with the fresh snapshot's sequence or later", func(f frame) bool {
			if f["method"] != "updateOrderbook" {
				return false
			}
			if sequenceOf(f["params"]) >= at {
				return true
			}
			rebuilt.apply(f["params"])
			return false
		})
		want := newBook(fresh)
		Expect(rebuilt.bid).To(Equal(want.bid), "bids rebuilt from the snapshot and the updates before sequence %d equal a fresh snapshot's", at)
		Expect(rebuilt.ask).To(Equal(want.ask), "asks rebuilt from the snapshot and the updates before sequence %d equal a fresh snapshot's", at)
	})
})
