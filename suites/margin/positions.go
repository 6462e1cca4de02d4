package margin

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Positions are opened by trading with the counterparty on margin, on a
// symbol of the spec's own (trading.FillMarkets).
var _ = framework.AreaDescribe("Margin positions", func() {
	var t, cp *trader
	BeforeEach(func() {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		cp = newTrader(target.RoleCounterparty)
	})

	framework.ConformanceIt("V3-MARGIN-POSITION-FIELDS", func(ctx SpecContext) {
		m := marginMarkets(ctx, t, cp, 1)[0]
		m.open(ctx, t, cp, 1)
		t.eventuallyPosition(ctx, m.Sym, m.Q, "a long position after buying")
		cp.eventuallyPosition(ctx, m.Sym, m.Q.Neg(), "a short position after selling")

		for _, tr := range []*trader{t, cp} {
			p := tr.position(ctx, m.Sym)
			Expect(positionProblems(p)).To(BeEmpty(), "%s's position on %s has the fields of the Position table\nposition: %v", tr.Role, m.Sym, p)
			Expect(p).To(HaveKeyWithValue("margin_mode", isolated), "%s's position on an isolated account", tr.Role)
			Expect(p["price_entry"]).To(trading.DecEqual(m.Mid), "%s's position entered at the one trade's price", tr.Role)
			listedAcct := listed(tr.accounts(ctx), isolated, m.Sym.Code)
			Expect(listedAcct).NotTo(BeNil(), "GET /margin/account of %s lists the account on %s", tr.Role, m.Sym)
			Expect(trading.FindBy(positions(listedAcct), "symbol", m.Sym.Code)).NotTo(BeNil(), "GET /margin/account of %s shows the position on %s\naccount: %v", tr.Role, m.Sym, listedAcct)
		}
	})

	// closeAnswer checks the answer of a position DELETE: the closed
	// positions, among them the one on s.
	closeAnswer := func(body any, s trading.Symbol) {
		GinkgoHelper()
		var ps []order
		switch x := body.(type) {
		case []any:
			for _, v := range x {
				if o, ok := v.(map[string]any); ok {
					ps = append(ps, o)
				}
			}
		case map[string]any:
			ps = []order{x}
		}
		Expect(trading.FindBy(ps, "symbol", s.Code)).NotTo(BeNil(), "the answer names the closed position on %s\nanswer: %v", s, body)
	}

	framework.ConformanceIt("V3-MARGIN-POSITION-CLOSE-STRICT", func(ctx SpecContext) {
		m := marginMarkets(ctx, t, cp, 1)[0]
		m.open(ctx, t, cp, 1)
		t.eventuallyPosition(ctx, m.Sym, m.Q, "a long position after buying")
		off := m.At(1).Add(m.Sym.Tick.Div(decimal.NewFromInt(2)))
		ex := t.Do(ctx, http.MethodDelete, "/margin/position/isolated/"+m.Sym.Code, params{"price": off.String(), "strict_validate": "true"})
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "a close at %s, not divisible by tick_size %s, with strict_validate true", off, m.Sym.Tick)
		Expect(t.positionQty(ctx, m.Sym)).To(trading.DecEqual(m.Q), "the refused close leaves the position open")
		// Close it at market, into the counterparty's bid, for the specs after.
		m.Rest(ctx, cp.Trader, m.Limit("buy", 1, -1))
		Expect(t.Do(ctx, http.MethodDelete, "/margin/position/isolated/"+m.Sym.Code, nil)).To(framework.BeOK(), "closing the position at market")
		t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after closing the position at market")
	})

	framework.ConformanceContext("V3-MARGIN-POSITION-CLOSE", func() {
		It("closes a position at market without price", func(ctx SpecContext) {
			m := marginMarkets(ctx, t, cp, 1)[0]
			m.open(ctx, t, cp, 1)
			t.eventuallyPosition(ctx, m.Sym, m.Q, "a long position after buying")
			// The counterparty's buy is what the market close sells into.
			m.Rest(ctx, cp.Trader, m.Limit("buy", 1, -1))
			ex := t.Do(ctx, http.MethodDelete, "/margin/position/isolated/"+m.Sym.Code, nil)
			Expect(ex).To(framework.BeOK(), "DELETE /margin/position/isolated/%s", m.Sym)
			closeAnswer(framework.JSONOf(ex), m.Sym)
			t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after closing the position at market")
			cp.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the counterparty's buy met the market close")
		})

		// A limit close at 1 tick above mid must rest while the best bid is
		// 1 tick below: a market close would have sold into that bid.
		It("closes a position with a limit order at price", func(ctx SpecContext) {
			m := marginMarkets(ctx, t, cp, 1)[0]
			m.open(ctx, t, cp, 1)
			t.eventuallyPosition(ctx, m.Sym, m.Q, "a long position after buying")
			bid := m.Limit("buy", 1, -1)
			m.Rest(ctx, cp.Trader, bid)
			// The trades of earlier specs stay in the history: only new ones count.
			seen := map[any]bool{}
			for _, tr := range t.trades(ctx, params{"symbol": m.Sym.Code}) {
				seen[tr["id"]] = true
			}
			ex := t.Do(ctx, http.MethodDelete, "/margin/position/isolated/"+m.Sym.Code, params{"price": m.At(1).String()})
			Expect(ex).To(framework.BeOK(), "DELETE /margin/position/isolated/%s with price %s", m.Sym, m.At(1))
			Expect(cp.OrderOf(ctx, bid["client_order_id"])["quantity_cumulative"]).To(trading.DecEqual(decimal.Zero),
				"a limit close at %s does not sell into the bid at %s", m.At(1), m.At(-1))
			Expect(t.positionQty(ctx, m.Sym)).To(trading.DecEqual(m.Q), "the position stays open while the limit close rests at %s", m.At(1))

			taker := m.Take(ctx, cp.Trader, m.Limit("buy", 1, 1))
			Expect(taker["quantity_cumulative"]).To(trading.DecEqual(m.Q), "the counterparty's buy at %s meets the limit close\norder: %v", m.At(1), taker)
			t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the limit close executed")
			var fresh []order
			for _, tr := range t.trades(ctx, params{"symbol": m.Sym.Code}) {
				if !seen[tr["id"]] {
					fresh = append(fresh, tr)
				}
			}
			Expect(fresh).To(HaveLen(1), "the close is one new trade in the margin trade history of %s", t.Role)
			Expect(fresh[0]).To(HaveKeyWithValue("side", "sell"), "the trade that closed the long position")
			Expect(fresh[0]["price"]).To(trading.DecEqual(m.At(1)), "the position closed at the limit price %s, not at the bid %s\ntrade: %v", m.At(1), m.At(-1), fresh[0])
		})

		It("closes every position with DELETE /margin/position", func(ctx SpecContext) {
			ms := marginMarkets(ctx, t, cp, 2)
			long, short := ms[0], ms[1]
			long.open(ctx, t, cp, 1)
			short.Trade(ctx, cp.Trader, t.Trader, "buy", 1, 0) // cp rests a buy, t sells into it
			t.eventuallyPosition(ctx, long.Sym, long.Q, "a long position after buying")
			t.eventuallyPosition(ctx, short.Sym, short.Q.Neg(), "a short position after selling")
			long.Rest(ctx, cp.Trader, long.Limit("buy", 1, -1))
			short.Rest(ctx, cp.Trader, short.Limit("sell", 1, 1))

			ex := t.Do(ctx, http.MethodDelete, "/margin/position", nil)
			Expect(ex).To(framework.BeOK(), "DELETE /margin/position")
			body := framework.JSONOf(ex)
			closeAnswer(body, long.Sym)
			closeAnswer(body, short.Sym)
			for _, m := range ms {
				t.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after DELETE /margin/position")
				cp.eventuallyPosition(ctx, m.Sym, decimal.Zero, "after the counterparty's order met the close")
			}
		})
	})
})
