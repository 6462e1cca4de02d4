package v2streams

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// activeOrders "requires Orderbook, History, Trading balance": each other
// right alone (V2-WS-REPORTS-RIGHTS tries Place/cancel orders) is refused.
var _ = framework.AreaDescribe("v2 streams: order reports with each right alone", func() {
	framework.ConformanceContext("V2-WS-REPORTS-RIGHT-ALONE", func() {
		DescribeTable("subscribeReports is refused to a key holding another right alone and answered for Orderbook, History, Trading balance alone",
			func(ctx SpecContext, role string, served bool) {
				s := open(ctx, pathTrading)
				s.login(ctx, framework.Current().Account(role))
				if served {
					Expect(s.ok(ctx, "subscribeReports", frame{})).To(Equal(true), "subscribeReports with the %s key", role)
					return
				}
				refused(s.call(ctx, "subscribeReports", frame{}), "subscribeReports with the "+role+" key")
			},
			Entry(nil, target.RolePaymentOnly, false), Entry(nil, target.RoleWithdrawOnly, false),
			Entry(nil, target.RoleTradeOnly, false), Entry(nil, target.RoleReadOnly, true),
		)
	})
})
