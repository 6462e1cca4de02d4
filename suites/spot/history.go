package spot

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Spot order history", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	framework.ConformanceIt("V3-SPOT-HISTORY", func(ctx SpecContext) {
		var mine []string
		for range 3 {
			p := restingBuy(s, 3)
			t.Finished(ctx, p)
			mine = append(mine, p["client_order_id"])
		}
		cp := newTrader(target.RoleCounterparty)
		theirs := restingBuy(restingSymbol(ctx, cp), 3)
		cp.Finished(ctx, theirs)

		recs := t.History(ctx, nil)
		for _, r := range recs {
			Expect(r).To(framework.MatchSchema(trading.OrderSchema), "a history record has the fields of Order")
			Expect(r).To(trading.HaveDocumentedEnums(), "a history record")
		}
		trading.ExpectIDsOrdered(recs, false, "history by default")
		pos := map[string]int{}
		for i, id := range trading.CloidsOf(recs) {
			if _, seen := pos[id]; !seen {
				pos[id] = i
			}
		}
		for _, id := range mine {
			Expect(pos).To(HaveKey(id), "the caller's order %s is in its history; listed %v", id, trading.CloidsOf(recs))
		}
		Expect(pos[mine[2]] < pos[mine[1]] && pos[mine[1]] < pos[mine[0]]).To(BeTrue(),
			"newest first by default: %v were created in that order, listed at %d, %d, %d", mine, pos[mine[0]], pos[mine[1]], pos[mine[2]])
		Expect(pos).NotTo(HaveKey(theirs["client_order_id"]), "another account's order is not in the caller's history")
	})

	framework.ConformanceContext("V3-SPOT-HISTORY-FILTERS", func() {
		var (
			b                  trading.Symbol
			onA, onB, expiredA order
		)
		BeforeEach(func(ctx SpecContext) {
			b = restingSymbols(ctx, t, 2)[1]
			onA = t.Finished(ctx, restingBuy(s, 3))
			onB = t.Finished(ctx, restingBuy(b, 3))
			expiredA = t.PlaceOK(ctx, restingBuy(s, 3).With("time_in_force", "IOC"))
			Expect(expiredA["status"]).To(Equal("expired"), "an IOC buy at a few ticks expires")
		})
		has := func(recs []order, o order) bool {
			return trading.FindOrder(recs, trading.StrField(o, "client_order_id")) != nil
		}

		It("symbol selects one symbol", func(ctx SpecContext) {
			recs := t.History(ctx, url.Values{"symbol": {s.Code}})
			Expect(has(recs, onA)).To(BeTrue(), "history?symbol=%s holds the order on %s; listed %v", s, s, trading.CloidsOf(recs))
			Expect(has(recs, onB)).To(BeFalse(), "history?symbol=%s leaves out the order on %s", s, b)
			for _, r := range recs {
				Expect(r["symbol"]).To(Equal(s.Code), "history?symbol=%s", s)
			}
		})
		It("symbol takes a comma-separated list", func(ctx SpecContext) {
			recs := t.History(ctx, url.Values{"symbol": {s.Code + "," + b.Code}})
			Expect(has(recs, onA) && has(recs, onB)).To(BeTrue(), "history?symbol=%s,%s holds orders on both; listed %v", s, b, trading.CloidsOf(recs))
			for _, r := range recs {
				Expect(r["symbol"]).To(BeElementOf(s.Code, b.Code), "history?symbol=%s,%s", s, b)
			}
		})
		DescribeTable("statuses selects by status",
			func(ctx SpecContext, statuses string, wantCanceled, wantExpired bool) {
				recs := t.History(ctx, url.Values{"statuses": {statuses}})
				Expect(has(recs, onA)).To(Equal(wantCanceled), "history?statuses=%s and the canceled order; listed %v", statuses, trading.CloidsOf(recs))
				Expect(has(recs, expiredA)).To(Equal(wantExpired), "history?statuses=%s and the expired order; listed %v", statuses, trading.CloidsOf(recs))
				for _, r := range recs {
					Expect(r["status"]).To(BeElementOf(strings.Split(statuses, ",")), "history?statuses=%s", statuses)
				}
			},
			Entry(nil, "canceled", true, false),
			Entry(nil, "expired", false, true),
			Entry("a comma-separated list", "canceled,expired", true, true),
		)
		It("from and till select by time", func(ctx SpecContext) {
			at := trading.TimeField(onA, "created_at")
			stamp := func(d time.Duration) string { return at.Add(d).Format(time.RFC3339Nano) }
			inside := t.History(ctx, url.Values{"by": {"timestamp"}, "from": {stamp(-time.Minute)}, "till": {stamp(time.Minute)}})
			Expect(has(inside, onA)).To(BeTrue(), "from and till a minute around its creation at %s hold the order; listed %v", at, trading.CloidsOf(inside))
			later := t.History(ctx, url.Values{"by": {"timestamp"}, "from": {stamp(time.Minute)}})
			Expect(has(later, onA)).To(BeFalse(), "from a minute after its creation at %s leaves the order out", at)
			earlier := t.History(ctx, url.Values{"by": {"timestamp"}, "till": {stamp(-time.Minute)}})
			Expect(has(earlier, onA)).To(BeFalse(), "till a minute before its creation at %s leaves the order out", at)
		})
	})
})

var _ = framework.AreaDescribe("Spot order history", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)

	framework.ConformanceContext("V3-SPOT-HISTORY-CLOID", func() {
		DescribeTable("client_order_id overrides every other parameter",
			func(ctx SpecContext, others func(context.Context, trading.Symbol) url.Values) {
				p := restingBuy(s, 3)
				t.Finished(ctx, p)
				q := others(ctx, s)
				q.Set("client_order_id", p["client_order_id"])
				recs := t.History(ctx, q)
				Expect(recs).NotTo(BeEmpty(), "history?%s finds the order despite the other parameters", q.Encode())
				for _, r := range recs {
					Expect(r["client_order_id"]).To(Equal(p["client_order_id"]), "history?%s answers that order only", q.Encode())
				}
			},
			Entry("limit 1 and offset 5", func(context.Context, trading.Symbol) url.Values { return url.Values{"limit": {"1"}, "offset": {"5"}} }),
			Entry("another symbol", func(ctx context.Context, s trading.Symbol) url.Values {
				return url.Values{"symbol": {otherSymbol(ctx, s)}}
			}),
			Entry("another status", func(context.Context, trading.Symbol) url.Values { return url.Values{"statuses": {"filled"}} }),
			Entry("a window in the future", func(context.Context, trading.Symbol) url.Values {
				return url.Values{"by": {"timestamp"}, "from": {time.Now().Add(240 * time.Hour).UTC().Format(time.RFC3339)}}
			}),
		)
	})

	framework.ConformanceIt("V3-SPOT-HISTORY-PAGING", SpecPriority(5), func(ctx SpecContext) {
		// More than a default page of records: top the history up to 101.
		have := len(t.History(ctx, url.Values{"limit": {"1000"}}))
		// IOC buys at a few ticks expire at once into the history: one
		// request each.
		trading.Each(101-have, func(int) {
			o := t.PlaceOK(ctx, restingBuy(s, 3).With("time_in_force", "IOC"))
			Expect(o["status"]).To(Equal("expired"), "an IOC buy at a few ticks, with nothing to meet")
		})

		Expect(t.History(ctx, nil)).To(HaveLen(100), "the default limit is 100 (the history holds more)")
		all := t.History(ctx, url.Values{"limit": {"1000"}})
		Expect(len(all)).To(SatisfyAll(BeNumerically(">", 100), BeNumerically("<=", 1000)), "limit 1000 (the maximum) is accepted")
		t.ExpectAtMost(ctx, "/spot/history/order", url.Values{"limit": {"1001"}}, 1000, "limit above the maximum 1000")

		five := t.History(ctx, url.Values{"limit": {"5"}})
		Expect(five).To(HaveLen(5), "limit 5")
		Expect(trading.IDsOf(t.History(ctx, url.Values{"limit": {"5"}, "offset": {"0"}}))).To(Equal(trading.IDsOf(five)), "offset defaults to 0")
		Expect(trading.IDsOf(t.History(ctx, url.Values{"limit": {"3"}, "offset": {"2"}}))).To(Equal(trading.IDsOf(five)[2:]), "offset 2 skips two records")
		t.History(ctx, url.Values{"offset": {"100000"}})
		t.ExpectAtMost(ctx, "/spot/history/order", url.Values{"offset": {"100001"}}, 0, "offset above the maximum 100000")

		trading.ExpectIDsOrdered(t.History(ctx, url.Values{"sort": {"ASC"}}), true, "sort ASC")
		trading.ExpectIDsOrdered(t.History(ctx, url.Values{"sort": {"DESC"}}), false, "sort DESC")
		trading.ExpectIDsOrdered(t.History(ctx, nil), false, "sort by default (DESC)")
	})

	// Deletion after 24 hours needs the emulator clock (Serial), and a fill
	// for the record that must stay.
	framework.ConformanceIt("V3-SPOT-HISTORY-24H", Serial, Label(framework.LabelEmulatorOnly), func(ctx SpecContext) {
		framework.Current().RequireEmulator()
		cp := newTrader(target.RoleCounterparty)
		idle := restingBuy(s, 3)
		t.Finished(ctx, idle)
		m := fillMarket(ctx, t, cp, 2, nil)
		traded, _ := m.Trade(ctx, t, cp, "buy", 1, 0)
		inHistory := func(o params) bool {
			return len(t.History(ctx, url.Values{"client_order_id": {o["client_order_id"]}})) > 0
		}
		tradedP := params{"client_order_id": trading.StrField(traded, "client_order_id")}
		Expect(inHistory(idle)).To(BeTrue(), "a canceled order is in history at first")

		advance(ctx, 23*time.Hour)
		Expect(inHistory(idle)).To(BeTrue(), "an order without executions is still in history after 23 hours")
		advance(ctx, time.Hour+time.Minute)
		Eventually(ctx, func() bool { return inHistory(idle) }).WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
			Should(BeFalse(), "an order without executions is deleted from history after 24 hours")
		Expect(inHistory(tradedP)).To(BeTrue(), "an order with executions stays in history after 24 hours")
	})
})

// otherSymbol is a working spot symbol other than s (s itself when there is
// none).
func otherSymbol(ctx context.Context, s trading.Symbol) string {
	GinkgoHelper()
	for _, o := range trading.WorkingSymbols(ctx) {
		if o.Code != s.Code {
			return o.Code
		}
	}
	return s.Code
}
