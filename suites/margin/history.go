package margin

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fillHistory tops t's margin order history up to at least n records with
// IOC orders on s that expire at once. Each filler places in turn, and
// up to fillers of them run at once: one after the other, the 2000 round
// trips of 1001 orders took 89 s over a path 20 ms each way. Every filler
// is a fresh client of the same account: on a loopback target each has a
// source address of its own, and sends at most 2*perClient requests, so the
// per-IP rate limit of /margin/order/* (750 in a second) is never met
// (elsewhere the clients' pacer keeps under it).
func fillHistory(ctx context.Context, t *trader, s trading.Symbol, n int) {
	GinkgoHelper()
	have := len(t.History(ctx, params{"limit": "1000"}.Form()))
	if have == 1000 {
		have += len(t.History(ctx, params{"limit": "1000", "offset": "1000"}.Form()))
	}
	if have >= n {
		return
	}
	const perClient, fillers = 300, 16
	var (
		mu     sync.Mutex
		placed []string
		failed []string
		wg     sync.WaitGroup
	)
	DeferCleanup(func(ctx SpecContext) {
		active := map[string]bool{}
		for _, id := range trading.CloidsOf(t.Active(ctx, s.Code)) {
			active[id] = true
		}
		for _, id := range placed {
			if active[id] {
				Expect(t.Do(ctx, http.MethodDelete, "/margin/order/"+id, nil)).To(framework.BeOK(), "cleanup: canceling history filler order %s", id)
			}
		}
	})
	// send places or cancels; a failure is a line for the spec's failure
	// (Gomega's assertions belong to the spec's goroutine).
	send := func(c *trader, method, path string, p params, what string) bool {
		req := client.Request{Method: method, Path: path}
		if p != nil {
			req.Form = p.Form()
		}
		ex, err := c.Client.Do(ctx, req)
		if err == nil && ex.Status == http.StatusOK {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if ex != nil {
			failed = append(failed, fmt.Sprintf("%s: %s", what, ex))
		} else {
			failed = append(failed, fmt.Sprintf("%s: %v", what, err))
		}
		return false
	}
	chunk := min(perClient, (n-have+fillers-1)/fillers)
	for from := have; from < n; from += chunk {
		c := newTrader(t.Role) // in the spec's goroutine: a client registers its cleanup with the spec
		wg.Add(1)
		go func(from, to int) {
			defer wg.Done()
			for i := from; i < to; i++ {
				// IOC at a few ticks: nothing to meet, so it expires at once
				// into the history (Order states), one request instead of a
				// place and a cancel.
				p := restingBuy(s, 3).With("time_in_force", "IOC")
				id := p["client_order_id"]
				mu.Lock()
				placed = append(placed, id)
				mu.Unlock()
				if !send(c, http.MethodPost, "/margin/order", p, fmt.Sprintf("placing history filler order %d", i+1)) {
					return
				}
			}
		}(from, min(from+chunk, n))
	}
	wg.Wait()
	Expect(failed).To(BeEmpty(), "placing %d history filler orders (IOC, expiring at once), %d at a time", n-have, fillers)
}

func stamp(at time.Time, d time.Duration) string { return at.Add(d).Format(time.RFC3339Nano) }

var _ = framework.AreaDescribe("Margin order history", func() {
	var (
		t        *trader
		a, b     trading.Symbol
		onA, onB order
	)
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t = newTrader(target.RoleFull)
		a = fundable(ctx, t, 1)[0]
		b = otherFundable(ctx, t, a)
		t.openIsolated(ctx, a)
		t.openIsolated(ctx, b)
		onA = t.Finished(ctx, restingBuy(a, 3))
		onB = t.Finished(ctx, restingBuy(b, 3))
	})
	has := func(recs []order, o order) bool { return trading.FindOrder(recs, o["client_order_id"].(string)) != nil }

	framework.ConformanceContext("V3-MARGIN-HISTORY-ORDER", func() {
		It("answers the caller's margin orders as order history records", func(ctx SpecContext) {
			recs := t.History(ctx, nil)
			Expect(has(recs, onA) && has(recs, onB)).To(BeTrue(), "the history holds the caller's finished margin orders; listed %v", trading.CloidsOf(recs))
			for _, r := range recs {
				Expect(r).To(framework.MatchSchema(trading.OrderSchema), "a margin order history record")
			}
			Expect(trading.FindOrder(recs, onA["client_order_id"].(string))).To(HaveKeyWithValue("status", "canceled"), "the record of a canceled order")
		})
		It("client_order_id selects one order, whatever the other parameters", func(ctx SpecContext) {
			id := onA["client_order_id"].(string)
			q := params{"client_order_id": id, "symbol": b.Code, "limit": "1", "offset": "5"}
			recs := t.History(ctx, q.Form())
			Expect(recs).NotTo(BeEmpty(), "history?%s finds the order", q)
			for _, r := range recs {
				Expect(r).To(HaveKeyWithValue("client_order_id", id), "history?%s answers that order only", q)
			}
		})
		It("symbol selects symbols, comma-separated", func(ctx SpecContext) {
			recs := t.History(ctx, params{"symbol": a.Code}.Form())
			Expect(has(recs, onA)).To(BeTrue(), "history?symbol=%s holds the order on it; listed %v", a, trading.CloidsOf(recs))
			Expect(has(recs, onB)).To(BeFalse(), "history?symbol=%s leaves out the order on %s", a, b)
			for _, r := range recs {
				Expect(r).To(HaveKeyWithValue("symbol", a.Code), "history?symbol=%s", a)
			}
			both := t.History(ctx, params{"symbol": a.Code + "," + b.Code}.Form())
			Expect(has(both, onA) && has(both, onB)).To(BeTrue(), "history?symbol=%s,%s holds orders on both; listed %v", a, b, trading.CloidsOf(both))
		})
		It("from and till select by time", func(ctx SpecContext) {
			at := trading.TimeField(onA, "created_at")
			inside := t.History(ctx, params{"by": "timestamp", "from": stamp(at, -time.Minute), "till": stamp(at, time.Minute)}.Form())
			Expect(has(inside, onA)).To(BeTrue(), "from and till a minute around its creation at %s hold the order; listed %v", at, trading.CloidsOf(inside))
			Expect(has(t.History(ctx, params{"by": "timestamp", "from": stamp(at, time.Minute)}.Form()), onA)).To(BeFalse(), "from a minute after its creation at %s leaves the order out", at)
			Expect(has(t.History(ctx, params{"by": "timestamp", "till": stamp(at, -time.Minute)}.Form()), onA)).To(BeFalse(), "till a minute before its creation at %s leaves the order out", at)
		})
		It("sort orders the records by id", func(ctx SpecContext) {
			trading.ExpectIDsOrdered(t.History(ctx, params{"sort": "ASC", "by": "id"}.Form()), true, "sort ASC")
			trading.ExpectIDsOrdered(t.History(ctx, params{"sort": "DESC", "by": "id"}.Form()), false, "sort DESC")
		})
		It("limit defaults to 100 with a maximum of 1000, offset defaults to 0 with a maximum of 100000", SpecPriority(5), func(ctx SpecContext) {
			// More records than the maximum page, so that a limit above it
			// is told apart under both readings (refused, or clamped).
			fillHistory(ctx, t, a, 1001)
			Expect(t.History(ctx, nil)).To(HaveLen(100), "the default limit is 100 (the history holds more than 1000 records)")
			Expect(t.History(ctx, params{"limit": "1000"}.Form())).To(HaveLen(1000), "limit 1000 (the maximum) is accepted (the history holds more than 1000 records)")
			t.ExpectAtMost(ctx, "/margin/history/order", params{"limit": "1001"}.Form(), 1000, "limit above the maximum 1000, the history holding more than 1000 records")

			five := t.History(ctx, params{"limit": "5", "sort": "DESC"}.Form())
			Expect(five).To(HaveLen(5), "limit 5")
			Expect(trading.IDsOf(t.History(ctx, params{"limit": "5", "sort": "DESC", "offset": "0"}.Form()))).To(Equal(trading.IDsOf(five)), "offset defaults to 0")
			Expect(trading.IDsOf(t.History(ctx, params{"limit": "3", "sort": "DESC", "offset": "2"}.Form()))).To(Equal(trading.IDsOf(five)[2:]), "offset 2 skips two records")
			t.History(ctx, params{"offset": "100000"}.Form())
			t.ExpectAtMost(ctx, "/margin/history/order", params{"offset": "100001"}.Form(), 0, "offset above the maximum 100000")
		})
	})
})

// Trades need fills: on a symbol of the spec's own (trading.FillMarkets).
var _ = framework.AreaDescribe("Margin trade history", func() {
	framework.ConformanceIt("V3-MARGIN-HISTORY-TRADE", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t, cp := newTrader(target.RoleFull), newTrader(target.RoleCounterparty)
		m := marginMarkets(ctx, t, cp, 1)[0]
		_, opened := m.Trade(ctx, cp.Trader, t.Trader, "sell", 1, 0) // t buys
		_, closed := m.Trade(ctx, cp.Trader, t.Trader, "buy", 1, 1)  // t sells back
		mine := map[string]order{"the opening buy": opened, "the closing sell": closed}

		recs := t.trades(ctx, nil)
		for _, r := range recs {
			Expect(r).To(framework.MatchSchema(tradeSchema), "a margin trade history record")
			Expect(r).To(trading.HaveValueIn("side", "buy", "sell"), "a margin trade history record")
		}
		for what, o := range mine {
			id := o["id"]
			orderID := fmt.Sprint(id) // the order's Number, as the record's String
			r := trading.FindBy(recs, "order_id", orderID)
			Expect(r).NotTo(BeNil(), "the trade of %s (order id %v) is in the history, with order_id a String; listed %v", what, id, recs)
			Expect(r).To(HaveKeyWithValue("client_order_id", o["client_order_id"]), "the trade of %s", what)
			Expect(r).To(HaveKeyWithValue("symbol", m.Sym.Code), "the trade of %s", what)
			Expect(r).To(HaveKeyWithValue("side", o["side"]), "the trade of %s", what)
			Expect(r["quantity"]).To(trading.DecEqual(m.Q), "the trade of %s", what)
			Expect(r["price"]).To(trading.DecEqual(trading.DecField(o, "price")), "the trade of %s", what)
			Expect(r).To(HaveKeyWithValue("taker", true), "the trade of %s, which took a resting order", what)

			byOrder := t.trades(ctx, params{"order_id": orderID})
			Expect(byOrder).NotTo(BeEmpty(), "history/trade?order_id=%s holds the trade of %s", orderID, what)
			for _, x := range byOrder {
				Expect(x).To(HaveKeyWithValue("order_id", orderID), "history/trade?order_id=%s answers that order's trades only", orderID)
			}
		}

		for _, x := range t.trades(ctx, params{"symbol": m.Sym.Code}) {
			Expect(x).To(HaveKeyWithValue("symbol", m.Sym.Code), "history/trade?symbol=%s", m.Sym)
		}
		other := otherFundable(ctx, t, m.Sym)
		for _, x := range t.trades(ctx, params{"symbol": other.Code}) {
			Expect(x).To(HaveKeyWithValue("symbol", other.Code), "history/trade?symbol=%s", other)
		}

		at := trading.TimeField(trading.FindBy(recs, "client_order_id", opened["client_order_id"]), "timestamp")
		has := func(q params) bool {
			return trading.FindBy(t.trades(ctx, q), "client_order_id", opened["client_order_id"]) != nil
		}
		Expect(has(params{"by": "timestamp", "from": stamp(at, -time.Minute), "till": stamp(at, time.Minute)})).To(BeTrue(), "from and till a minute around the trade at %s hold it", at)
		Expect(has(params{"by": "timestamp", "from": stamp(at, time.Minute)})).To(BeFalse(), "from a minute after the trade at %s leaves it out", at)
		Expect(has(params{"by": "timestamp", "till": stamp(at, -time.Minute)})).To(BeFalse(), "till a minute before the trade at %s leaves it out", at)

		for _, x := range cp.trades(ctx, params{"symbol": m.Sym.Code}) {
			Expect(trading.FindBy(recs, "client_order_id", x["client_order_id"])).To(BeNil(), "the counterparty's trade on its order %v is not in %s's history", x["client_order_id"], t.Role)
		}
		t.ExpectAtMost(ctx, "/margin/history/trade", params{"limit": "1001"}.Form(), 1000, "limit above the maximum 1000")
		t.ExpectAtMost(ctx, "/margin/history/trade", params{"offset": "100001"}.Form(), 0, "offset above the maximum 100000")
	})

	framework.ConformanceIt("V3-MARGIN-HISTORY-TRADE-PAGING", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t, cp := newTrader(target.RoleFull), newTrader(target.RoleCounterparty)
		m := marginMarkets(ctx, t, cp, 1)[0]
		_, first := m.Trade(ctx, cp.Trader, t.Trader, "sell", 1, 0)
		_, second := m.Trade(ctx, cp.Trader, t.Trader, "buy", 1, 1)
		q := func(kv ...string) params {
			p := params{"symbol": m.Sym.Code}
			for i := 0; i+1 < len(kv); i += 2 {
				p[kv[i]] = kv[i+1]
			}
			return p
		}
		// pos is where the two trades stand in a listing (-1 when absent).
		pos := func(recs []order) (int, int) {
			at := func(o order) int {
				for i, r := range recs {
					if r["client_order_id"] == o["client_order_id"] {
						return i
					}
				}
				return -1
			}
			return at(first), at(second)
		}
		a1, a2 := pos(t.trades(ctx, q("sort", "ASC")))
		Expect(a1 >= 0 && a2 > a1).To(BeTrue(), "sort ASC lists the earlier trade first: positions %d and %d", a1, a2)
		d1, d2 := pos(t.trades(ctx, q("sort", "DESC")))
		Expect(d2 >= 0 && d1 > d2).To(BeTrue(), "sort DESC lists the later trade first: positions %d and %d", d1, d2)

		two := t.trades(ctx, q("sort", "DESC", "limit", "2"))
		Expect(two).To(HaveLen(2), "limit 2, with at least two trades on %s", m.Sym)
		Expect(t.trades(ctx, q("sort", "DESC", "limit", "1"))).To(HaveLen(1), "limit 1")
		skipped := t.trades(ctx, q("sort", "DESC", "limit", "1", "offset", "1"))
		Expect(skipped).To(HaveLen(1), "limit 1 offset 1, with at least two trades on %s", m.Sym)
		Expect(skipped[0]["id"]).To(Equal(two[1]["id"]), "offset 1 skips the first record of the same listing")
	})
})
