package margin

import (
	"context"
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Margin modes, the first path segment of an account.
const (
	isolated = "isolated"
	cross    = "cross"
)

// accountPath is /margin/account/{margin_mode}/{instrument}.
func accountPath(mode, instrument string) string { return "/margin/account/" + mode + "/" + instrument }

// put sends PUT /margin/account/{mode}/{instrument} with a form body.
func (t *trader) put(ctx context.Context, mode, instrument string, p params) order {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodPut, accountPath(mode, instrument), p)
	Expect(ex).To(framework.BeOK(), "PUT %s with %s", accountPath(mode, instrument), p)
	return framework.ObjectOf(ex)
}

// closeAtEnd registers margin_balance "0" on the account for when the spec
// ends; registered before the account is opened, it runs after the spec's
// orders are canceled and positions closed.
func (t *trader) closeAtEnd(mode, instrument string) {
	DeferCleanup(func(ctx SpecContext) {
		ex := t.Do(ctx, http.MethodPut, accountPath(mode, instrument), params{"margin_balance": "0"})
		if ex.Status == http.StatusOK {
			return
		}
		// A spec may have closed it already (or never opened it).
		Expect(listed(t.accounts(ctx), mode, instrument)).To(BeNil(), "cleanup: the %s margin account %s could not be closed with margin_balance 0 (%s) and is still listed", mode, instrument, trading.Outcome(ex))
	})
}

// open funds a margin account with amount and closes it when the spec ends.
func (t *trader) open(ctx context.Context, mode, instrument string, amount decimal.Decimal) order {
	GinkgoHelper()
	t.closeAtEnd(mode, instrument)
	return t.put(ctx, mode, instrument, params{"margin_balance": amount.String()})
}

// collateral is what the suite puts on a margin account in cur: a twentieth
// of the available balance, enough for every order the specs place and far
// from all of it.
func (t *trader) collateral(ctx context.Context, cur string) decimal.Decimal {
	GinkgoHelper()
	return t.MarginCollateral(ctx, cur)
}

// openIsolated opens an isolated account on s funded with collateral in its
// quote currency.
func (t *trader) openIsolated(ctx context.Context, s trading.Symbol) order {
	GinkgoHelper()
	return t.open(ctx, isolated, s.Code, t.collateral(ctx, s.Quote))
}

// accounts reads GET /margin/account.
func (t *trader) accounts(ctx context.Context) []order {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodGet, "/margin/account", nil)
	Expect(ex).To(framework.BeOK(), "listing the margin accounts of %s", t.Role)
	return trading.Objects(ex)
}

// account reads GET /margin/account/{mode}/{instrument}.
func (t *trader) account(ctx context.Context, mode, instrument string) order {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodGet, accountPath(mode, instrument), nil)
	Expect(ex).To(framework.BeOK(), "reading the %s margin account %s", mode, instrument)
	return framework.ObjectOf(ex)
}

// listed finds an account in GET /margin/account: an isolated one by symbol,
// a cross one by its currency.
func listed(accts []order, mode, instrument string) order {
	for _, a := range accts {
		if a["type"] != mode {
			continue
		}
		if mode == isolated && a["symbol"] == instrument {
			return a
		}
		if mode == cross && currencyOf(a, instrument) != nil {
			return a
		}
	}
	return nil
}

// currencies returns an account's MarginCurrency objects.
func currencies(a order) []order {
	var out []order
	cs, _ := a["currencies"].([]any)
	for _, c := range cs {
		if m, ok := c.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// currencyOf returns the account's MarginCurrency of code, or nil.
func currencyOf(a order, code string) order { return trading.FindBy(currencies(a), "code", code) }

// collateralCode is the currency an account holds its margin_balance in:
// the one MarginCurrency (the spec does not say which currency funds an
// isolated account, so the suite reads it from the answer).
func collateralCode(a order) string {
	GinkgoHelper()
	cs := currencies(a)
	Expect(cs).To(HaveLen(1), "a margin account funded in one currency lists one MarginCurrency\naccount: %v", a)
	code, _ := cs[0]["code"].(string)
	return code
}

// positions returns an account's open positions (positions may be null).
func positions(a order) []order {
	var out []order
	ps, _ := a["positions"].([]any)
	for _, p := range ps {
		if m, ok := p.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// position returns t's isolated position on s (nil when there is none).
func (t *trader) position(ctx context.Context, s trading.Symbol) order {
	GinkgoHelper()
	return trading.FindBy(positions(t.account(ctx, isolated, s.Code)), "symbol", s.Code)
}

// positionQty is the signed quantity of t's isolated position on s (zero
// when there is none).
func (t *trader) positionQty(ctx context.Context, s trading.Symbol) decimal.Decimal {
	GinkgoHelper()
	p := t.position(ctx, s)
	if p == nil {
		return decimal.Zero
	}
	return trading.DecField(p, "quantity")
}

// eventuallyPosition waits for t's position on s to reach want (a position
// follows a trade, which a real target may apply a moment later).
func (t *trader) eventuallyPosition(ctx context.Context, s trading.Symbol, want decimal.Decimal, why string) {
	GinkgoHelper()
	Eventually(ctx, func(ctx context.Context) string { return t.positionQty(ctx, s).String() }).
		WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
		Should(Equal(want.String()), "%s: the signed quantity of %s's position on %s", why, t.Role, s)
}
