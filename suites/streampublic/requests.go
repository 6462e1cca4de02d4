package streampublic

import (
	"context"
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// twoSymbols returns two working spot symbols of the target.
func twoSymbols(ctx context.Context) (trading.Symbol, trading.Symbol) {
	GinkgoHelper()
	syms := trading.WorkingSymbols(ctx)
	if len(syms) < 2 {
		Skip(fmt.Sprintf("needs two working spot symbols, the target lists %d", len(syms)))
	}
	return syms[0], syms[1]
}

func symbolsParam(syms ...string) map[string]any { return map[string]any{"symbols": syms} }

// stillOpen checks that the connection answers a request after what came
// before.
func stillOpen(ctx context.Context, s *session, why string) {
	GinkgoHelper()
	id := s.id()
	m, err := s.c.Request(ctx, framework.Timeouts.Eventually, id, "subscriptions", map[string]any{"ch": "trades"})
	Expect(err).NotTo(HaveOccurred(), "%s: the connection stays open and answers the next request", why)
	Expect(m.Error).To(BeNil(), "%s: subscriptions is answered with a result: %s", why, m.Raw)
}

var _ = framework.AreaDescribe("Market data stream: requests and answers", func() {
	framework.ConformanceIt("V3-WS-PUB-SUBSCRIBE", func(ctx SpecContext) {
		a, b := twoSymbols(ctx)
		s := open(ctx)
		r := s.subscribe(ctx, "trades", symbolsParam(a.Code, b.Code))
		Expect(r.Ch).NotTo(BeNil(), "result.ch is present: %s", r.raw)
		Expect(*r.Ch).To(Equal("trades"), "result.ch names the channel: %s", r.raw)
		Expect(r.Subscriptions).To(ContainElements(a.Code, b.Code), "result.subscriptions lists the symbols subscribed: %s", r.raw)
	})

	framework.ConformanceIt("V3-WS-PUB-SUBSCRIPTIONS", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "candles/M1", symbolsParam(a.Code))
		r := resultOf(s.request(ctx, s.id(), "subscriptions", "candles/M1", nil))
		Expect(r.Subscriptions).To(ContainElement(a.Code), "subscriptions on candles/M1 lists %s: %s", a, r.raw)
		r = resultOf(s.request(ctx, s.id(), "subscriptions", "trades", nil))
		Expect(r.Subscriptions).NotTo(ContainElement(a.Code), "subscriptions on trades, never subscribed to, lists none of candles/M1's symbols: %s", r.raw)
	})

	framework.ConformanceIt("V3-WS-PUB-UNSUBSCRIBE", func(ctx SpecContext) {
		a, b := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "trades", symbolsParam(a.Code, b.Code))
		m := s.request(ctx, s.id(), "unsubscribe", "trades", symbolsParam(a.Code))
		Expect(m.Error).To(BeNil(), "unsubscribe is answered with a result: %s", m.Raw)
		r := resultOf(s.request(ctx, s.id(), "subscriptions", "trades", nil))
		Expect(r.Subscriptions).NotTo(ContainElement(a.Code), "after unsubscribe, subscriptions no longer lists %s: %s", a, r.raw)
		Expect(r.Subscriptions).To(ContainElement(b.Code), "the other symbol stays subscribed: %s", r.raw)
	})

	framework.ConformanceIt("V3-WS-PUB-UNSUBSCRIBE-RESULT", func(ctx SpecContext) {
		a, b := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "trades", symbolsParam(a.Code, b.Code))
		m := s.request(ctx, s.id(), "unsubscribe", "trades", symbolsParam(a.Code))
		framework.Observe("V3-WS-PUB-UNSUBSCRIBE-RESULT", "after subscribing %s and %s, unsubscribe %s was answered %s", a, b, a, m.Raw)
	})

	framework.ConformanceIt("V3-WS-PUB-ID-RESULT", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		for _, req := range []struct{ method, ch string }{{"subscribe", "trades"}, {"subscriptions", "trades"}, {"unsubscribe", "trades"}} {
			id := s.id()
			m := s.request(ctx, id, req.method, req.ch, symbolsParam(a.Code))
			Expect(m.Error).To(BeNil(), "%s is answered with a result: %s", req.method, m.Raw)
			Expect(m.HasID && m.ID == id).To(BeTrue(), "the result of %s carries its id %q: %s", req.method, id, m.Raw)
		}
	})

	framework.ConformanceIt("V3-WS-PUB-ID-ERROR", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		id := s.id()
		expectError(s.request(ctx, id, "subscribe", "no-such-channel", symbolsParam(a.Code)), id, "subscribe to an unknown channel")
	})

	framework.ConformanceIt("V3-WS-PUB-ID-OPTIONAL", func(ctx SpecContext) {
		s := open(ctx)
		Expect(s.c.Send(map[string]any{"method": "subscriptions", "ch": "trades"})).To(Succeed())
		n := s.nextWhere("", func(n notification) bool { _, ok := n.raw["result"]; return ok }, "a result")
		Expect(n.raw).NotTo(HaveKey("id"), "the answer to a request without id has no id: %s", n.text)
	})
})

var _ = framework.AreaDescribe("Market data stream: requests and answers", func() {
	framework.ConformanceIt("V3-WS-PUB-ERROR-SHAPE", func(ctx SpecContext) {
		s := open(ctx)
		id := s.id()
		m := s.request(ctx, id, "subscribe", "no-such-channel", symbolsParam("BTCUSDT"))
		var body struct {
			Error map[string]any `json:"error"`
		}
		Expect(decodeJSON(m.Raw, &body)).To(Succeed())
		Expect(body.Error).NotTo(BeNil(), "an error answer has an error object: %s", m.Raw)
		Expect(framework.SchemaProblems(body.Error, framework.Schema{
			"code": {Kind: framework.Number}, "message": {Kind: framework.String}, "description": {Kind: framework.String, Optional: true},
		})).To(BeEmpty(), "error is {code Number, message String, description String optional}: %s", m.Raw)
	})

	framework.ConformanceIt("V3-WS-PUB-UNKNOWN-METHOD", func(ctx SpecContext) {
		s := open(ctx)
		id := s.id()
		expectError(s.request(ctx, id, "resubscribe", "trades", nil), id, "an unknown method")
		stillOpen(ctx, s, "after an unknown method")
	})

	framework.ConformanceIt("V3-WS-PUB-UNKNOWN-METHOD-CODE", func(ctx SpecContext) {
		s := open(ctx)
		m := s.request(ctx, s.id(), "resubscribe", "trades", nil)
		framework.Observe("V3-WS-PUB-UNKNOWN-METHOD-CODE", "method resubscribe was answered %s", m.Raw)
	})

	framework.ConformanceContext("V3-WS-PUB-MALFORMED", func() {
		DescribeTable("a member of the wrong type",
			func(ctx SpecContext, frame string) {
				s := open(ctx)
				id := s.id()
				sent := fmt.Sprintf(frame, id) // the messages name the frame sent, not its template
				m, err := s.raw(ctx, id, sent)
				Expect(err).NotTo(HaveOccurred(), "%s is answered", sent)
				expectError(m, id, sent)
				stillOpen(ctx, s, "after "+sent)
			},
			Entry("method a number", `{"method":5,"ch":"trades","id":%q}`),
			Entry("params a string", `{"method":"subscribe","ch":"trades","params":"BTCUSDT","id":%q}`),
			Entry("symbols a string", `{"method":"subscribe","ch":"trades","params":{"symbols":"BTCUSDT"},"id":%q}`),
		)
	})

	framework.ConformanceIt("V3-WS-PUB-NOT-JSON", func(ctx SpecContext) {
		s := open(ctx)
		Expect(s.c.SendRaw([]byte("subscribe trades BTCUSDT"))).To(Succeed())
		n, got := s.within("", quiet*5)
		switch {
		case got:
			framework.Observe("V3-WS-PUB-NOT-JSON", "a frame that is not JSON was answered %s", n.text)
		case s.c.IsClosed():
			framework.Observe("V3-WS-PUB-NOT-JSON", "a frame that is not JSON closed the connection: %s", s.c.CloseReason())
		default:
			framework.Observe("V3-WS-PUB-NOT-JSON", "a frame that is not JSON got no answer within %s", quiet*5)
		}
	})

	framework.ConformanceContext("V3-WS-PUB-UNKNOWN-CHANNEL", func() {
		DescribeTable("is answered with an error",
			func(ctx SpecContext, ch string) {
				a, _ := twoSymbols(ctx)
				s := open(ctx)
				id := s.id()
				m := s.request(ctx, id, "subscribe", ch, map[string]any{"symbols": []string{a.Code}, "target_currency": a.Quote})
				expectError(m, id, "subscribe to "+ch)
			},
			Entry("an unknown name", "tradez"),
			Entry("candles without a period", "candles"),
			Entry("an unknown period", "candles/M2"),
			Entry("a period in the wrong case", "candles/m1"),
			Entry("converted candles of an unknown period", "converted/candles/H2"),
		)
	})

	framework.ConformanceIt("V3-WS-PUB-UNKNOWN-CHANNEL-CODE", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		m := s.request(ctx, s.id(), "subscribe", "tradez", symbolsParam(a.Code))
		framework.Observe("V3-WS-PUB-UNKNOWN-CHANNEL-CODE", "subscribe to tradez was answered %s", m.Raw)
	})

	framework.ConformanceIt("V3-WS-PUB-UNKNOWN-SYMBOL", func(ctx SpecContext) {
		s := open(ctx)
		m := s.request(ctx, s.id(), "subscribe", "trades", symbolsParam("NOSUCHSYMBOL0"))
		framework.Observe("V3-WS-PUB-UNKNOWN-SYMBOL", "subscribe to trades of NOSUCHSYMBOL0 was answered %s", m.Raw)
	})

	framework.ConformanceIt("V3-WS-PUB-SYMBOLS-REQUIRED", func(ctx SpecContext) {
		s := open(ctx)
		for _, params := range []map[string]any{nil, {"limit": 1}} {
			id := s.id()
			expectError(s.request(ctx, id, "subscribe", "trades", params), id, fmt.Sprintf("subscribe to trades with params %v", params))
		}
	})
})

var _ = framework.AreaDescribe("Market data stream: requests and answers", func() {
	framework.ConformanceContext("V3-WS-PUB-LIMIT-BOUNDS", func() {
		DescribeTable("limit",
			func(ctx SpecContext, ch string, limit int, ok bool) {
				a, _ := twoSymbols(ctx)
				s := open(ctx)
				id := s.id()
				m := s.request(ctx, id, "subscribe", ch, map[string]any{"symbols": []string{a.Code}, "limit": limit})
				if ok {
					Expect(m.Error).To(BeNil(), "limit %d is within 0 to 1000: %s", limit, m.Raw)
					return
				}
				expectError(m, id, fmt.Sprintf("limit %d is outside 0 to 1000", limit))
			},
			Entry("0 on trades", "trades", 0, true),
			Entry("1000 on trades", "trades", 1000, true),
			Entry("1000 on candles", "candles/M1", 1000, true),
			Entry("-1 on trades", "trades", -1, false),
			Entry("1001 on trades", "trades", 1001, false),
			Entry("1001 on candles", "candles/M1", 1001, false),
		)
	})

	framework.ConformanceContext("V3-WS-PUB-NO-RIGHT", func() {
		DescribeTable("without login",
			func(ctx SpecContext, ch string) {
				a, _ := twoSymbols(ctx)
				s := open(ctx)
				s.subscribe(ctx, ch, map[string]any{"symbols": []string{a.Code}, "target_currency": a.Quote})
			},
			Entry("trades", "trades"),
			Entry("candles", "candles/M1"),
			Entry("converted candles", "converted/candles/M1"),
		)
	})

	framework.ConformanceContext("V3-WS-PUB-CANDLE-PERIODS", func() {
		var entries []TableEntry
		for _, p := range periods {
			entries = append(entries, Entry(p, p))
		}
		DescribeTable("candles/{period}",
			func(ctx SpecContext, period string) {
				a, _ := twoSymbols(ctx)
				s := open(ctx)
				r := s.subscribe(ctx, "candles/"+period, symbolsParam(a.Code))
				Expect(r.Subscriptions).To(ContainElement(a.Code), "candles/%s is subscribed to: %s", period, r.raw)
			},
			entries,
		)
	})

	framework.ConformanceIt("V3-WS-PUB-CONVERTED", func(ctx SpecContext) {
		a, b := twoSymbols(ctx)
		s := open(ctx)
		r := s.subscribe(ctx, "converted/candles/M1", map[string]any{"symbols": []string{a.Code, b.Code}, "target_currency": a.Quote, "limit": 1})
		Expect(r.Subscriptions).To(ContainElements(a.Code, b.Code), "converted/candles/M1 is subscribed to: %s", r.raw)
		seen := map[string]bool{}
		for len(seen) < 2 {
			n := s.next("converted/candles/M1")
			Expect(n.raw).To(HaveKey("target_currency"), "a converted candles notification carries target_currency: %s", n.text)
			Expect(string(n.raw["target_currency"])).To(Equal(fmt.Sprintf("%q", a.Quote)), "target_currency is the currency requested: %s", n.text)
			for sym := range n.symbols {
				seen[sym] = true
			}
			if n.member == "" {
				Fail("a notification is a snapshot or an update: " + n.text)
			}
		}
	})

	framework.ConformanceIt("V3-WS-PUB-CONVERTED-TARGET", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		id := s.id()
		expectError(s.request(ctx, id, "subscribe", "converted/candles/M1", symbolsParam(a.Code)), id, "converted candles without target_currency")
	})
})

// periods are the documented candle periods.
var periods = []string{"M1", "M3", "M5", "M15", "M30", "H1", "H4", "D1", "D7", "1M"}
