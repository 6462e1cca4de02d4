package margin

import (
	"context"
	"net/http"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// market is where a fill spec trades on margin: a symbol on which both
// accounts hold an isolated margin account, and a price strictly inside its
// spread.
type market struct{ trading.Market }

// marginMarkets chooses n margin symbols for t and cp to trade on (see
// trading.FillMarkets; the specs trade within 5 ticks of mid), opens an
// isolated account on each for both, and flattens their positions when the
// spec ends (before the accounts are closed).
func marginMarkets(ctx context.Context, t, cp *trader, n int) []market {
	GinkgoHelper()
	ms := trading.FillMarkets(ctx, t.Trader, cp.Trader, trading.FillPlan{
		Symbols: marginSymbols(ctx), N: n, Ticks: 5, Cloids: cloids,
		// The collateral (a twentieth of the balance) covers ten trades
		// without leverage.
		Need: func(m trading.Market) (quote, base decimal.Decimal) {
			return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(10 * 20)), decimal.Zero
		},
	})
	out := make([]market, 0, len(ms))
	for _, tm := range ms {
		m := market{tm}
		t.openIsolated(ctx, m.Sym)
		cp.openIsolated(ctx, m.Sym)
		if !framework.Current().Config.Emulator {
			// An attempt a third party disturbed (framework.Interfered)
			// may have left positions; the next starts flat.
			flatten(ctx, t, cp, m)
		}
		DeferCleanup(func(ctx SpecContext) { flatten(ctx, t, cp, m) })
		out = append(out, m)
	}
	return out
}

// flatten closes the positions the spec left on m: the suite's positions
// always offset each other (t's long is cp's short), so cp rests an order
// against its own position at mid and t trades into it. It uses plain
// orders, not the position endpoints under test.
func flatten(ctx context.Context, t, cp *trader, m market) {
	GinkgoHelper()
	tq, cq := t.positionQty(ctx, m.Sym), cp.positionQty(ctx, m.Sym)
	if tq.IsZero() && cq.IsZero() {
		return
	}
	side := func(q decimal.Decimal) string {
		if q.IsPositive() {
			return "sell"
		}
		return "buy"
	}
	if !tq.Add(cq).IsZero() && !framework.Current().Config.Emulator {
		// A third party's order took part in one of the spec's trades (see
		// framework.Interfered), so the difference has no counterpart
		// among the suite's accounts: it is closed at market, against the
		// book (again while the book has nothing on the other side, for a
		// few seconds), and what is left offsets.
		residue := func() (*trader, decimal.Decimal) {
			if tq.Sign()*cq.Sign() < 0 || tq.IsZero() || cq.IsZero() {
				if tq.Abs().GreaterThan(cq.Abs()) {
					return t, tq.Sub(cq.Neg())
				}
				return cp, cq.Sub(tq.Neg())
			}
			return t, tq // both on one side: t closes its own first
		}
		quiet := NewGomega(func(string, ...int) {})
		quiet.Eventually(ctx, func(ctx context.Context) bool {
			if tq.Add(cq).IsZero() {
				return true
			}
			tr, q := residue()
			tr.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/margin/order", Form: params{"client_order_id": cloids.New(),
				"symbol": m.Sym.Code, "side": side(q), "type": "market", "quantity": q.Abs().String()}.Form()})
			tq, cq = t.positionQty(ctx, m.Sym), cp.positionQty(ctx, m.Sym)
			return tq.Add(cq).IsZero()
		}).WithTimeout(framework.Timeouts.Eventually).WithPolling(250 * time.Millisecond).Should(BeTrue())
		if tq.IsZero() && cq.IsZero() {
			return
		}
	}
	Expect(tq.Add(cq).IsZero()).To(BeTrue(), "cleanup: the positions on %s do not offset each other (%s %s, %s %s), so they cannot be flattened", m.Sym, t.Role, tq, cp.Role, cq)
	rest := m.Limit(side(cq), 0, 0).With("quantity", cq.Abs().String())
	ex := cp.Do(ctx, http.MethodPost, "/margin/order", rest)
	Expect(ex).To(framework.BeOK(), "cleanup: the counterparty's order that closes its position on %s", m.Sym)
	take := m.Limit(side(tq), 0, 0).With("quantity", tq.Abs().String())
	ex = t.Do(ctx, http.MethodPost, "/margin/order", take)
	Expect(ex).To(framework.BeOK(), "cleanup: the order that closes %s's position on %s", t.Role, m.Sym)
	for _, tr := range []*trader{t, cp} {
		tr.eventuallyPosition(ctx, m.Sym, decimal.Zero, "cleanup: after flattening")
	}
	for _, p := range []struct {
		tr *trader
		id string
	}{{cp, rest["client_order_id"]}, {t, take["client_order_id"]}} {
		_, _ = p.tr.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/margin/order/" + p.id})
	}
}

// open makes t long n trade quantities and cp short as much: cp rests a
// sell at mid and t buys it.
func (m market) open(ctx context.Context, t, cp *trader, n int64) {
	GinkgoHelper()
	m.Trade(ctx, cp.Trader, t.Trader, "sell", n, 0)
}
