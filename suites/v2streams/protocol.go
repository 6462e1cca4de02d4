package v2streams

import (
	"encoding/json"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 streams: JSON-RPC 2.0", func() {
	framework.ConformanceContext("V2-WS-PATHS", func() {
		DescribeTable("accepts a WebSocket handshake", func(ctx SpecContext, path string) {
			s := open(ctx, path)
			Expect(s.c.IsClosed()).To(BeFalse(), "the connection to %s stays open", path)
		},
			Entry("market data", pathPublic),
			Entry("trading", pathTrading),
			Entry("account", pathAccount),
			Entry("the deprecated single location", pathSingle),
		)
	})

	framework.ConformanceIt("V2-WS-UNION", func(ctx SpecContext) {
		s := open(ctx, pathSingle)
		sym := anySymbol(ctx)
		Expect(object(s.ok(ctx, "getSymbol", frame{"symbol": sym.Code}), "getSymbol result")).To(HaveKeyWithValue("id", sym.Code),
			"the single location answers a market data method")
		s.login(ctx, framework.Current().Account(target.RoleFull))
		Expect(s.ok(ctx, "subscribeReports", frame{})).To(Equal(true), "the single location answers a trading method")
	})

	framework.ConformanceIt("V2-WS-RESULT", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		sym := anySymbol(ctx)
		a := s.call(ctx, "getSymbol", frame{"symbol": sym.Code})
		Expect(a).To(HaveKeyWithValue("jsonrpc", "2.0"), "the answer names the protocol version")
		Expect(a).To(HaveKey("result"), "a successful request is answered with result")
		Expect(a).To(HaveKeyWithValue("id", json.Number("1")), "the answer carries the request's id")

		// A string id comes back as sent.
		s.send(frame{"method": "getSymbol", "params": frame{"symbol": sym.Code}, "id": "req-x"})
		got := s.frames(ctx, "the answer with id \"req-x\"", func(f frame) bool { return f["id"] == "req-x" })
		Expect(got[len(got)-1]).To(And(HaveKeyWithValue("jsonrpc", "2.0"), HaveKey("result")), "the answer to id \"req-x\"")
	})

	framework.ConformanceIt("V2-WS-NOTIFICATION", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		sym := anySymbol(ctx)
		s.send(frame{"method": "getSymbol", "params": frame{"symbol": sym.Code}})
		s.send(frame{"method": "getSymbol", "params": frame{"symbol": "NOSUCHSYMBOL0"}})
		// The server answers in order: once a later request is answered, an
		// answer to the notifications would have come before it.
		s.barrier(ctx, "getSymbol", frame{"symbol": sym.Code})
		Expect(s.pending()).To(BeEmpty(), "requests without id (one valid, one failing) are notifications and get no response")
	})

	framework.ConformanceIt("V2-WS-ERROR", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		a := s.call(ctx, "getSymbol", frame{"symbol": "NOSUCHSYMBOL0"})
		e := errorOf(a, "getSymbol of an unknown symbol")
		Expect(a).To(HaveKeyWithValue("jsonrpc", "2.0"), "the error answer names the protocol version")
		Expect(a).To(HaveKeyWithValue("id", json.Number("1")), "the error answer carries the request's id")
		Expect(e).To(framework.MatchSchema(framework.Schema{"code": {Kind: framework.Number}, "message": {Kind: framework.String},
			"description": {Kind: framework.String, Optional: true}}), "the error object")
	})

	framework.ConformanceIt("V2-WS-SUB-TRUE", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		sym := anySymbol(ctx)
		for _, m := range []string{"subscribeTicker", "subscribeOrderbook", "subscribeTrades", "subscribeCandles"} {
			Expect(s.ok(ctx, m, frame{"symbol": sym.Code})).To(Equal(true), "%s returns true", m)
		}
	})

	framework.ConformanceContext("V2-WS-SUB-ORDER", func() {
		DescribeTable("result, then the snapshot", func(ctx SpecContext, method, snapshot string) {
			s := open(ctx, pathPublic)
			sym := anySymbol(ctx)
			s.send(frame{"method": method, "params": frame{"symbol": sym.Code}, "id": 41})
			got := s.frames(ctx, snapshot, func(f frame) bool { return f["method"] == snapshot })
			Expect(len(got)).To(BeNumerically(">=", 2), "the result comes before %s: %v", snapshot, got)
			Expect(got[0]).To(And(HaveKeyWithValue("id", json.Number("41")), HaveKeyWithValue("result", true)), "the first message after %s is its result", method)
		},
			Entry("order book", "subscribeOrderbook", "snapshotOrderbook"),
			Entry("trades", "subscribeTrades", "snapshotTrades"),
			Entry("candles", "subscribeCandles", "snapshotCandles"),
		)

		It("sends updates after the snapshot", func(ctx SpecContext) {
			e := framework.Current()
			e.RequireTrading()
			t := trading.NewTrader(target.RoleFull, trading.Spot)
			sym := restingSymbol(ctx, t)
			s := open(ctx, pathPublic)
			s.send(frame{"method": "subscribeOrderbook", "params": frame{"symbol": sym.Code}, "id": 42})
			got := s.frames(ctx, "snapshotOrderbook", func(f frame) bool { return f["method"] == "snapshotOrderbook" })
			Expect(got).To(HaveLen(2), "the result, then the snapshot: %v", got)
			Expect(got[0]).To(HaveKeyWithValue("id", json.Number("42")), "the result comes first")
			price := restingPrice()
			t.PlaceOK(ctx, sym.RestingBuy(cloids.New(), price))
			got = s.frames(ctx, "the update of the new level", hasLevel("bid", sym.Low(price).String()))
			methods := []any{}
			for _, f := range got {
				methods = append(methods, f["method"])
			}
			Expect(methods).To(HaveEach("updateOrderbook"), "after the snapshot come updates: %v", methods)
		})
	})

	framework.ConformanceIt("V2-WS-UNSUBSCRIBE", func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		t := trading.NewTrader(target.RoleFull, trading.Spot)
		sym := restingSymbol(ctx, t)
		left, stays := open(ctx, pathPublic), open(ctx, pathPublic)
		for _, s := range []*stream{left, stays} {
			s.ok(ctx, "subscribeOrderbook", frame{"symbol": sym.Code})
			s.notification(ctx, "snapshotOrderbook", nil)
		}
		left.call(ctx, "unsubscribeOrderbook", frame{"symbol": sym.Code})
		left.pending() // updates sent before the answer are the subscription's own
		price := restingPrice()
		t.PlaceOK(ctx, sym.RestingBuy(cloids.New(), price))
		stays.notification(ctx, "updateOrderbook", hasLevelParams("bid", sym.Low(price).String()))
		// Updates reach both connections at once; an answer queued later on
		// the unsubscribed one comes after any update it was still sent.
		left.barrier(ctx, "getSymbol", frame{"symbol": sym.Code})
		for _, f := range left.pending() {
			Expect(f["method"]).NotTo(Equal("updateOrderbook"), "no order book update after unsubscribeOrderbook: %v", f)
		}
	})

	framework.ConformanceIt("V2-WS-UNSUB-RESULT", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		sym := anySymbol(ctx)
		for _, ch := range []string{"Ticker", "Orderbook", "Trades", "Candles"} {
			s.ok(ctx, "subscribe"+ch, frame{"symbol": sym.Code})
			a := s.call(ctx, "unsubscribe"+ch, frame{"symbol": sym.Code})
			if r, ok := a["result"]; ok {
				framework.Observe("V2-WS-UNSUB-RESULT", "unsubscribe%s answered result %v", ch, r)
			} else {
				framework.Observe("V2-WS-UNSUB-RESULT", "unsubscribe%s answered %v", ch, a["error"])
			}
		}
	})
})
