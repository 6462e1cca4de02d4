package margin

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Margin accounts as every account endpoint answers them.
var _ = framework.AreaDescribe("Margin accounts", func() {
	var (
		t *trader
		s trading.Symbol
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		s = fundable(ctx, t, 1)[0]
	})

	framework.ConformanceIt("V3-MARGIN-ACCOUNT-FIELDS", func(ctx SpecContext) {
		answers := map[string]order{
			"the PUT answer of an isolated account": t.openIsolated(ctx, s),
			"the PUT answer of a cross account":     t.open(ctx, cross, s.Quote, t.collateral(ctx, s.Quote)),
		}
		answers["GET /margin/account/isolated/"+s.Code] = t.account(ctx, isolated, s.Code)
		answers["GET /margin/account/cross/"+s.Quote] = t.account(ctx, cross, s.Quote)
		for i, a := range t.accounts(ctx) {
			answers[fmt.Sprintf("element %d of GET /margin/account", i)] = a
		}
		for where, a := range answers {
			Expect(a).To(matchAccount(), where)
			Expect(currencies(a)).NotTo(BeEmpty(), "%s: a funded account lists the currency that funds it\naccount: %v", where, a)
		}
	})

	framework.ConformanceContext("V3-MARGIN-ACCOUNTS", func() {
		It("GET /margin/account lists the caller's accounts, isolated and cross", func(ctx SpecContext) {
			t.openIsolated(ctx, s)
			t.open(ctx, cross, s.Quote, t.collateral(ctx, s.Quote))
			// Another account's margin account is not the caller's.
			cp := newTrader(target.RoleCounterparty)
			theirs := otherFundable(ctx, cp, s)
			cp.openIsolated(ctx, theirs)
			accts := t.accounts(ctx)
			Expect(listed(accts, isolated, s.Code)).NotTo(BeNil(), "GET /margin/account lists the isolated account on %s\naccounts: %v", s, accts)
			Expect(listed(accts, cross, s.Quote)).NotTo(BeNil(), "GET /margin/account lists the cross account in %s\naccounts: %v", s.Quote, accts)
			Expect(listed(accts, isolated, theirs.Code)).To(BeNil(), "GET /margin/account of %s leaves out the %s account's isolated account on %s\naccounts: %v", t.Role, cp.Role, theirs, accts)
		})
		It("GET /margin/account/isolated/{symbol} answers the isolated account on the symbol", func(ctx SpecContext) {
			t.openIsolated(ctx, s)
			a := t.account(ctx, isolated, s.Code)
			Expect(a).To(HaveKeyWithValue("symbol", s.Code), "GET /margin/account/isolated/%s", s)
			Expect(a).To(HaveKeyWithValue("type", isolated), "GET /margin/account/isolated/%s", s)
		})
		It("GET /margin/account/cross/{currency} answers the cross account in the currency", func(ctx SpecContext) {
			t.open(ctx, cross, s.Quote, t.collateral(ctx, s.Quote))
			a := t.account(ctx, cross, s.Quote)
			Expect(a).To(HaveKeyWithValue("type", cross), "GET /margin/account/cross/%s", s.Quote)
			Expect(currencyOf(a, s.Quote)).NotTo(BeNil(), "GET /margin/account/cross/%s lists the currency %s\naccount: %v", s.Quote, s.Quote, a)
		})
	})
})
