package trading

import (
	"context"

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
	mo := maker.PlaceOK(ctx, mp)
	Expect(mo["status"]).To(Equal("new"), "%s's %s %s rests: nothing else is at %s on %s\norder: %v", maker.Role, maker.Venue, makerSide, m.At(k), m.Sym, mo)
	to := taker.PlaceOK(ctx, tp)
	Expect(to["quantity_cumulative"]).To(DecEqual(m.Qn(n)), "%s's %s %s meets the resting order at %s\norder: %v", taker.Role, taker.Venue, takerSide, m.At(k), to)
	return mo, to
}
