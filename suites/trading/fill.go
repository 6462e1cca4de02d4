package trading

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
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
// other, skipping the spec when fewer qualify. On the emulator (an empty
// book but for the suite's own orders, since fill specs are Serial) mid is a
// million ticks, far from every order the suites park at a few ticks;
// elsewhere the trades go strictly inside the spread the v2 ticker shows.
func FillMarkets(ctx context.Context, maker, taker *Trader, p FillPlan) []Market {
	GinkgoHelper()
	e := framework.Current()
	e.RequireTrading()
	mb, tb := maker.Balances(ctx), taker.Balances(ctx)
	var out []Market
	var reasons []string
	for _, s := range p.Symbols {
		if len(out) == p.N {
			break
		}
		if p.Unfit != nil {
			if why := p.Unfit(s); why != "" {
				reasons = append(reasons, s.Code+": "+why)
				continue
			}
		}
		m := Market{Sym: s, Room: p.Ticks, Q: s.Qty(100), Cloids: p.Cloids}
		if e.Config.Emulator {
			m.Mid = s.Tick.Mul(decimal.New(1, 6))
		} else {
			mid, ok, why := insideSpread(ctx, s, 2*p.Ticks+2)
			if !ok {
				reasons = append(reasons, s.Code+": "+why)
				continue
			}
			m.Mid = mid
		}
		quote, base := p.Need(m)
		if mb[s.Quote].Avail.LessThan(quote) || tb[s.Quote].Avail.LessThan(quote) ||
			(base.IsPositive() && (mb[s.Base].Avail.LessThan(base) || tb[s.Base].Avail.LessThan(base))) {
			reasons = append(reasons, fmt.Sprintf("%s: %s and %s cannot both afford %s %s and %s %s", s.Code, maker.Role, taker.Role, quote, s.Quote, base, s.Base))
			continue
		}
		out = append(out, m)
	}
	if len(out) < p.N {
		Skip(fmt.Sprintf("needs %d symbol(s) to trade on between the suite's two accounts, found %d of %d candidates:\n  %s", p.N, len(out), len(p.Symbols), strings.Join(reasons, "\n  ")))
	}
	return out
}

// insideSpread reads the v2 ticker (the documented v3 API shows no ticker or
// order book) and returns a price with ticks free ticks strictly inside the
// spread, or why there is none.
func insideSpread(ctx context.Context, s Symbol, ticks int64) (decimal.Decimal, bool, string) {
	GinkgoHelper()
	ex, _ := framework.Current().Public().Do(ctx, client.Request{Path: "/api/2/public/ticker", Absolute: true, Query: url.Values{"symbols": {s.Code}}})
	if ex == nil || ex.Status != http.StatusOK {
		return decimal.Zero, false, "the v2 ticker is not available, so the book cannot be shown to leave room for the suite's trades"
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
		return bid.Add(ask).Div(decimal.NewFromInt(2)).Div(s.Tick).Floor().Mul(s.Tick), true, ""
	}
	return decimal.Zero, false, "the v2 ticker does not list the symbol"
}
