package v2streams

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// reportSchema is the Streaming order report section's list; id's type is
// not given, so it is only required to be there (reportFields).
var reportSchema = framework.Schema{
	"clientOrderId": {Kind: framework.String}, "symbol": {Kind: framework.String}, "side": {Kind: framework.String},
	"status": {Kind: framework.String}, "type": {Kind: framework.String}, "timeInForce": {Kind: framework.String},
	"quantity": {Kind: framework.Decimal}, "price": {Kind: framework.Decimal}, "cumQuantity": {Kind: framework.Decimal},
	"postOnly": {Kind: framework.Bool}, "createdAt": {Kind: framework.DateTime}, "updatedAt": {Kind: framework.DateTime},
	"reportType": {Kind: framework.String},
}

// tradeSchemaOfReport is what a trade report adds.
var tradeReportSchema = framework.Schema{
	"tradeQuantity": {Kind: framework.Decimal}, "tradePrice": {Kind: framework.Decimal},
	"tradeFee": {Kind: framework.Decimal},
}

// reportScene is a trading stream following role's reports.
type reportScene struct {
	t      *trading.Trader
	s      *stream
	active []any
}

// follow logs a trading stream in as t's account and subscribes to its
// reports, keeping the activeOrders it gets.
func follow(ctx context.Context, t *trading.Trader) *reportScene {
	GinkgoHelper()
	s := open(ctx, pathTrading)
	s.login(ctx, t.Acct)
	Expect(s.ok(ctx, "subscribeReports", frame{})).To(Equal(true), "subscribeReports")
	return &reportScene{t: t, s: s, active: array(s.notification(ctx, "activeOrders", nil), "activeOrders")}
}

// report waits for the report of cloid matching ok (nil: any).
func (r *reportScene) report(ctx context.Context, cloid string, ok func(map[string]any) bool) map[string]any {
	GinkgoHelper()
	return object(r.s.notification(ctx, "report", func(p any) bool {
		m, _ := p.(map[string]any)
		return m != nil && m["clientOrderId"] == cloid && (ok == nil || ok(m))
	}), "report of "+cloid)
}

func withStatus(status string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["status"] == status }
}

func reportingTrader(ctx context.Context) (*trading.Trader, trading.Symbol) {
	GinkgoHelper()
	framework.Current().RequireTrading()
	t := trading.NewTrader(target.RoleFull, trading.Spot)
	return t, restingSymbol(ctx, t)
}

// parkingTrader is reportingTrader on a symbol whose base currency the
// account also holds, for the stop sells of parked.
func parkingTrader(ctx context.Context) (*trading.Trader, trading.Symbol) {
	GinkgoHelper()
	framework.Current().RequireTrading()
	t := trading.NewTrader(target.RoleFull, trading.Spot)
	hold := trading.Holding(trading.WorkingSymbols(ctx), t.ChoiceBalances(ctx), func(s trading.Symbol) (decimal.Decimal, decimal.Decimal) {
		return s.Qty(40), s.Low(maxRestingTicks).Mul(s.Qty(20))
	})
	if len(hold) == 0 {
		Skip(fmt.Sprintf("needs a working spot symbol whose base and quote currencies the %s account holds", t.Role))
	}
	return t, hold[0]
}

// parked is an order of type typ that rests without trading: a limit buy
// far below the market (restingPrice), or a stop sell whose stop price is a
// few ticks, a trigger no spec's trade reaches, as the spot suite's parked
// stops (a stopLimit's price is far above the market, so that it would rest
// even if triggered).
func parked(s trading.Symbol, typ string) trading.Params {
	if typ == "limit" {
		return s.RestingBuy(cloids.New(), restingPrice())
	}
	p := trading.Params{"client_order_id": cloids.New(), "symbol": s.Code, "side": "sell", "type": typ,
		"quantity": s.Qty(10).String(), "stop_price": s.Low(5).String()}
	if typ == "stopLimit" {
		p = p.With("price", s.High().String())
	}
	return p
}

var _ = framework.AreaDescribe("v2 streams: order reports", func() {
	framework.ConformanceIt("V2-WS-REPORTS-RIGHTS", func(ctx SpecContext) {
		e := framework.Current()
		without := open(ctx, pathTrading)
		without.login(ctx, e.Account(target.RoleTradeOnly))
		refused(without.call(ctx, "subscribeReports", frame{}), "subscribeReports with a key that has only Place/cancel orders")
		with := open(ctx, pathTrading)
		with.login(ctx, e.Account(target.RoleReadOnly))
		Expect(with.ok(ctx, "subscribeReports", frame{})).To(Equal(true), "subscribeReports with a key that has Orderbook, History, Trading balance")
	})

	framework.ConformanceIt("V2-WS-ACTIVE-ORDERS", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		a, b, gone := cloids.New(), cloids.New(), cloids.New()
		for _, id := range []string{a, gone, b} {
			t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		}
		t.CancelOK(ctx, gone)
		r := follow(ctx, t)
		var listed []string
		for _, o := range r.active {
			rep := object(o, "an activeOrders entry")
			Expect(rep).To(framework.MatchSchema(reportSchema), "an activeOrders entry is an order report")
			listed = append(listed, rep["clientOrderId"].(string))
		}
		Expect(listed).To(ConsistOf(trading.CloidsOf(t.Active(ctx, ""))), "activeOrders lists exactly the active orders (GET /spot/order)")
		Expect(listed).To(ContainElements(a, b), "the two resting orders are active")
		Expect(listed).NotTo(ContainElement(gone), "the canceled order is not")
	})

	framework.ConformanceIt("V2-WS-REPORT-FIELDS", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		rep := r.report(ctx, id, nil)
		Expect(rep).To(HaveKey("id"), "an order report carries id")
		Expect(rep).To(framework.MatchSchema(reportSchema), "an order report carries the listed fields")
		Expect(rep).To(And(HaveKeyWithValue("symbol", sym.Code), HaveKeyWithValue("side", "buy"), HaveKeyWithValue("type", "limit")), "the order's own values")
	})

	// The v2 report's type values are camelCase (stopLimit), while the v3
	// parameters the orders are placed with are snake_case (stop_price), so
	// each kind is read back in its exact spelling, on its new (or
	// suspended) report and on its cancel. Orders are placed over v3 REST:
	// v2 order placement is not shown.
	framework.ConformanceContext("V2-WS-REPORT-ORDER-TYPE", func() {
		DescribeTable("reports the type a resting or waiting order was placed with",
			func(ctx SpecContext, typ string) {
				t, sym := parkingTrader(ctx)
				r := follow(ctx, t)
				p := parked(sym, typ)
				t.PlaceOK(ctx, p)
				rep := r.report(ctx, p["client_order_id"], nil)
				Expect(rep).To(HaveKeyWithValue("type", typ), "the report of a %s order", typ)
				t.CancelOK(ctx, p["client_order_id"])
				rep = r.report(ctx, p["client_order_id"], withStatus("canceled"))
				Expect(rep).To(HaveKeyWithValue("type", typ), "the report of the canceled %s order", typ)
			},
			Entry(nil, "limit"), Entry(nil, "stopLimit"), Entry(nil, "stopMarket"),
		)

		// A market order cannot rest: it is a market sell that meets the
		// suite's own buy one tick below mid, inside the spread, as the
		// trades of V2-WS-REPORT-TRADE.
		Context("with a trade between the suite's accounts over v3 REST", func() {
			It("reports a market order as market", func(ctx SpecContext) {
				f := newFillScene(ctx)
				r := follow(ctx, f.taker)
				f.m.Rest(ctx, f.maker, f.m.Limit("buy", 1, -1))
				id := cloids.New()
				o := f.m.Take(ctx, f.taker, trading.Params{"client_order_id": id, "symbol": f.m.Sym.Code, "side": "sell", "type": "market", "quantity": f.m.Q.String()})
				Expect(o["quantity_cumulative"]).To(trading.DecEqual(f.m.Q), "the market sell meets the resting buy\norder: %v", o)
				rep := r.report(ctx, id, withStatus("filled"))
				Expect(rep).To(HaveKeyWithValue("type", "market"), "the trade report of the market order")
			})
		})
	})
})

var _ = framework.AreaDescribe("v2 streams: order reports", func() {
	framework.ConformanceIt("V2-WS-REPORT-NEW", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		Expect(r.report(ctx, id, nil)).To(HaveKeyWithValue("status", "new"), "the first report of a resting order")
	})

	framework.ConformanceIt("V2-WS-REPORT-CANCELED", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		r.report(ctx, id, nil)
		t.CancelOK(ctx, id)
		rep := r.report(ctx, id, func(m map[string]any) bool { return m["status"] != "new" })
		Expect(rep).To(HaveKeyWithValue("status", "canceled"), "the report of the cancel")
		framework.Observe("V2-WS-REPORT-TYPES", "a cancel is reported with reportType %v", rep["reportType"])
	})

	framework.ConformanceIt("V2-WS-REPORT-ONE", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		t.CancelOK(ctx, id)
		r.report(ctx, id, withStatus("canceled"))
		// The server answers in order: what it queued before this answer has
		// been read when the answer comes.
		r.s.login(ctx, t.Acct)
		var statuses []any
		for _, f := range append(r.s.seen, r.s.pending()...) {
			if p, ok := f["params"].(map[string]any); ok && f["method"] == "report" && p["clientOrderId"] == id {
				statuses = append(statuses, p["status"])
			}
		}
		Expect(statuses).To(Equal([]any{"new", "canceled"}), "one report per update of order %s", id)
	})

	framework.ConformanceIt("V2-WS-REPORT-EXPIRED", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()).With("time_in_force", "IOC"))
		rep := r.report(ctx, id, func(m map[string]any) bool { return m["status"] != "new" })
		Expect(rep).To(HaveKeyWithValue("status", "expired"), "an IOC order without anything to fill")
	})

	framework.ConformanceIt("V2-WS-REPORT-SUSPENDED", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()).With("type", "stopLimit", "stop_price", sym.High().String()))
		Expect(r.report(ctx, id, nil)).To(HaveKeyWithValue("status", "suspended"), "a stop buy whose stop price is far above the market waits")
	})

	framework.ConformanceIt("V2-WS-REPORT-TYPES", func(ctx SpecContext) {
		t, sym := reportingTrader(ctx)
		r := follow(ctx, t)
		id := cloids.New()
		t.PlaceOK(ctx, sym.RestingBuy(id, restingPrice()))
		rep := r.report(ctx, id, nil)
		framework.Observe("V2-WS-REPORT-TYPES", "a new order is reported with reportType %v; activeOrders entries carry %v", rep["reportType"], reportTypesOf(follow(ctx, t).active))
	})

	Context("with trades between the suite's accounts over v3 REST", func() {
		framework.ConformanceIt("V2-WS-REPORT-TRADE", func(ctx SpecContext) {
			f := newFillScene(ctx)
			r := follow(ctx, f.maker)
			sell := f.m.Limit("sell", 2, 1)
			f.m.Rest(ctx, f.maker, sell)
			id := sell["client_order_id"]
			for i, status := range []string{"partiallyFilled", "filled"} {
				f.m.Take(ctx, f.taker, f.m.Limit("buy", 1, 1))
				rep := r.report(ctx, id, func(m map[string]any) bool { _, ok := m["tradeQuantity"]; return ok && m["status"] == status })
				Expect(rep).To(framework.MatchSchema(tradeReportSchema), "a trade report adds the trade's fields")
				Expect(rep).To(HaveKey("tradeId"), "a trade report carries tradeId")
				Expect(rep["tradeQuantity"]).To(trading.DecEqual(f.m.Q), "the trade's quantity")
				Expect(rep["tradePrice"]).To(trading.DecEqual(f.m.At(1)), "the trade's price")
				Expect(rep["cumQuantity"]).To(trading.DecEqual(f.m.Qn(int64(i+1))), "the order's cumulative quantity")
			}
		})
	})
})

func reportTypesOf(reports []any) []any {
	var out []any
	for _, r := range reports {
		if m, ok := r.(map[string]any); ok {
			out = append(out, m["reportType"])
		}
	}
	return out
}
