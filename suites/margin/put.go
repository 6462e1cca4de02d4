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

// PUT /margin/account/{margin_mode}/{instrument}: funds move between the
// spot balance and the margin account, and "0" closes the account.
var _ = framework.AreaDescribe("Margin account balance", func() {
	var (
		t *trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = fundable(ctx, t, 1)[0]
	})
	// instrument is a symbol for isolated accounts and a currency for cross.
	instrument := func(mode string) string {
		if mode == isolated {
			return s.Code
		}
		return s.Quote
	}
	two := decimal.NewFromInt(2)

	framework.ConformanceContext("V3-MARGIN-PUT", func() {
		DescribeTable("sets the account's margin_balance and answers the account",
			func(ctx SpecContext, mode string) {
				before := t.Balances(ctx)
				x := t.collateral(ctx, s.Quote)
				a := t.open(ctx, mode, instrument(mode), x)
				Expect(a).To(HaveKeyWithValue("type", mode), "the PUT answer is the %s account", mode)
				if mode == isolated {
					Expect(a).To(HaveKeyWithValue("symbol", s.Code), "the PUT answer is the isolated account on %s", s)
				}
				code := collateralCode(a)
				if mode == cross {
					Expect(code).To(Equal(s.Quote), "a cross account in %s holds %s", s.Quote, s.Quote)
				}
				Expect(currencyOf(a, code)["margin_balance"]).To(trading.DecEqual(x), "margin_balance after PUT %s\naccount: %v", x, a)

				// margin_balance sets the balance: up, then down.
				for _, want := range []decimal.Decimal{x.Mul(two), x.Div(two)} {
					a = t.put(ctx, mode, instrument(mode), params{"margin_balance": want.String()})
					Expect(currencyOf(a, code)["margin_balance"]).To(trading.DecEqual(want), "margin_balance after PUT %s (it sets the balance, it does not add to it)\naccount: %v", want, a)
				}
				got := t.account(ctx, mode, instrument(mode))
				Expect(currencyOf(got, code)["margin_balance"]).To(trading.DecEqual(x.Div(two)), "margin_balance read back after the last PUT\naccount: %v", got)
				Expect(t.Balance(ctx, code).Avail).To(trading.DecEqual(before[code].Avail.Sub(x.Div(two))), "the spot available %s is short of what the account holds, %s", code, x.Div(two))
			},
			Entry(nil, isolated), Entry(nil, cross),
		)
	})

	framework.ConformanceContext("V3-MARGIN-SPOT-RESERVED", func() {
		DescribeTable("shows the account's funds in the spot balance",
			func(ctx SpecContext, mode string) {
				before := t.Balances(ctx)
				x := t.collateral(ctx, s.Quote)
				code := collateralCode(t.open(ctx, mode, instrument(mode), x))
				b, after := before[code], t.Balance(ctx, code)
				Expect(after.Avail).To(trading.DecEqual(b.Avail.Sub(x)), "available %s falls by the %s put on the %s account (before {%s}, after {%s})", code, x, mode, b, after)
				Expect(after.Reserved).To(trading.DecEqual(b.Reserved), "reserved %s (active orders and transfers) is untouched by a margin account (before {%s}, after {%s})", code, b, after)
				wantMargin, wantCross := b.ReservedMargin.Add(x), b.CrossReserved
				if mode == cross {
					wantMargin, wantCross = b.ReservedMargin, b.CrossReserved.Add(x)
				}
				Expect(after.ReservedMargin).To(trading.DecEqual(wantMargin), "reserved_margin %s after funding a %s account with %s (before {%s}, after {%s})", code, mode, x, b, after)
				Expect(after.CrossReserved).To(trading.DecEqual(wantCross), "cross_margin_reserved %s after funding a %s account with %s (before {%s}, after {%s})", code, mode, x, b, after)
			},
			Entry("isolated: reserved_margin", isolated), Entry("cross: cross_margin_reserved", cross),
		)
	})

	framework.ConformanceContext("V3-MARGIN-CLOSE", func() {
		DescribeTable("margin_balance \"0\" closes the account and returns its funds",
			func(ctx SpecContext, mode string) {
				before := t.Balances(ctx)
				code := collateralCode(t.open(ctx, mode, instrument(mode), t.collateral(ctx, s.Quote)))
				ex := t.Do(ctx, http.MethodPut, accountPath(mode, instrument(mode)), params{"margin_balance": "0"})
				Expect(ex).To(framework.BeOK(), "closing the %s account %s with margin_balance \"0\"", mode, instrument(mode))
				b, after := before[code], t.Balance(ctx, code)
				Expect(after.Avail).To(trading.DecEqual(b.Avail), "available %s is back after the close (before {%s}, after {%s})", code, b, after)
				Expect(after.ReservedMargin).To(trading.DecEqual(b.ReservedMargin), "reserved_margin %s is back after the close (before {%s}, after {%s})", code, b, after)
				Expect(after.CrossReserved).To(trading.DecEqual(b.CrossReserved), "cross_margin_reserved %s is back after the close (before {%s}, after {%s})", code, b, after)
				accts := t.accounts(ctx)
				Expect(listed(accts, mode, instrument(mode))).To(BeNil(), "a closed %s account %s is no longer listed\naccounts: %v", mode, instrument(mode), accts)
			},
			Entry(nil, isolated), Entry(nil, cross),
		)
	})

	framework.ConformanceContext("V3-MARGIN-PUT-STRICT", func() {
		// The account is first funded with strict_validate and a conforming
		// amount (accepted), then sent the bad amount: refused, and neither
		// the account nor the spot balance moves.
		DescribeTable("with strict_validate, refuses an exponential or over-precise margin_balance with 10001",
			func(ctx SpecContext, mode, kind string) {
				x := t.collateral(ctx, s.Quote)
				t.closeAtEnd(mode, instrument(mode))
				a := t.put(ctx, mode, instrument(mode), params{"margin_balance": x.String(), "strict_validate": "true"})
				code := collateralCode(a)
				prec := trading.TransferPrecision(ctx, code)
				bad := "1e-2"
				if kind == "precision" {
					bad = x.Div(two).Truncate(-prec.Exponent()).Add(prec.Div(decimal.NewFromInt(10))).String()
				}
				before := t.Balance(ctx, code)
				ex := t.Do(ctx, http.MethodPut, accountPath(mode, instrument(mode)), params{"margin_balance": bad, "strict_validate": "true"})
				Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "margin_balance %s with strict_validate (%s has precision %s)", bad, code, prec)
				got := t.account(ctx, mode, instrument(mode))
				Expect(currencyOf(got, code)["margin_balance"]).To(trading.DecEqual(x), "the refused PUT leaves margin_balance as it was\naccount: %v", got)
				after := t.Balance(ctx, code)
				Expect(after.Avail).To(trading.DecEqual(before.Avail), "the refused PUT leaves the spot available %s as it was (before {%s}, after {%s})", code, before, after)
			},
			Entry("isolated, exponential format", isolated, "exponent"),
			Entry("isolated, beyond the currency's precision", isolated, "precision"),
			Entry("cross, exponential format", cross, "exponent"),
			Entry("cross, beyond the currency's precision", cross, "precision"),
		)
	})

	framework.ConformanceContext("V3-MARGIN-PUT-FUNDS", func() {
		// Errors: 20001 is "funds insufficient for an order or account
		// operation". Setting a margin_balance above what the account holds
		// plus all the spot balance has available is such an operation. The
		// HTTP status of 20001 is not given (V3-ERR-20001-STATUS): any 4xx.
		DescribeTable("refuses a margin_balance the spot balance cannot supply with 20001",
			func(ctx SpecContext, mode string) {
				x := t.collateral(ctx, s.Quote)
				code := collateralCode(t.open(ctx, mode, instrument(mode), x))
				before := t.Balance(ctx, code)
				// x more than the account and the available balance together
				// (a default PUT may round the amount down to the currency's
				// precision, by less than x).
				bad := x.Add(before.Avail).Add(x)
				ex := t.Do(ctx, http.MethodPut, accountPath(mode, instrument(mode)), params{"margin_balance": bad.String()})
				Expect(ex).To(framework.BeAPIError(framework.StatusClass4xx, 20001), "margin_balance %s on a %s account holding %s, %s %s available", bad, mode, x, before.Avail, code)
				got := t.account(ctx, mode, instrument(mode))
				Expect(currencyOf(got, code)["margin_balance"]).To(trading.DecEqual(x), "the refused PUT leaves margin_balance as it was\naccount: %v", got)
				after := t.Balance(ctx, code)
				Expect(after.Avail).To(trading.DecEqual(before.Avail), "the refused PUT leaves the spot available %s as it was (before {%s}, after {%s})", code, before, after)
			},
			Entry(nil, isolated), Entry(nil, cross),
		)
	})

	framework.ConformanceIt("V3-MARGIN-PATH-MODE", func(ctx SpecContext) {
		// margin_balance 0 would close an account: nothing to close here.
		ex := t.Do(ctx, http.MethodPut, accountPath("futures", s.Code), params{"margin_balance": "0"})
		framework.Observe("V3-MARGIN-PATH-MODE", "PUT %s was answered %s", accountPath("futures", s.Code), trading.Outcome(ex))
	})
})
