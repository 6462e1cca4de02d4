package v2history

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// cloids are the client order ids of this package's orders.
const cloids = trading.Cloids("v2h")

// tradeSchema is the User trade table.
var tradeSchema = framework.Schema{
	"id":            {Kind: framework.Number},
	"orderId":       {Kind: framework.Number},
	"clientOrderId": {Kind: framework.String},
	"symbol":        {Kind: framework.String},
	"side":          {Kind: framework.String},
	"quantity":      {Kind: framework.Decimal},
	"price":         {Kind: framework.Decimal},
	"fee":           {Kind: framework.Decimal},
	"liquidation":   {Kind: framework.Bool, Optional: true},
	"timestamp":     {Kind: framework.DateTime},
	"taker":         {Kind: framework.Bool},
}

// made is what the setup traded: the taker's (full role) trades, oldest
// first, and the taker order of the two-fill trade with its trade ids.
type made struct {
	syms        [2]string
	ids         []string // trade ids of the taker, oldest first
	times       []string
	twoFillID   string
	twoFillIDs  []string
	restingIDs  []string // the maker's orders the two-fill trade met
	otherSymIDs []string
}

// idOf reads a trade or order id (a JSON number) as a string.
func idOf(v any) string { return fmt.Sprint(v) }

// history reads GET /api/2/history/trades.
func history(ctx context.Context, c *client.Client, q url.Values) []map[string]any {
	GinkgoHelper()
	objs, _ := framework.GetObjects(ctx, c, "/history/trades", q)
	return objs
}

var _ = framework.AreaDescribe("v2 trading history: GET /history/trades", Ordered, SpecPriority(5), func() {
	// Over 150 lines: Ordered, its specs read what the one BeforeAll traded; in parts, each part would trade again.
	var (
		c  *client.Client
		mk made
	)
	BeforeAll(func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		mk = made{} // afresh when a third party's order made the first attempt run again
		maker, taker := trading.NewTrader(target.RoleCounterparty, trading.Spot), trading.NewTrader(target.RoleFull, trading.Spot)
		ms := trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 2, Ticks: 4, Cloids: cloids,
			Need: func(m trading.Market) (quote, base decimal.Decimal) {
				return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(10)), m.Q.Mul(decimal.NewFromInt(10))
			}})
		mk.syms = [2]string{ms[0].Sym.Code, ms[1].Sym.Code}
		// Three single-fill trades on the first symbol, then one taker
		// meeting two resting orders, then one trade on the second symbol.
		for k := int64(1); k <= 3; k++ {
			_, to := ms[0].Trade(ctx, maker, taker, "sell", 1, k)
			for _, t := range to["trades"].([]any) {
				tr := t.(map[string]any)
				mk.ids, mk.times = append(mk.ids, idOf(tr["id"])), append(mk.times, tr["timestamp"].(string))
			}
		}
		for range 2 {
			mo := ms[0].Rest(ctx, maker, ms[0].Limit("buy", 1, -1))
			mk.restingIDs = append(mk.restingIDs, idOf(mo["id"]))
		}
		to := ms[0].Take(ctx, taker, ms[0].Limit("sell", 2, -1))
		mk.twoFillID = idOf(to["id"])
		for _, t := range to["trades"].([]any) {
			mk.twoFillIDs = append(mk.twoFillIDs, idOf(t.(map[string]any)["id"]))
		}
		Expect(mk.twoFillIDs).To(HaveLen(2), "the taker met two resting orders: %v", to)
		_, o := ms[1].Trade(ctx, maker, taker, "sell", 1, 1)
		for _, t := range o["trades"].([]any) {
			mk.otherSymIDs = append(mk.otherSymIDs, idOf(t.(map[string]any)["id"]))
		}
	})
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-TRADE-FIELDS", func(ctx SpecContext) {
		ts := history(ctx, c, url.Values{"limit": {"20"}})
		Expect(ts).NotTo(BeEmpty(), "the account has traded")
		for _, t := range ts {
			Expect(t).To(framework.MatchSchema(tradeSchema), "trade %v", t["id"])
			Expect(t["side"]).To(BeElementOf("buy", "sell"), "trade %v", t["id"])
		}
	})

	framework.ConformanceIt("V2-TRADE-TAKER", func(ctx SpecContext) {
		q := url.Values{"symbol": {mk.syms[0]}, "limit": {"1000"}}
		took := 0
		for _, t := range history(ctx, c, q) {
			if idOf(t["orderId"]) == mk.twoFillID {
				took++
				Expect(t["taker"]).To(Equal(true), "trade %v of order %s, which met two resting orders at once", t["id"], mk.twoFillID)
			}
		}
		Expect(took).To(Equal(2), "the history holds both trades of order %s", mk.twoFillID)
		met := 0
		for _, t := range history(ctx, framework.Current().V2Signed(target.RoleCounterparty), q) {
			if slices.Contains(mk.restingIDs, idOf(t["orderId"])) {
				met++
				Expect(t["taker"]).To(Equal(false), "trade %v of resting order %v, which the taker met", t["id"], t["orderId"])
			}
		}
		Expect(met).To(Equal(2), "the counterparty's history holds one trade of each resting order %v", mk.restingIDs)
	})

	framework.ConformanceIt("V2-HISTORY-SYMBOL", func(ctx SpecContext) {
		ts := history(ctx, c, url.Values{"symbol": {mk.syms[1]}, "limit": {"1000"}})
		Expect(framework.IDsOf(ts, "symbol")).To(HaveEach(mk.syms[1]), "symbol=%s", mk.syms[1])
		var ids []string
		for _, t := range ts {
			ids = append(ids, idOf(t["id"]))
		}
		Expect(ids).To(ContainElements(mk.otherSymIDs), "the trade on %s", mk.syms[1])
		Expect(ids).NotTo(ContainElement(mk.ids[0]), "a trade on %s", mk.syms[0])
	})

	framework.ConformanceIt("V2-HISTORY-SORT", func(ctx SpecContext) {
		q := url.Values{"symbol": {mk.syms[0]}, "from": {mk.ids[0]}, "till": {mk.ids[2]}}
		ids := func(ts []map[string]any) []string {
			out := []string{}
			for _, t := range ts {
				out = append(out, idOf(t["id"]))
			}
			return out
		}
		Expect(ids(history(ctx, c, q))).To(Equal([]string{mk.ids[2], mk.ids[1], mk.ids[0]}), "default sort (DESC)")
		q.Set("sort", "ASC")
		Expect(ids(history(ctx, c, q))).To(Equal(mk.ids[:3]), "sort=ASC")
	})

	framework.ConformanceIt("V2-HISTORY-BY", func(ctx SpecContext) {
		ids := func(ts []map[string]any) []string {
			out := []string{}
			for _, t := range ts {
				out = append(out, idOf(t["id"]))
			}
			return out
		}
		byID := history(ctx, c, url.Values{"symbol": {mk.syms[0]}, "from": {mk.ids[1]}, "till": {mk.ids[2]}, "sort": {"ASC"}})
		Expect(ids(byID)).To(Equal(mk.ids[1:3]), "by id (the default): from=%s till=%s", mk.ids[1], mk.ids[2])
		// Trades may share a millisecond: by time, the bounds must hold for
		// every trade answered, and keep the trades made within them.
		from, till := mk.times[1], mk.times[2]
		byTime := history(ctx, c, url.Values{"symbol": {mk.syms[0]}, "by": {"timestamp"}, "from": {from}, "till": {till}, "sort": {"ASC"}})
		f, _ := time.Parse(time.RFC3339Nano, from)
		t, _ := time.Parse(time.RFC3339Nano, till)
		for _, tr := range byTime {
			at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(tr["timestamp"]))
			Expect(err).NotTo(HaveOccurred(), "trade %v timestamp", tr["id"])
			Expect(at.Before(f) || at.After(t)).To(BeFalse(), "by=timestamp from=%s till=%s answered trade %v at %s", from, till, tr["id"], tr["timestamp"])
		}
		Expect(ids(byTime)).To(ContainElements(mk.ids[1:3]), "by=timestamp: from=%s till=%s keeps the trades made then", from, till)
	})

	framework.ConformanceIt("V2-HISTORY-LIMIT", func(ctx SpecContext) {
		Expect(history(ctx, c, url.Values{"limit": {"2"}})).To(HaveLen(2), "limit=2 of at least 6 trades")
	})

	framework.ConformanceIt("V2-HISTORY-OFFSET", func(ctx SpecContext) {
		q := url.Values{"symbol": {mk.syms[0]}, "from": {mk.ids[0]}, "till": {mk.ids[2]}, "sort": {"ASC"}, "offset": {"1"}}
		ts := history(ctx, c, q)
		var ids []string
		for _, t := range ts {
			ids = append(ids, idOf(t["id"]))
		}
		Expect(ids).To(Equal(mk.ids[1:3]), "offset=1 skips the first of three")
	})

	framework.ConformanceIt("V2-HISTORY-MARGIN", func(ctx SpecContext) {
		has := func(q url.Values) bool {
			q.Set("symbol", mk.syms[0])
			q.Set("from", mk.ids[0])
			q.Set("till", mk.ids[0])
			return len(history(ctx, c, q)) > 0
		}
		Expect(has(url.Values{})).To(BeTrue(), "a spot trade with the default margin=include")
		Expect(has(url.Values{"margin": {"include"}})).To(BeTrue(), "a spot trade with margin=include")
		Expect(has(url.Values{"margin": {"ignore"}})).To(BeTrue(), "a spot trade with margin=ignore")
		Expect(has(url.Values{"margin": {"only"}})).To(BeFalse(), "a spot trade with margin=only")
	})

	framework.ConformanceIt("V2-HISTORY-ORDER-TRADES", func(ctx SpecContext) {
		ts, _ := framework.GetObjects(ctx, c, "/history/order/"+mk.twoFillID+"/trades", nil)
		var ids []string
		for _, t := range ts {
			Expect(idOf(t["orderId"])).To(Equal(mk.twoFillID), "trade %v of order %s", t["id"], mk.twoFillID)
			ids = append(ids, idOf(t["id"]))
		}
		Expect(ids).To(ConsistOf(mk.twoFillIDs), "the two trades of order %s", mk.twoFillID)
	})

	framework.ConformanceIt("V2-HISTORY-LIMIT-ZERO", func(ctx SpecContext) {
		ex, _ := c.Get(ctx, "/history/trades", url.Values{"limit": {"0"}})
		n := "no array"
		if a, ok := trading.Decoded(ex).([]any); ok {
			n = fmt.Sprintf("%d trades", len(a))
		}
		framework.Observe("V2-HISTORY-LIMIT-ZERO", "limit=0 -> HTTP %d, %s", ex.Status, n)
	})

	framework.ConformanceIt("V2-HISTORY-LIMIT-DEFAULT", func(ctx SpecContext) {
		if n := len(history(ctx, c, url.Values{"limit": {"101"}})); n < 101 {
			// Make the account's history longer than the default: one taker
			// order meets 101 resting ones of one quantity step each.
			maker, taker := trading.NewTrader(target.RoleCounterparty, trading.Spot), trading.NewTrader(target.RoleFull, trading.Spot)
			ms := trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 4, Cloids: cloids,
				Need: func(m trading.Market) (quote, base decimal.Decimal) {
					return m.At(m.Room).Mul(m.Sym.Step).Mul(decimal.NewFromInt(220)), m.Sym.Step.Mul(decimal.NewFromInt(110))
				}})
			m := ms[0]
			m.Q = m.Sym.Step
			m.Rest(ctx, maker, m.Limit("sell", 1, 2)) // the book is read once, before the first
			trading.Each(100, func(int) { maker.PlaceOK(ctx, m.Limit("sell", 1, 2)) })
			to := m.Take(ctx, taker, m.Limit("buy", 101, 2))
			Expect(to["trades"]).To(HaveLen(101), "the taker met 101 resting orders: %v", to["status"])
		}
		ts := history(ctx, c, nil)
		Expect(ts).To(HaveLen(100), "without limit, of more than 100 trades")
	})
})
