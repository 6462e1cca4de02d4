package spot

import (
	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Reading orders, balances and fees", func() {
	framework.ConformanceIt("V3-SPOT-ACTIVE", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		syms := restingSymbols(ctx, t, 2)
		a, b := syms[0], syms[1]
		onA := []params{restingBuy(a, 3), parkedStops(a)["stopLimit"]}
		onB := restingBuy(b, 3)
		created := map[string]order{}
		for _, p := range append(onA, onB) {
			created[p["client_order_id"]] = t.PlaceOK(ctx, p)
		}

		all := t.Active(ctx, "")
		for id := range created {
			Expect(trading.FindOrder(all, id)).NotTo(BeNil(), "GET /spot/order lists active order %s (%s); listed %v", id, created[id]["status"], trading.CloidsOf(all))
		}
		ofA := t.Active(ctx, a.Code)
		for _, p := range onA {
			Expect(trading.FindOrder(ofA, p["client_order_id"])).NotTo(BeNil(), "GET /spot/order?symbol=%s lists %s (%s); listed %v", a, p["client_order_id"], created[p["client_order_id"]]["status"], trading.CloidsOf(ofA))
		}
		for _, o := range ofA {
			Expect(o["symbol"]).To(Equal(a.Code), "GET /spot/order?symbol=%s lists that symbol only", a)
		}
		for id, c := range created {
			o := t.GetOK(ctx, id)
			Expect(o["id"]).To(Equal(c["id"]), "GET /spot/order/%s answers that order", id)
			Expect(o["client_order_id"]).To(Equal(id), "GET /spot/order/%s", id)
		}
		t.CancelOK(ctx, onB["client_order_id"])
		Expect(trading.FindOrder(t.Active(ctx, ""), onB["client_order_id"])).To(BeNil(), "a canceled order is not listed as active")
	})

	// unknownOrder asks for and cancels a client_order_id never used.
	// A random client_order_id cannot name a real order, so this runs on
	// targets that take no orders too.
	unknownOrder := func(ctx SpecContext) (get, del *client.Exchange) {
		t := newTrader(target.RoleFull)
		id := cloids.New()
		return t.Get(ctx, id), t.Cancel(ctx, id)
	}

	framework.ConformanceIt("V3-SPOT-NOT-FOUND", func(ctx SpecContext) {
		get, del := unknownOrder(ctx)
		for _, ex := range []*client.Exchange{get, del} {
			trading.ExpectRefusal(ex, "an unknown client_order_id")
			e, _ := ex.APIError()
			Expect(e.Code).To(Equal(20002), "an unknown order is answered with 20002 Order not found\nexchange: %s", ex)
		}
	})

	framework.ConformanceIt("V3-SPOT-CANCEL-FINISHED", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		p := restingBuy(s, 3)
		t.Finished(ctx, p)
		ex := t.Cancel(ctx, p["client_order_id"])
		framework.Observe("V3-SPOT-CANCEL-FINISHED", "a second cancel of a canceled order was answered %s", trading.Outcome(ex))
	})

	framework.ConformanceIt("V3-SPOT-NOT-FOUND-STATUS", func(ctx SpecContext) {
		get, del := unknownOrder(ctx)
		framework.Observe("V3-SPOT-NOT-FOUND-STATUS", "GET of an unknown order: %s; DELETE: %s", trading.Outcome(get), trading.Outcome(del))
	})

	framework.ConformanceIt("V3-SPOT-BALANCE", func(ctx SpecContext) {
		c := framework.Current().Signed(target.RoleFull, framework.Basic)
		ex, _ := c.Get(ctx, "/spot/balance", nil)
		Expect(ex).To(framework.BeOK(), "GET /spot/balance")
		items := trading.Objects(ex)
		amounts := framework.Schema{
			"available":             {Kind: framework.Decimal},
			"reserved":              {Kind: framework.Decimal},
			"reserved_margin":       {Kind: framework.Decimal},
			"cross_margin_reserved": {Kind: framework.Decimal},
		}
		withCurrency := framework.Schema{"currency": {Kind: framework.String}}
		for k, f := range amounts {
			withCurrency[k] = f
		}
		for _, b := range items {
			Expect(b).To(framework.MatchSchema(withCurrency), "an element of GET /spot/balance")
		}
		// A currency the account holds, or any a symbol trades in.
		var cur string
		if len(items) > 0 {
			cur = trading.StrField(items[0], "currency")
		} else {
			cur = trading.WorkingSymbols(ctx)[0].Quote
		}
		ex, _ = c.Get(ctx, "/spot/balance/"+cur, nil)
		Expect(ex).To(framework.BeOK(), "GET /spot/balance/%s", cur)
		one := framework.ObjectOf(ex)
		Expect(one).To(framework.MatchSchema(amounts), "GET /spot/balance/%s", cur)
		Expect(one).NotTo(HaveKey("currency"), "GET /spot/balance/%s answers one balance without currency\nexchange: %s", cur, ex)
		// It is that currency's balance: the amounts of its entry in the list.
		if entry := trading.FindBy(items, "currency", cur); entry != nil {
			for k := range amounts {
				Expect(one[k]).To(trading.DecEqual(trading.DecField(entry, k)), "%s of GET /spot/balance/%s and of its entry in GET /spot/balance", k, cur)
			}
		}
	})

	framework.ConformanceIt("V3-SPOT-FEE", func(ctx SpecContext) {
		c := framework.Current().Signed(target.RoleFull, framework.Basic)
		ex, _ := c.Get(ctx, "/spot/fee", nil)
		Expect(ex).To(framework.BeOK(), "GET /spot/fee")
		items := trading.Objects(ex)
		rates := framework.Schema{"take_rate": {Kind: framework.Decimal}, "make_rate": {Kind: framework.Decimal}}
		for _, f := range items {
			Expect(f).To(framework.MatchSchema(framework.Schema{"symbol": {Kind: framework.String}, "take_rate": rates["take_rate"], "make_rate": rates["make_rate"]}),
				"an element of GET /spot/fee")
		}
		sym := trading.WorkingSymbols(ctx)[0].Code
		listed := map[string]any(nil)
		if len(items) > 0 {
			sym, listed = trading.StrField(items[0], "symbol"), items[0]
		}
		ex, _ = c.Get(ctx, "/spot/fee/"+sym, nil)
		Expect(ex).To(framework.BeOK(), "GET /spot/fee/%s", sym)
		one := framework.ObjectOf(ex)
		Expect(one).To(framework.MatchSchema(rates), "GET /spot/fee/%s", sym)
		Expect(one).NotTo(HaveKey("symbol"), "GET /spot/fee/%s answers {take_rate, make_rate}\nexchange: %s", sym, ex)
		for _, k := range []string{"take_rate", "make_rate"} {
			if listed != nil {
				Expect(one[k]).To(trading.DecEqual(trading.DecField(listed, k)), "%s of %s is the same in GET /spot/fee and GET /spot/fee/%s", k, sym, sym)
			}
		}
	})
})
