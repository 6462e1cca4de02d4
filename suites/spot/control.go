package spot

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// setAvailable sets t's available balance of cur to exactly amount through
// the emulator's control plane, and puts it back when the spec ends (after
// the spec's orders are canceled, since cleanups run last-in first-out).
func setAvailable(ctx context.Context, t *trading.Trader, cur string, amount decimal.Decimal) {
	GinkgoHelper()
	ctl := framework.Current().Control()
	orig := t.Balance(ctx, cur).Avail
	DeferCleanup(func(ctx SpecContext) {
		now := t.Balance(ctx, cur).Avail
		Expect(ctl.Fund(ctx, t.Acct.APIKey, cur, orig.Sub(now).String())).To(Succeed(), "restoring the %s balance of %s", cur, t.Role)
	})
	now := t.Balance(ctx, cur).Avail
	Expect(ctl.Fund(ctx, t.Acct.APIKey, cur, amount.Sub(now).String())).To(Succeed(), "setting the %s balance of %s to %s", cur, t.Role, amount)
	Expect(t.Balance(ctx, cur).Avail).To(trading.DecEqual(amount), "available %s of %s after funding", cur, t.Role)
}

// advance moves the emulator clock.
func advance(ctx context.Context, d time.Duration) {
	GinkgoHelper()
	Expect(framework.Current().Control().Advance(ctx, d)).To(Succeed(), "moving the emulator clock by %s", d)
}

// availableIn makes t's available balance of cur some amount in [lo, hi]
// and returns it, putting the balance back when the spec ends. On the
// emulator the control plane sets exactly hi. Elsewhere the balance moves
// between the trading balance and the main one with the documented version
// 2 transfers (exchangeToBank, bankToExchange), in whole steps of the
// currency's precision_transfer, and the spec skips when no such amount
// lands in the window or the main balance cannot make it up.
func availableIn(ctx context.Context, t *trading.Trader, cur string, lo, hi decimal.Decimal) decimal.Decimal {
	GinkgoHelper()
	e := framework.Current()
	if e.Config.Emulator {
		setAvailable(ctx, t, cur, hi)
		return hi
	}
	have := t.Balance(ctx, cur).Avail
	if !have.LessThan(lo) && !have.GreaterThan(hi) {
		return have
	}
	step := trading.TransferPrecision(ctx, cur)
	if !step.IsPositive() {
		Skip(fmt.Sprintf("%s has no positive precision_transfer, so its balance cannot be moved to between %s and %s", cur, lo, hi))
	}
	// out > 0 moves to the main balance, out < 0 from it.
	out := have.Sub(hi).Div(step).Ceil().Mul(step)
	if have.LessThan(lo) {
		out = lo.Sub(have).Div(step).Ceil().Mul(step).Neg()
	}
	got := have.Sub(out)
	if got.LessThan(lo) || got.GreaterThan(hi) {
		Skip(fmt.Sprintf("the %s balance %s moves in steps of %s, and none lands between %s and %s", cur, have, step, lo, hi))
	}
	v2 := e.V2Signed(t.Role)
	move := func(ctx context.Context, amount decimal.Decimal) *client.Exchange {
		typ := "exchangeToBank"
		if amount.IsNegative() {
			typ = "bankToExchange"
		}
		ex, _ := v2.Do(ctx, client.Request{Method: http.MethodPost, Path: "/account/transfer",
			Form: url.Values{"currency": {cur}, "amount": {amount.Abs().String()}, "type": {typ}}})
		return ex
	}
	if ex := move(ctx, out); ex == nil || ex.Status != http.StatusOK {
		Skip(fmt.Sprintf("moving %s %s between the trading and the main balance of %s to leave %s available was refused: %s", out.Abs(), cur, t.Role, got, trading.Outcome(ex)))
	}
	// One cleanup per trader and currency moves back the net of every
	// move of the spec: what a later move brought in may have been spent.
	key := t.Role + " " + cur
	if net, ok := movedToMain[key]; ok {
		movedToMain[key] = net.Add(out)
	} else {
		movedToMain[key] = out
		DeferCleanup(func(ctx SpecContext) {
			net := movedToMain[key]
			delete(movedToMain, key)
			if !net.IsZero() {
				Expect(move(ctx, net.Neg())).To(framework.BeOK(), "cleanup: moving the net %s %s moved to the main balance of %s back to trading", net, cur, t.Role)
			}
		})
	}
	Expect(t.Balance(ctx, cur).Avail).To(trading.DecEqual(got), "available %s of %s after moving %s to the main balance", cur, t.Role, out)
	return got
}

// movedToMain is what availableIn moved from a trading balance to the main
// one during the running spec, by trader role and currency, for its cleanup
// (specs of a process run one at a time).
var movedToMain = map[string]decimal.Decimal{}
