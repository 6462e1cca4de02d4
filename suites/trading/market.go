package trading

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Market is where a spec that needs fills trades: a symbol and a price, mid,
// with Room ticks free on either side (strictly inside the spread on a real
// target).
type Market struct {
	Sym    Symbol
	Mid    decimal.Decimal
	Room   int64
	Q      decimal.Decimal // the quantity of one trade
	Cloids Cloids          // of the orders Limit builds
	// ours are the accounts FillMarkets chose the market for: an order of
	// theirs on the book is never a third party's.
	ours []*Trader
}

// At is the price k ticks from mid.
func (m Market) At(k int64) decimal.Decimal { return m.Mid.Add(m.Sym.Tick.Mul(decimal.NewFromInt(k))) }

// Qn is n trade quantities.
func (m Market) Qn(n int64) decimal.Decimal { return m.Q.Mul(decimal.NewFromInt(n)) }

// Limit is a limit order of n trade quantities at k ticks from mid.
func (m Market) Limit(side string, n, k int64) Params {
	return Params{"client_order_id": m.Cloids.New(), "symbol": m.Sym.Code, "side": side, "type": "limit",
		"quantity": m.Qn(n).String(), "price": m.At(k).String()}
}

// Trade makes maker and taker trade n quantities at k ticks from mid, each
// on its own venue: the maker rests, the taker takes. extra, when given,
// holds further parameters of the maker's order and then of the taker's
// (fee markups). It returns the maker's and the taker's create answers.
func (m Market) Trade(ctx context.Context, maker, taker *Trader, makerSide string, n, k int64, extra ...Params) (Order, Order) {
	GinkgoHelper()
	takerSide := map[string]string{"buy": "sell", "sell": "buy"}[makerSide]
	mp, tp := m.Limit(makerSide, n, k), m.Limit(takerSide, n, k)
	if len(extra) > 0 {
		mp = mp.merged(extra[0])
	}
	if len(extra) > 1 {
		tp = tp.merged(extra[1])
	}
	mo := m.Rest(ctx, maker, mp)
	to := m.Take(ctx, taker, tp)
	m.fromEachOther(ctx, maker, mp, taker, to)
	Expect(to["quantity_cumulative"]).To(DecEqual(m.Qn(n)), "%s's %s %s meets the resting order at %s\norder: %v", taker.Role, taker.Venue, takerSide, m.At(k), to)
	if !framework.Current().Config.Emulator {
		noteTrade(m.Sym.Code, tradeTime(to))
	}
	return mo, to
}

// Rest places an order of t that must rest on the market: nothing else is
// at its price. On a target other than the emulator the v2 ticker is read
// first: a best bid or ask at a price the order would meet, with no order of
// the suite's accounts there, is a third party's, and the spec's attempt
// ends before anything is placed (framework.Interfered).
func (m Market) Rest(ctx context.Context, t *Trader, p Params) Order {
	GinkgoHelper()
	m.clearOfOthers(ctx, p)
	o := t.PlaceOK(ctx, p)
	Expect(o["status"]).To(Equal("new"), "%s's %s %s rests: nothing else is at %s on %s\norder: %v", t.Role, t.Venue, p["side"], p["price"], m.Sym, o)
	return o
}

// Take places an order of t that is to meet resting orders of the suite's
// own accounts. On a target other than the emulator the v2 ticker is read
// first: when the best order it would meet is a third party's, the spec's
// attempt ends before anything is placed (framework.Interfered).
func (m Market) Take(ctx context.Context, t *Trader, p Params) Order {
	GinkgoHelper()
	m.clearOfOthers(ctx, p)
	return t.PlaceOK(ctx, p)
}

// Send is Take for an order that may be refused: it returns the exchange.
func (m Market) Send(ctx context.Context, t *Trader, p Params) *client.Exchange {
	GinkgoHelper()
	m.clearOfOthers(ctx, p)
	return t.Place(ctx, p)
}

// clearOfOthers ends the spec's attempt when, on a target other than the
// emulator, the order p would meet a third party's order first.
func (m Market) clearOfOthers(ctx context.Context, p Params) {
	GinkgoHelper()
	if framework.Current().Config.Emulator {
		return
	}
	price, err := decimal.NewFromString(p["price"])
	if err != nil { // a market order meets whatever is best
		price = decimal.Zero
		if p["side"] == "buy" {
			price = m.Sym.High()
		}
	}
	if why := m.thirdPartyMeets(ctx, p["side"], price); why != "" {
		framework.Interfered(why)
	}
}

// thirdPartyMeets says which order of another party a side order at price
// would meet, as the v2 ticker shows the book ("" for none).
func (m Market) thirdPartyMeets(ctx context.Context, side string, price decimal.Decimal) string {
	GinkgoHelper()
	b, why := ReadBook(ctx, m.Sym)
	if why != "" {
		return ""
	}
	other, best := "sell", b.Ask
	meets := best.IsPositive() && best.LessThanOrEqual(price)
	if side == "sell" {
		other, best = "buy", b.Bid
		meets = best.IsPositive() && best.GreaterThanOrEqual(price)
	}
	if !meets {
		return ""
	}
	for _, t := range m.ours {
		for _, v := range []Venue{Spot, t.Venue} {
			for _, o := range t.On(v).Active(ctx, m.Sym.Code) {
				if p, err := decimal.NewFromString(fmt.Sprint(o["price"])); err == nil && o["side"] == other && p.Equal(best) {
					return "" // the suite's own order is the best one
				}
			}
		}
	}
	return fmt.Sprintf("the v2 ticker shows a best %s at %s on %s, which a %s at %s would meet, and no order of the suite's accounts is there", other, best, m.Sym, side, price)
}

// fromEachOther ends the spec's attempt (framework.Interfered) when, on a
// target other than the emulator, the taker's order executed other than
// the maker's resting order mp did: then the taker's fill came from a third
// party, or a third party took the maker's order first. The maker's side of
// a trade may show a moment after the taker's answer.
func (m Market) fromEachOther(ctx context.Context, maker *Trader, mp Params, taker *Trader, to Order) {
	GinkgoHelper()
	if framework.Current().Config.Emulator {
		return
	}
	took := executed(to)
	var made decimal.Decimal
	quiet := NewGomega(func(string, ...int) {}) // a mismatch here is a finding, not a failure
	if quiet.Eventually(ctx, func(ctx context.Context) bool {
		made = executed(maker.OrderOf(ctx, mp["client_order_id"]))
		return made.Equal(took)
	}).WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).Should(BeTrue()) {
		return
	}
	framework.Interfered(fmt.Sprintf("on %s at %s, %s's %s %s executed %s while %s's resting %s executed %s", m.Sym, mp["price"],
		taker.Role, taker.Venue, to["side"], took, maker.Role, mp["side"], made))
}

// executed is an order's quantity_cumulative (zero when absent).
func executed(o Order) decimal.Decimal {
	d, err := decimal.NewFromString(fmt.Sprint(o["quantity_cumulative"]))
	if err != nil {
		return decimal.Zero
	}
	return d
}
