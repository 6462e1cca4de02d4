package spot

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// market is where a fill spec trades: a symbol and a price strictly inside
// its spread, with room ticks free on either side.
type market struct {
	sym  spotSymbol
	mid  decimal.Decimal
	room int64
	q    decimal.Decimal // the quantity of one trade
}

// at is the price k ticks from mid.
func (m market) at(k int64) decimal.Decimal { return m.mid.Add(m.sym.Tick.Mul(decimal.NewFromInt(k))) }

// limit is a limit order of n trade quantities at k ticks from mid.
func (m market) limit(side string, n, k int64) params {
	return params{"client_order_id": newCloid(), "symbol": m.sym.Code, "side": side, "type": "limit",
		"quantity": m.q.Mul(decimal.NewFromInt(n)).String(), "price": m.at(k).String()}
}

// volume is what a fee is a fraction of, in the fee currency: the quote
// amount when fees are charged in quote, the quantity when in base.
func (m market) volume(qty, price decimal.Decimal) decimal.Decimal {
	if m.sym.FeeCurrency == m.sym.Base {
		return qty
	}
	return qty.Mul(price)
}

// fillMarket chooses where maker and taker may trade with each other. On the
// emulator (an empty book but for the suite's own orders) it picks a price
// far from the suite's resting orders; elsewhere it needs the v2 ticker to
// show a spread with room for 2*ticks+2 ticks, and trades strictly inside
// it. want, when not nil, narrows the symbols.
func fillMarket(ctx context.Context, maker, taker *trader, ticks int64, want func(spotSymbol) bool) market {
	GinkgoHelper()
	e := framework.Current()
	e.RequireTrading()
	mb, tb := maker.balances(ctx), taker.balances(ctx)
	var reasons []string
	for _, s := range workingSymbols(ctx) {
		if want != nil && !want(s) {
			continue
		}
		if s.FeeCurrency != s.Quote && s.FeeCurrency != s.Base {
			reasons = append(reasons, s.Code+": fee currency is neither base nor quote")
			continue
		}
		m := market{sym: s, room: ticks, q: s.qty(100)}
		if e.Config.Emulator {
			m.mid = s.Tick.Mul(decimal.New(1, 6))
		} else {
			mid, ok, why := insideSpread(ctx, s, 2*ticks+2)
			if !ok {
				reasons = append(reasons, s.Code+": "+why)
				continue
			}
			m.mid = mid
		}
		// Both sides can afford ten trades of either side.
		notional := m.at(ticks).Mul(m.q).Mul(decimal.NewFromInt(10)).Mul(decimal.NewFromInt(2))
		base := m.q.Mul(decimal.NewFromInt(10))
		if mb[s.Quote].avail.LessThan(notional) || tb[s.Quote].avail.LessThan(notional) ||
			mb[s.Base].avail.LessThan(base) || tb[s.Base].avail.LessThan(base) {
			reasons = append(reasons, fmt.Sprintf("%s: %s and %s cannot both afford %s %s and %s %s", s.Code, maker.role, taker.role, notional, s.Quote, base, s.Base))
			continue
		}
		return m
	}
	Skip("no symbol to trade on between the suite's two accounts:\n  " + strings.Join(reasons, "\n  "))
	return market{}
}

// insideSpread reads the v2 ticker (the documented v3 API shows no ticker or
// order book) and returns a price with ticks free ticks strictly inside the
// spread, or why there is none.
func insideSpread(ctx context.Context, s spotSymbol, ticks int64) (decimal.Decimal, bool, string) {
	GinkgoHelper()
	c := framework.Current().Public()
	ex, _ := c.Do(ctx, client.Request{Path: "/api/2/public/ticker", Absolute: true, Query: url.Values{"symbols": {s.Code}}})
	if ex == nil || ex.Status != http.StatusOK {
		return decimal.Zero, false, "the v2 ticker is not available, so the book cannot be shown to leave room for the suite's trades"
	}
	var tickers []map[string]any
	if v := decoded(ex); v != nil {
		switch x := v.(type) {
		case []any:
			for _, t := range x {
				if m, ok := t.(map[string]any); ok {
					tickers = append(tickers, m)
				}
			}
		case map[string]any:
			tickers = append(tickers, x)
		}
	}
	for _, t := range tickers {
		if sym, ok := t["symbol"].(string); ok && sym != s.Code {
			continue
		}
		bid, err1 := decimal.NewFromString(fmt.Sprint(t["bid"]))
		ask, err2 := decimal.NewFromString(fmt.Sprint(t["ask"]))
		if err1 != nil || err2 != nil {
			return decimal.Zero, false, "the v2 ticker shows no bid and ask, so the book is unknown"
		}
		free := ask.Sub(bid).Div(s.Tick).Floor().IntPart() - 1
		if free < ticks {
			return decimal.Zero, false, fmt.Sprintf("the spread %s..%s leaves %d ticks, the spec needs %d", bid, ask, free, ticks)
		}
		mid := bid.Add(ask).Div(decimal.NewFromInt(2)).Div(s.Tick).Floor().Mul(s.Tick)
		return mid, true, ""
	}
	return decimal.Zero, false, "the v2 ticker does not list the symbol"
}

// trade makes maker and taker trade n quantities at k ticks from mid: the
// maker rests, the taker takes. extra, when given, holds further parameters
// of the maker's order and then of the taker's (fee markups). It returns the
// maker's and the taker's create answers.
func (m market) trade(ctx context.Context, maker, taker *trader, makerSide string, n, k int64, extra ...params) (order, order) {
	GinkgoHelper()
	takerSide := "buy"
	if makerSide == "buy" {
		takerSide = "sell"
	}
	mp, tp := m.limit(makerSide, n, k), m.limit(takerSide, n, k)
	if len(extra) > 0 {
		mp = mp.with(flatten(extra[0])...)
	}
	if len(extra) > 1 {
		tp = tp.with(flatten(extra[1])...)
	}
	mo := maker.placeOK(ctx, mp)
	Expect(mo["status"]).To(Equal("new"), "the maker's order rests: nothing else is at %s on %s\norder: %v", m.at(k), m.sym, mo)
	to := taker.placeOK(ctx, tp)
	Expect(to["quantity_cumulative"]).To(decEqual(m.q.Mul(decimal.NewFromInt(n))),
		"the taker meets the maker's order at %s\norder: %v", m.at(k), to)
	return mo, to
}

func flatten(p params) []string {
	var kv []string
	for k, v := range p {
		kv = append(kv, k, v)
	}
	return kv
}

// feeCharged is what t paid in fees over one trade of qty at price on side,
// read from its balances (available plus reserved) before and after: the
// change of the fee currency less the trade's own flow in it. A rebate is
// negative.
func (m market) feeCharged(side string, qty, price decimal.Decimal, before, after map[string]bal) decimal.Decimal {
	flow := map[string]decimal.Decimal{m.sym.Base: qty, m.sym.Quote: qty.Mul(price).Neg()}
	if side == "sell" {
		flow = map[string]decimal.Decimal{m.sym.Base: qty.Neg(), m.sym.Quote: qty.Mul(price)}
	}
	cur := m.sym.FeeCurrency
	return flow[cur].Sub(after[cur].total().Sub(before[cur].total()))
}

// currencies are the balances a trade on the market moves.
func (m market) currencies() []string { return []string{m.sym.Base, m.sym.Quote, m.sym.FeeCurrency} }
