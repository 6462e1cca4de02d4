package spot

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Fee specs trade between the suite's two accounts: Serial, so that no other
// process's orders are in the book.
var _ = framework.AreaDescribe("Rules for orders: fees", func() {
	var full, cp *trading.Trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		full = newTrader(target.RoleFull)
		cp = newTrader(target.RoleCounterparty)
	})

	// expectFees trades once and checks both accounts' balances: each moves
	// by the trade's flows and pays volume x its rate in fee_currency.
	expectFees := func(ctx SpecContext, m market, maker, taker *trading.Trader, makerSide string) {
		GinkgoHelper()
		takerSide := map[string]string{"buy": "sell", "sell": "buy"}[makerSide]
		mb, tb := maker.Snapshot(ctx, m.currencies()...), taker.Snapshot(ctx, m.currencies()...)
		_, to := m.Trade(ctx, maker, taker, makerSide, 1, 0)
		ma, ta := maker.Snapshot(ctx, m.currencies()...), taker.Snapshot(ctx, m.currencies()...)
		vol := m.volume(m.Q, m.Mid)
		wantMaker, wantTaker := vol.Mul(m.Sym.MakeRate), vol.Mul(m.Sym.TakeRate)
		Expect(m.feeCharged(makerSide, m.Q, m.Mid, mb, ma)).To(trading.DecEqual(wantMaker),
			"the maker (%s, %s) pays volume %s x make_rate %s in %s (before %v, after %v)", maker.Role, makerSide, vol, m.Sym.MakeRate, m.Sym.FeeCurrency, mb, ma)
		Expect(m.feeCharged(takerSide, m.Q, m.Mid, tb, ta)).To(trading.DecEqual(wantTaker),
			"the taker (%s, %s) pays volume %s x take_rate %s in %s (before %v, after %v)", taker.Role, takerSide, vol, m.Sym.TakeRate, m.Sym.FeeCurrency, tb, ta)
		// The other currencies move by the trade alone.
		for _, cur := range []string{m.Sym.Base, m.Sym.Quote} {
			if cur == m.Sym.FeeCurrency {
				continue
			}
			Expect(ma[cur].Total().Sub(mb[cur].Total()).Abs()).To(trading.DecEqual(map[string]decimal.Decimal{m.Sym.Base: m.Q, m.Sym.Quote: m.Q.Mul(m.Mid)}[cur]),
				"the maker's %s moves by the trade alone: no fee outside fee_currency", cur)
		}
		if trades, ok := to["trades"].([]any); ok && len(trades) == 1 {
			if tr, ok := trades[0].(map[string]any); ok {
				Expect(tr["fee"]).To(trading.DecEqual(wantTaker), "the fee of the taker's trade\norder: %v", to)
			}
		}
	}

	framework.ConformanceContext("V3-SPOT-FEE-CURRENCY", func() {
		It("charges a buying maker make_rate and a selling taker take_rate", func(ctx SpecContext) {
			expectFees(ctx, fillMarket(ctx, full, cp, 2, nil), full, cp, "buy")
		})
		It("charges a selling maker make_rate and a buying taker take_rate", func(ctx SpecContext) {
			expectFees(ctx, fillMarket(ctx, full, cp, 2, nil), full, cp, "sell")
		})
	})

	framework.ConformanceIt("V3-SPOT-FEE-REBATE", func(ctx SpecContext) {
		var rebating []string
		for _, s := range trading.WorkingSymbols(ctx) {
			if s.MakeRate.IsNegative() {
				rebating = append(rebating, s.Code)
			}
		}
		if len(rebating) == 0 {
			Skip("the target lists no working spot symbol with a negative make_rate")
		}
		m := fillMarket(ctx, full, cp, 2, func(s trading.Symbol) bool { return s.MakeRate.IsNegative() })
		before := full.Snapshot(ctx, m.currencies()...)
		m.Trade(ctx, full, cp, "buy", 1, 0)
		after := full.Snapshot(ctx, m.currencies()...)
		paid := m.feeCharged("buy", m.Q, m.Mid, before, after)
		want := m.volume(m.Q, m.Mid).Mul(m.Sym.MakeRate)
		Expect(paid).To(trading.DecEqual(want), "the maker of %s (make_rate %s) is paid %s %s: its fee is the negative %s (before %v, after %v)",
			m.Sym, m.Sym.MakeRate, want.Neg(), m.Sym.FeeCurrency, want, before, after)
	})

	// markups are the take_rate or make_rate values a spec sends, relative
	// to the symbol's rate r: below it, zero, and above it.
	markups := func(r decimal.Decimal) map[string]decimal.Decimal {
		out := map[string]decimal.Decimal{"zero": decimal.Zero, "above the symbol's rate": r.Abs().Mul(decimal.NewFromInt(2)).Add(decimal.New(1, -3))}
		if r.IsPositive() {
			out["half the symbol's rate"] = r.Div(decimal.NewFromInt(2))
		}
		return out
	}

	framework.ConformanceContext("V3-SPOT-FEE-MARKUP", func() {
		It("never lowers the taker's fee below take_rate", func(ctx SpecContext) {
			m := fillMarket(ctx, full, cp, 2, nil)
			base := m.volume(m.Q, m.Mid).Mul(m.Sym.TakeRate)
			for name, mk := range markups(m.Sym.TakeRate) {
				before := full.Snapshot(ctx, m.currencies()...)
				m.Trade(ctx, cp, full, "sell", 1, 0, params{}, params{"take_rate": mk.String()})
				paid := m.feeCharged("buy", m.Q, m.Mid, before, full.Snapshot(ctx, m.currencies()...))
				Expect(paid.GreaterThanOrEqual(base)).To(BeTrue(), "a taker order with take_rate %s (%s) paid %s, less than %s at the symbol's take_rate %s",
					mk, name, paid, base, m.Sym.TakeRate)
			}
		})
		It("never lowers the maker's fee below make_rate", func(ctx SpecContext) {
			m := fillMarket(ctx, full, cp, 2, nil)
			base := m.volume(m.Q, m.Mid).Mul(m.Sym.MakeRate)
			for name, mk := range markups(m.Sym.MakeRate) {
				before := full.Snapshot(ctx, m.currencies()...)
				m.Trade(ctx, full, cp, "buy", 1, 0, params{"make_rate": mk.String()})
				paid := m.feeCharged("buy", m.Q, m.Mid, before, full.Snapshot(ctx, m.currencies()...))
				Expect(paid.GreaterThanOrEqual(base)).To(BeTrue(), "a maker order with make_rate %s (%s) paid %s, less than %s at the symbol's make_rate %s",
					mk, name, paid, base, m.Sym.MakeRate)
			}
		})
	})

	framework.ConformanceIt("V3-SPOT-FEE-MARKUP-FORMULA", func(ctx SpecContext) {
		m := fillMarket(ctx, full, cp, 2, nil)
		r := m.Sym.TakeRate
		vol := m.volume(m.Q, m.Mid)
		for name, mk := range markups(r) {
			before := full.Snapshot(ctx, m.currencies()...)
			m.Trade(ctx, cp, full, "sell", 1, 0, params{}, params{"take_rate": mk.String()})
			rate := m.feeCharged("buy", m.Q, m.Mid, before, full.Snapshot(ctx, m.currencies()...)).Div(vol)
			framework.Observe("V3-SPOT-FEE-MARKUP-FORMULA", "take_rate %s (%s) on %s with take_rate %s: charged rate %s, which is %s",
				mk, name, m.Sym, r, rate, readingOf(rate, r, mk))
		}
	})
})

// readingOf names the reading of "fee markup" a charged rate matches.
func readingOf(charged, symbolRate, markup decimal.Decimal) string {
	var fits []string
	if charged.Equal(symbolRate.Add(markup)) {
		fits = append(fits, "the symbol's rate plus the markup")
	}
	if charged.Equal(decimal.Max(symbolRate, markup)) {
		fits = append(fits, "the larger of the symbol's rate and the markup")
	}
	if charged.Equal(markup) {
		fits = append(fits, "the markup alone")
	}
	if len(fits) == 0 {
		return "none of: rate plus markup, larger of the two, markup alone"
	}
	return fmt.Sprint(fits)
}
