package spot

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The other version's names: version 2 spells the order's identifier and
// time in force clientOrderId and timeInForce; version 3 reads neither.
var _ = framework.AreaDescribe("Create order: version 2's names on version 3", func() {
	framework.ConformanceIt("V3-SPOT-V2-NAMES", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		camel := cloids.New()
		t.CancelAtEnd(camel) // in case the target reads it after all
		p := restingBuy(s, 3).Without("client_order_id").With("clientOrderId", camel, "timeInForce", "IOC")
		ex := t.Place(ctx, p)
		if ex.Status != 200 {
			_, isErr := ex.APIError()
			Expect(isErr && ex.Status >= 400 && ex.Status < 500).To(BeTrue(), "an order sent with version 2's names is refused with a documented error, or placed\nexchange: %s", ex)
			Expect(t.IsActive(ctx, camel)).To(BeFalse(), "a refused order is not active")
			return
		}
		o := framework.ObjectOf(ex)
		Expect(o["client_order_id"]).NotTo(Equal(camel), "clientOrderId (version 2's name) is not read as client_order_id: %v", o)
		Expect(o["time_in_force"]).To(Equal("GTC"), "timeInForce IOC (version 2's name) is not read as time_in_force: a limit order gets the default GTC: %v", o)
	})
})
