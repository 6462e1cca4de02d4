package streamtrading

import (
	"context"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// noSuchMethod names no method of either stream.
const noSuchMethod = "conform_no_such_method"

// paramsOf builds a request's params for the real service (the document
// shows none), placing what the request needs first; trades says whether
// the method trades (and so needs a target that permits trading).
type paramsOf func(ctx context.Context, s *trading.StreamSession, sym trading.Symbol) any

// tradingParams are the params of methods that trade.
type tradingParams paramsOf

// unknownAnswer asks for a method the stream does not have: the answer a
// documented method must not get.
func unknownAnswer(ctx context.Context, s *trading.StreamSession) client.WSMessage {
	GinkgoHelper()
	unknown := s.Request(ctx, noSuchMethod, map[string]any{})
	if unknown.Error == nil {
		Fail("a request naming no method of the stream (" + noSuchMethod + ") was answered with " + unknown.Describe() + ", so a documented method cannot be told from an unknown one")
	}
	return unknown
}

// expectRecognized asserts that the answer to method is not the answer to
// a method the stream does not have.
func expectRecognized(ctx context.Context, s *trading.StreamSession, unknown client.WSMessage, method string, params any) {
	GinkgoHelper()
	ans := s.Request(ctx, method, params)
	Expect(ans.Kind()).NotTo(Equal(unknown.Kind()), "%s is a documented method, yet it was answered as the method %s that the stream does not have: %s",
		method, noSuchMethod, ans.Describe())
}

// One logged-in connection serves every entry: logins count against a
// budget of 5 per second per account.
var _ = framework.AreaDescribe("Trading stream: methods", Ordered, func() {
	var (
		sym     trading.Symbol
		s       *trading.StreamSession
		unknown client.WSMessage
	)
	BeforeAll(func(ctx SpecContext) {
		sym = trading.WorkingSymbols(ctx)[0]
		s = trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
		unknown = unknownAnswer(ctx, s)
	})

	entry := func(ctx SpecContext, method string, build any) {
		if _, ok := build.(tradingParams); ok {
			framework.Current().RequireTrading()
			framework.Current().RequireStreamTrading()
		}
		var p any
		switch b := build.(type) {
		case tradingParams:
			p = b(ctx, s, sym)
		case paramsOf:
			p = b(ctx, s, sym)
		}
		expectRecognized(ctx, s, unknown, method, p)
	}
	none := paramsOf(func(context.Context, *trading.StreamSession, trading.Symbol) any { return map[string]any{} })

	DescribeTable("V3-WST-METHODS the trading stream has the spot methods the document names", framework.Checks("V3-WST-METHODS"), entry,
		Entry("login", "login", paramsOf(func(_ context.Context, s *trading.StreamSession, _ trading.Symbol) any {
			return client.StreamLoginBasic(s.Acct.APIKey, s.Acct.Secret)
		})),
		Entry("spot_subscribe", "spot_subscribe", none),
		Entry("spot_unsubscribe", "spot_unsubscribe", none),
		Entry("spot_balance_subscribe", "spot_balance_subscribe", paramsOf(func(context.Context, *trading.StreamSession, trading.Symbol) any {
			return map[string]any{"mode": "updates"}
		})),
		Entry("spot_balance_unsubscribe", "spot_balance_unsubscribe", none),
		Entry("spot_balances", "spot_balances", none),
		Entry("spot_fee", "spot_fee", paramsOf(func(_ context.Context, _ *trading.StreamSession, sym trading.Symbol) any {
			return map[string]any{"symbol": sym.Code}
		})),
		Entry("spot_new_order", "spot_new_order", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			id := cloids.New()
			s.CancelAtEnd(id)
			return sym.RestingBuy(id, 2).JSON()
		})),
		Entry("spot_new_order_list", "spot_new_order_list", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			a, b := cloids.New(), cloids.New()
			s.CancelAtEnd(a)
			s.CancelAtEnd(b)
			return map[string]any{"contingency_type": "oneTriggerOther", "orders": []any{sym.RestingBuy(a, 2).JSON(), sym.RestingBuy(b, 3).JSON()}}
		})),
		Entry("spot_replace_order", "spot_replace_order", tradingParams(func(ctx context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			old, repl := cloids.New(), cloids.New()
			s.PlaceOK(ctx, sym.RestingBuy(old, 2))
			s.CancelAtEnd(repl)
			return map[string]any{"client_order_id": old, "new_client_order_id": repl, "quantity": sym.Qty(10).String(), "price": sym.Low(3).String()}
		})),
	)

	// The margin order methods are asked of an account with no margin
	// account open, so they create nothing whatever the target answers.
	DescribeTable("V3-WST-METHODS-MARGIN the trading stream has the margin methods the document names", framework.Checks("V3-WST-METHODS-MARGIN"), entry,
		Entry("margin_subscribe", "margin_subscribe", none),
		Entry("margin_unsubscribe", "margin_unsubscribe", none),
		Entry("margin_get_accounts", "margin_get_accounts", none),
		Entry("margin_new_order", "margin_new_order", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			id := cloids.New()
			s.On(trading.Margin).CancelAtEnd(id)
			return sym.RestingBuy(id, 2).JSON()
		})),
		Entry("margin_new_order_list", "margin_new_order_list", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			a, b := cloids.New(), cloids.New()
			s.On(trading.Margin).CancelAtEnd(a)
			s.On(trading.Margin).CancelAtEnd(b)
			return map[string]any{"contingency_type": "oneTriggerOther", "orders": []any{sym.RestingBuy(a, 2).JSON(), sym.RestingBuy(b, 3).JSON()}}
		})),
		Entry("margin_replace_order", "margin_replace_order", tradingParams(func(_ context.Context, _ *trading.StreamSession, sym trading.Symbol) any {
			return map[string]any{"client_order_id": cloids.New(), "new_client_order_id": cloids.New(), "quantity": sym.Qty(10).String(), "price": sym.Low(3).String()}
		})),
	)

	// The document shows no params of the futures methods; the order
	// methods are asked with a spot symbol, which no futures method trades,
	// and for an order that does not exist, so they create nothing whatever
	// the target answers (what might have been created is canceled anyway).
	DescribeTable("V3-WST-METHODS-FUTURES the trading stream has the futures methods the document names", framework.Checks("V3-WST-METHODS-FUTURES"), entry,
		Entry("futures_subscribe", "futures_subscribe", none),
		Entry("futures_unsubscribe", "futures_unsubscribe", none),
		Entry("futures_balance", "futures_balance", none),
		Entry("futures_balances", "futures_balances", none),
		Entry("futures_get_accounts", "futures_get_accounts", none),
		Entry("futures_fee", "futures_fee", paramsOf(func(_ context.Context, _ *trading.StreamSession, sym trading.Symbol) any {
			return map[string]any{"symbol": sym.Code}
		})),
		Entry("futures_new_order", "futures_new_order", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			id := cloids.New()
			s.On(trading.Futures).CancelAtEnd(id)
			return sym.RestingBuy(id, 2).JSON()
		})),
		Entry("futures_new_order_list", "futures_new_order_list", tradingParams(func(_ context.Context, s *trading.StreamSession, sym trading.Symbol) any {
			a, b := cloids.New(), cloids.New()
			s.On(trading.Futures).CancelAtEnd(a)
			s.On(trading.Futures).CancelAtEnd(b)
			return map[string]any{"contingency_type": "oneTriggerOther", "orders": []any{sym.RestingBuy(a, 2).JSON(), sym.RestingBuy(b, 3).JSON()}}
		})),
		Entry("futures_replace_order", "futures_replace_order", tradingParams(func(_ context.Context, _ *trading.StreamSession, sym trading.Symbol) any {
			return map[string]any{"client_order_id": cloids.New(), "new_client_order_id": cloids.New(), "quantity": sym.Qty(10).String(), "price": sym.Low(3).String()}
		})),
	)
})
