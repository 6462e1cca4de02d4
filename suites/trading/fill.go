package trading

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// FillPlan says what markets a spec that trades between two accounts needs.
type FillPlan struct {
	Symbols []Symbol // the candidates, in order of preference
	N       int      // how many markets, on distinct symbols
	// Ticks is the room the spec needs on either side of mid: on a target
	// other than the emulator the v2 ticker must show 2*Ticks+2 free ticks
	// inside the spread.
	Ticks int64
	// Unfit, when not nil, says why a candidate cannot serve ("" when it can).
	Unfit func(Symbol) string
	// Need is what maker and taker must each hold available on a market: quote
	// of its quote currency and base of its base currency.
	Need   func(Market) (quote, base decimal.Decimal)
	Cloids Cloids // of the orders the markets build
}

// FillMarkets chooses p.N markets where maker and taker may trade with each
// other, skipping the spec when fewer qualify. Each market's symbol is the
// spec's alone until it ends (see lanes): a symbol another process's fill
// spec holds is passed over, and when too few are free FillMarkets waits
// for them. On the emulator (an empty book but for parked orders at a few
// ticks) mid is a million ticks. Elsewhere the v2 ticker shows the book,
// read once the symbol is held: with a bid and an ask the trades go
// strictly inside the spread; with one side or none (an empty or thin
// book) the two accounts choose a price of their own on the free side: the
// last trade's, else a million ticks (as on the emulator) or less, the
// first that both can afford.
func FillMarkets(ctx context.Context, maker, taker *Trader, p FillPlan) []Market {
	GinkgoHelper()
	e := framework.Current()
	e.RequireTrading()
	// Symbols this process holds already (an outer spec's) come first: a
	// nested choice never waits for its own spec's lanes.
	cands := slices.Clone(p.Symbols)
	slices.SortStableFunc(cands, func(a, b Symbol) int {
		ao, bo := lanes.owns(a.Code), lanes.owns(b.Code)
		switch {
		case ao && !bo:
			return -1
		case bo && !ao:
			return 1
		}
		return 0
	})
	since := time.Now()
	mb, tb := maker.Balances(ctx), taker.Balances(ctx)
	for {
		out, reasons, busy := chooseMarkets(ctx, maker, taker, p, cands, mb, tb, e.Config.Emulator)
		if len(out) == p.N {
			for _, m := range out {
				DeferCleanup(lanes.release, m.Sym.Code)
			}
			return out
		}
		for _, m := range out {
			lanes.release(m.Sym.Code)
		}
		if len(busy) == 0 || !waitForLanes(ctx, since) {
			if len(busy) > 0 {
				reasons = append(reasons, fmt.Sprintf("held by other processes' fill specs for %s: %s", time.Since(since).Round(time.Second), strings.Join(busy, ", ")))
			}
			Skip(fmt.Sprintf("needs %d symbol(s) to trade on between the suite's two accounts, found %d of %d candidates:\n  %s", p.N, len(out), len(p.Symbols), strings.Join(reasons, "\n  ")))
		}
	}
}

// chooseMarkets is one pass of FillMarkets over the candidates: the markets
// chosen (their symbols held), why others were passed over, and the
// candidates other processes hold (worth waiting for).
func chooseMarkets(ctx context.Context, maker, taker *Trader, p FillPlan, cands []Symbol, mb, tb map[string]Balance, emulator bool) (out []Market, reasons, busy []string) {
	GinkgoHelper()
	for _, s := range cands {
		if len(out) == p.N {
			break
		}
		if p.Unfit != nil {
			if why := p.Unfit(s); why != "" {
				reasons = append(reasons, s.Code+": "+why)
				continue
			}
		}
		ok, err := lanes.hold(s.Code)
		Expect(err).NotTo(HaveOccurred(), "harness: taking the lane of %s", s)
		if !ok {
			busy = append(busy, s.Code)
			continue
		}
		m, why := affordableMarket(ctx, maker, taker, p, s, mb, tb, emulator)
		if why != "" {
			lanes.release(s.Code)
			reasons = append(reasons, s.Code+": "+why)
			continue
		}
		out = append(out, m)
	}
	return out, reasons, busy
}

// affordableMarket is the market on s at the first mid both maker and taker
// can afford, or why there is none.
func affordableMarket(ctx context.Context, maker, taker *Trader, p FillPlan, s Symbol, mb, tb map[string]Balance, emulator bool) (Market, string) {
	GinkgoHelper()
	var mids []decimal.Decimal
	if emulator {
		mids = []decimal.Decimal{s.Tick.Mul(decimal.New(1, 6))}
	} else {
		var why string
		if mids, why = freeMids(ctx, s, p.Ticks); len(mids) == 0 {
			return Market{}, why
		}
	}
	var unaffordable []string
	for _, mid := range mids {
		m := Market{Sym: s, Mid: mid, Room: p.Ticks, Q: s.Qty(100), Cloids: p.Cloids, ours: []*Trader{maker, taker}}
		quote, base := p.Need(m)
		if mb[s.Quote].Avail.LessThan(quote) || tb[s.Quote].Avail.LessThan(quote) ||
			(base.IsPositive() && (mb[s.Base].Avail.LessThan(base) || tb[s.Base].Avail.LessThan(base))) {
			unaffordable = append(unaffordable, fmt.Sprintf("%s %s and %s %s at %s", quote, s.Quote, base, s.Base, mid))
			continue
		}
		return m, ""
	}
	return Market{}, fmt.Sprintf("%s and %s cannot both afford %s", maker.Role, taker.Role, strings.Join(unaffordable, ", nor "))
}

// Book is what the v2 ticker shows of a symbol (the documented v3 API shows
// no ticker or order book): best bid, best ask and last price, each zero
// when absent.
type Book struct{ Bid, Ask, Last decimal.Decimal }

// ReadBook reads the v2 ticker of s, or says why it cannot.
func ReadBook(ctx context.Context, s Symbol) (Book, string) {
	GinkgoHelper()
	ex, _ := framework.Current().Public().Do(ctx, client.Request{Path: "/api/2/public/ticker", Absolute: true, Query: url.Values{"symbols": {s.Code}}})
	if ex == nil || ex.Status != http.StatusOK {
		return Book{}, "the v2 ticker is not available, so the book cannot be shown to leave room for the suite's trades"
	}
	var tickers []map[string]any
	switch x := Decoded(ex).(type) {
	case []any:
		for _, t := range x {
			if m, ok := t.(map[string]any); ok {
				tickers = append(tickers, m)
			}
		}
	case map[string]any:
		tickers = append(tickers, x)
	}
	price := func(v any) decimal.Decimal {
		d, err := decimal.NewFromString(fmt.Sprint(v))
		if err != nil || !d.IsPositive() {
			return decimal.Zero
		}
		return d
	}
	for _, t := range tickers {
		if sym, ok := t["symbol"].(string); ok && sym != s.Code {
			continue
		}
		return Book{Bid: price(t["bid"]), Ask: price(t["ask"]), Last: price(t["last"])}, ""
	}
	return Book{}, "the v2 ticker does not list the symbol"
}

// freeMids are the prices, best first, around which a spec may trade ticks
// ticks either way without meeting an order the ticker shows, or why there
// is none. With a bid and an ask there is one: the middle of the spread,
// which must leave 2*ticks+2 free ticks. With one side or none, the
// candidates are the last price, then a million down to a thousand ticks,
// then the price just clear of the one side: those on the free side.
func freeMids(ctx context.Context, s Symbol, ticks int64) ([]decimal.Decimal, string) {
	GinkgoHelper()
	b, why := ReadBook(ctx, s)
	if why != "" {
		return nil, why
	}
	room := s.Tick.Mul(decimal.NewFromInt(ticks))
	if b.Bid.IsPositive() && b.Ask.IsPositive() {
		free := b.Ask.Sub(b.Bid).Div(s.Tick).Floor().IntPart() - 1
		if free < 2*ticks+2 {
			return nil, fmt.Sprintf("the spread %s..%s leaves %d ticks, the spec needs %d", b.Bid, b.Ask, free, 2*ticks+2)
		}
		return []decimal.Decimal{b.Bid.Add(b.Ask).Div(decimal.NewFromInt(2)).Div(s.Tick).Floor().Mul(s.Tick)}, ""
	}
	// Clear of the book: every price the spec uses, mid-room..mid+room, is
	// above the bid, below the ask and positive.
	clear := func(mid decimal.Decimal) bool {
		lo, hi := mid.Sub(room), mid.Add(room)
		return lo.GreaterThan(b.Bid) && lo.IsPositive() && (b.Ask.IsZero() || hi.LessThan(b.Ask))
	}
	var out []decimal.Decimal
	add := func(mid decimal.Decimal) {
		mid = mid.Div(s.Tick).Floor().Mul(s.Tick)
		if clear(mid) && !slices.ContainsFunc(out, mid.Equal) {
			out = append(out, mid)
		}
	}
	add(b.Last)
	for exp := int32(6); exp >= 3; exp-- {
		add(s.Tick.Mul(decimal.New(1, exp)))
	}
	if b.Bid.IsPositive() {
		add(b.Bid.Add(room).Add(s.Tick))
	}
	if b.Ask.IsPositive() {
		add(b.Ask.Sub(room).Sub(s.Tick))
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("the book (bid %s, ask %s) leaves no price with %d free ticks either way", b.Bid, b.Ask, ticks)
	}
	return out, ""
}
