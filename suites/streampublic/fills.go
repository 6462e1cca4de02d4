package streampublic

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// restTrade is one trade of an order, as the REST answer shows it.
type restTrade struct {
	ID       string
	Price    decimal.Decimal
	Quantity decimal.Decimal
	At       time.Time
}

// tradeOf reads the (only) trade of a taker's create answer.
func tradeOf(o trading.Order) restTrade {
	GinkgoHelper()
	ts, ok := o["trades"].([]any)
	Expect(ok && len(ts) == 1).To(BeTrue(), "the taker's answer lists its one trade: %v", o)
	t, _ := ts[0].(map[string]any)
	return restTrade{ID: fmt.Sprint(t["id"]), Price: trading.DecField(t, "price"), Quantity: trading.DecField(t, "quantity"),
		At: trading.TimeField(t, "timestamp")}
}

// entriesOf returns the entries of a notification for a symbol.
func entriesOf(n notification, sym string) []map[string]any { return n.symbols[sym] }

// dec reads a decimal string or a JSON number (zero when neither).
func dec(v any) decimal.Decimal {
	d, _ := decimal.NewFromString(fmt.Sprint(v))
	return d
}

func idOf(e map[string]any) string { return fmt.Sprint(e["i"]) }

// collect reads notifications on ch until one satisfies done or the
// deadline passes, returning all it read.
func (s *session) collect(ch string, deadline time.Time, done func(notification) bool) []notification {
	var out []notification
	for {
		n, ok := s.within(ch, time.Until(deadline))
		if !ok {
			return out
		}
		out = append(out, n)
		if done(n) {
			return out
		}
	}
}

func hasTrade(n notification, sym, id string) bool {
	for _, e := range entriesOf(n, sym) {
		if idOf(e) == id {
			return true
		}
	}
	return false
}

var _ = framework.AreaDescribe("Market data stream: trades made over REST", Ordered, func() {
	// Over 150 lines: Ordered, its specs read what the one BeforeAll traded; in parts, each part would trade again.
	var (
		m             trading.Market
		first, second restTrade
		tradesSnap    notification   // trades, limit 1, after the first trade
		tradesSeen    []notification // trades notifications after the second trade
		noLimitSeen   []notification // on a subscription without limit
		candleSnap    = map[string]notification{}
		candleSeen    = map[string][]notification{}
		convertedSeen []notification
		convCur       string
	)

	BeforeAll(func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		maker := trading.NewTrader(target.RoleFull, trading.Spot)
		taker := trading.NewTrader(target.RoleCounterparty, trading.Spot)
		m = trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 2, Cloids: cloids,
			Need: func(m trading.Market) (quote, base decimal.Decimal) {
				return m.At(m.Room).Mul(m.Qn(4)).Mul(decimal.NewFromInt(2)), m.Qn(4)
			}})[0]
		sym := m.Sym.Code
		// Two trades before subscribing, so that limit 1 has more history
		// than it may send.
		m.Trade(ctx, maker, taker, "sell", 1, 0)
		_, t1 := m.Trade(ctx, maker, taker, "sell", 1, 0)
		first = tradeOf(t1)

		s := open(ctx)
		s.subscribe(ctx, "trades", map[string]any{"symbols": []string{sym}, "limit": 1})
		tradesSnap = s.next("trades")
		for _, p := range periods {
			s.subscribe(ctx, "candles/"+p, map[string]any{"symbols": []string{sym}, "limit": 1})
			candleSnap[p] = s.next("candles/" + p)
		}
		convCur = m.Sym.Quote
		s.subscribe(ctx, "converted/candles/M1", map[string]any{"symbols": []string{sym}, "target_currency": convCur})
		plain := open(ctx)
		plain.subscribe(ctx, "trades", map[string]any{"symbols": []string{sym}})

		_, t2 := m.Trade(ctx, maker, taker, "buy", 2, 1)
		second = tradeOf(t2)

		deadline := time.Now().Add(framework.Timeouts.Eventually)
		tradesSeen = s.collect("trades", deadline, func(n notification) bool { return hasTrade(n, sym, second.ID) })
		noLimitSeen = plain.collect("trades", deadline, func(n notification) bool { return hasTrade(n, sym, second.ID) })
		isSecond := func(n notification) bool {
			es := entriesOf(n, sym)
			return n.member == "update" && len(es) > 0 && dec(es[len(es)-1]["c"]).Equal(second.Price)
		}
		for _, p := range periods {
			candleSeen[p] = s.collect("candles/"+p, deadline, isSecond)
		}
		convertedSeen = s.collect("converted/candles/M1", deadline, func(n notification) bool { return len(entriesOf(n, sym)) > 0 })
	})

	// updateWith is the trades update that carries the second trade.
	updateWith := func() (notification, map[string]any) {
		GinkgoHelper()
		for _, n := range tradesSeen {
			for _, e := range entriesOf(n, m.Sym.Code) {
				if idOf(e) == second.ID && n.member == "update" {
					return n, e
				}
			}
		}
		Fail(fmt.Sprintf("no trades update carried trade %s of %s within %s; saw:\n%v", second.ID, m.Sym, framework.Timeouts.Eventually, texts(tradesSeen)))
		return notification{}, nil
	}

	framework.ConformanceIt("V3-WS-PUB-LIMIT-SNAPSHOT", func() {
		Expect(tradesSnap.member).To(Equal("snapshot"), "with limit 1 the first notification after the answer is the snapshot: %s", tradesSnap.text)
		es := entriesOf(tradesSnap, m.Sym.Code)
		Expect(len(es)).To(BeNumerically("<=", 1), "the snapshot holds at most limit (1) trades: %s", tradesSnap.text)
		Expect(es).NotTo(BeEmpty(), "%s traded (trade %s), so its latest trade is in the snapshot: %s", m.Sym, first.ID, tradesSnap.text)
		Expect(dec(es[0]["i"]).GreaterThanOrEqual(dec(first.ID))).To(BeTrue(), "the snapshot holds the latest trade, not an older one than %s: %s", first.ID, tradesSnap.text)
	})

	framework.ConformanceIt("V3-WS-PUB-TRADES-REST", func() {
		_, e := updateWith()
		Expect(dec(e["p"])).To(trading.DecEqual(second.Price), "the stream's trade %s has the REST trade's price: %v", second.ID, e)
		Expect(dec(e["q"])).To(trading.DecEqual(second.Quantity), "the stream's trade %s has the REST trade's quantity: %v", second.ID, e)
	})

	framework.ConformanceIt("V3-WS-PUB-TRADES-FIELDS", func() {
		_, e := updateWith()
		// The document lists an entry's fields; it does not close the set,
		// so a field it does not name is no failure (the schema holds the five).
		Expect(framework.SchemaProblems(e, framework.Schema{"t": {Kind: framework.Number}, "i": {Kind: framework.Number},
			"p": {Kind: framework.Decimal}, "q": {Kind: framework.Decimal}, "s": {Kind: framework.String}})).To(BeEmpty(), "entry %v", e)
		Expect(e["s"]).To(BeElementOf("buy", "sell"), "s is buy or sell: %v", e)
		Expect(time.UnixMilli(dec(fmt.Sprint(e["t"])).IntPart()).Sub(second.At).Abs()).To(BeNumerically("<", time.Minute), "t is the trade's time in Unix milliseconds (REST says %s): %v", second.At, e)
	})

	framework.ConformanceIt("V3-WS-PUB-TRADE-SIDE", func() {
		_, e := updateWith()
		framework.Observe("V3-WS-PUB-TRADE-SIDE", "trade %s: the taker sold (the maker bought); the stream's s is %v", second.ID, e["s"])
	})

	framework.ConformanceIt("V3-WS-PUB-UPDATE", func() {
		n, _ := updateWith()
		for _, e := range entriesOf(n, m.Sym.Code) {
			Expect(dec(e["i"]).GreaterThan(dec(first.ID))).To(BeTrue(), "the update carries trades after the snapshot, not trade %s again: %s", idOf(e), n.text)
		}
	})

	framework.ConformanceIt("V3-WS-PUB-LIMIT-DEFAULT", func() {
		Expect(noLimitSeen).NotTo(BeEmpty(), "a subscription without limit still gets the update of trade %s", second.ID)
		for _, n := range noLimitSeen {
			if n.member == "snapshot" {
				Expect(entriesOf(n, m.Sym.Code)).To(BeEmpty(), "without limit (default 0, no history) no past trade is sent: %s", n.text)
			}
			for _, e := range entriesOf(n, m.Sym.Code) {
				Expect(dec(e["i"]).GreaterThan(dec(first.ID))).To(BeTrue(), "without limit no past trade (%s) is sent: %s", first.ID, n.text)
			}
		}
	})

	// candleOf is the period's update for the second trade.
	candleOf := func(p string) map[string]any {
		GinkgoHelper()
		seen := candleSeen[p]
		Expect(seen).NotTo(BeEmpty(), "an update on candles/%s after trade %s", p, second.ID)
		n := seen[len(seen)-1]
		es := entriesOf(n, m.Sym.Code)
		Expect(n.member == "update" && len(es) > 0).To(BeTrue(), "an update on candles/%s carries the candle of trade %s at %s; saw:\n%v", p, second.ID, second.Price, texts(seen))
		return es[len(es)-1]
	}

	framework.ConformanceIt("V3-WS-PUB-CANDLE-FIELDS", func() {
		e := candleOf("M1")
		expectCandle(e)
	})

	framework.ConformanceIt("V3-WS-PUB-CANDLE-TRADE", func() {
		for _, p := range periods {
			e := candleOf(p)
			start := time.UnixMilli(dec(fmt.Sprint(e["t"])).IntPart())
			Expect(start.After(second.At)).To(BeFalse(), "candles/%s: the candle starts (%s) at or before the trade (%s): %v", p, start, second.At, e)
			Expect(dec(e["l"]).LessThanOrEqual(second.Price) && dec(e["h"]).GreaterThanOrEqual(second.Price)).To(BeTrue(), "candles/%s: low and high bracket the price %s: %v", p, second.Price, e)
			Expect(dec(e["c"])).To(trading.DecEqual(second.Price), "candles/%s: close is the trade's price: %v", p, e)
			want := second.Quantity
			if before := entriesOf(candleSnap[p], m.Sym.Code); len(before) > 0 && fmt.Sprint(before[len(before)-1]["t"]) == fmt.Sprint(e["t"]) {
				want = want.Add(dec(before[len(before)-1]["v"]))
			}
			Expect(dec(e["v"]).GreaterThanOrEqual(want)).To(BeTrue(), "candles/%s: the volume counts the trade's quantity %s (at least %s): %v", p, second.Quantity, want, e)
		}
	})

	framework.ConformanceIt("V3-WS-PUB-CONVERTED-FIELDS", func() {
		var es []map[string]any
		for _, n := range convertedSeen {
			es = append(es, entriesOf(n, m.Sym.Code)...)
		}
		Expect(es).NotTo(BeEmpty(), "converted/candles/M1 into %s sent a candle of %s after trade %s; saw:\n%v", convCur, m.Sym, second.ID, texts(convertedSeen))
		expectCandle(es[len(es)-1])
	})
})

// expectCandle checks a candles entry's fields.
func expectCandle(e map[string]any) {
	GinkgoHelper()
	// Every listed field, typed; fields the document does not name are allowed.
	Expect(framework.SchemaProblems(e, framework.Schema{"t": {Kind: framework.Number}, "o": {Kind: framework.Decimal}, "c": {Kind: framework.Decimal},
		"h": {Kind: framework.Decimal}, "l": {Kind: framework.Decimal}, "v": {Kind: framework.Decimal}, "q": {Kind: framework.Decimal}})).To(BeEmpty(), "entry %v", e)
	o, c, h, l := dec(e["o"]), dec(e["c"]), dec(e["h"]), dec(e["l"])
	Expect(l.LessThanOrEqual(o) && l.LessThanOrEqual(c) && o.LessThanOrEqual(h) && c.LessThanOrEqual(h)).To(BeTrue(), "l <= o, c <= h: %v", e)
}

func texts(ns []notification) string {
	b, _ := json.Marshal(func() []string {
		out := make([]string, 0, len(ns))
		for _, n := range ns {
			out = append(out, n.text)
		}
		return out
	}())
	return string(b)
}

// cloids names the suite's orders.
const cloids trading.Cloids = "cfw"
