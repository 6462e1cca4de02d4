package spot

import (
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Invariants between the fields of one order.
var _ = framework.AreaDescribe("The Order resource: invariants between fields", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	// historyOf is the order's one history record.
	historyOf := func(ctx SpecContext, cloid string) trading.Order {
		GinkgoHelper()
		recs := t.History(ctx, url.Values{"client_order_id": {cloid}})
		Expect(recs).NotTo(BeEmpty(), "GET /spot/history/order?client_order_id=%s finds the order", cloid)
		return recs[0]
	}

	framework.ConformanceIt("V3-ORDER-TIMES", func(ctx SpecContext) {
		p := restingBuy(s, 3)
		seen := map[string]trading.Order{"create answer": t.PlaceOK(ctx, p)}
		seen["GET /spot/order/{client_order_id}"] = t.GetOK(ctx, p["client_order_id"])
		seen["cancel answer"] = t.CancelOK(ctx, p["client_order_id"])
		seen["history record"] = historyOf(ctx, p["client_order_id"])
		for where, o := range seen {
			created, updated := trading.TimeField(o, "created_at"), trading.TimeField(o, "updated_at")
			Expect(updated.Before(created)).To(BeFalse(), "%s of order %s: updated_at %v is before created_at %v", where, p["client_order_id"], o["updated_at"], o["created_at"])
		}
	})

	framework.ConformanceIt("V3-ORDER-HIDDEN-DISPLAY", func(ctx SpecContext) {
		p := restingBuy(s, 3).With("display_quantity", "0")
		seen := map[string]trading.Order{"create answer": t.PlaceOK(ctx, p)}
		seen["GET /spot/order/{client_order_id}"] = t.GetOK(ctx, p["client_order_id"])
		t.CancelOK(ctx, p["client_order_id"])
		seen["history record"] = historyOf(ctx, p["client_order_id"])
		for where, o := range seen {
			Expect(o).To(HaveKeyWithValue("display_quantity", "0"), "%s of the hidden order %s carries its visible part, display_quantity \"0\"", where, p["client_order_id"])
		}
	})
})
