package streamtrading

import (
	"context"
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// A margin order needs a margin account; the helpers below follow the
// margin suite's (suites/margin/account.go), which this package cannot
// import: an isolated account on a working margin symbol, funded with a
// twentieth of the quote balance, closed with margin_balance "0" at the end.

// marginSymbol returns a working margin symbol whose quote currency t
// holds, skipping the spec when there is none.
func marginSymbol(ctx context.Context, t *trading.Trader) trading.Symbol {
	GinkgoHelper()
	var margin []trading.Symbol
	for _, s := range trading.WorkingSymbols(ctx) {
		if s.Margin {
			margin = append(margin, s)
		}
	}
	held := trading.Holding(margin, t.ChoiceBalances(ctx), func(trading.Symbol) (base, quote decimal.Decimal) {
		return decimal.Zero, decimal.Zero
	})
	if len(held) == 0 {
		Skip(fmt.Sprintf("needs a working margin symbol whose quote currency the %s account holds; found %d margin symbols, none funded", t.Role, len(margin)))
	}
	return held[0]
}

// isolatedPath is /margin/account/isolated/{symbol}.
func isolatedPath(s trading.Symbol) string { return "/margin/account/isolated/" + s.Code }

// openIsolated opens an isolated margin account on s funded in its quote
// currency, and registers its closing first, so that it runs after the
// cancels of the orders placed on it (cleanups run last in, first out).
func openIsolated(ctx context.Context, t *trading.Trader, s trading.Symbol) {
	GinkgoHelper()
	DeferCleanup(func(ctx SpecContext) {
		ex := t.Do(ctx, http.MethodPut, isolatedPath(s), trading.Params{"margin_balance": "0"})
		if ex.Status == http.StatusOK {
			return
		}
		// Never opened (the PUT below failed) is fine; left open is not.
		ls := t.Do(ctx, http.MethodGet, "/margin/account", nil)
		Expect(ls).To(framework.BeOK(), "cleanup: listing the margin accounts of %s", t.Role)
		for _, a := range trading.Objects(ls) {
			Expect(a["type"] == "isolated" && a["symbol"] == s.Code).To(BeFalse(),
				"cleanup: the isolated margin account %s could not be closed with margin_balance 0 (%s) and is still listed", s, trading.Outcome(ex))
		}
	})
	p := trading.Params{"margin_balance": t.MarginCollateral(ctx, s.Quote).String()}
	ex := t.Do(ctx, http.MethodPut, isolatedPath(s), p)
	Expect(ex).To(framework.BeOK(), "opening the isolated margin account with PUT %s %s", isolatedPath(s), p)
}

var _ = framework.AreaDescribe("Trading stream: a notification for every margin order update", func() {
	// Placed and canceled over REST: the stream notifies of every update,
	// not only of those it made.
	framework.ConformanceIt("V3-WST-NOTIFY-MARGIN", func(ctx SpecContext) {
		s := newSession(ctx)
		ans := s.Request(ctx, "margin_subscribe", map[string]any{})
		Expect(ans.Error).To(BeNil(), "margin_subscribe: %s", ans.Describe())
		m := s.On(trading.Margin)
		sym := marginSymbol(ctx, m)
		openIsolated(ctx, m, sym)
		c := cloids.New()
		m.PlaceOK(ctx, sym.RestingBuy(c, 2))
		s.EventuallyNaming(c, 1, "the margin order was placed (over REST) on the isolated account "+sym.Code)
		n := s.Naming(c)
		m.CancelOK(ctx, c)
		s.EventuallyNaming(c, n+1, "the margin order was canceled (over REST) after the placement's notifications")
	})
})
