// Package streamwallet holds the specs of the v3 wallet stream
// ({ws_url}/api/3/ws/wallet): its method names and errors with the request
// id. The document shows no login and no message shapes; the specs log in
// with the real service's login.
package streamwallet

import (
	"context"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// noSuchMethod names no method of the stream.
const noSuchMethod = "conform_no_such_method"

// One logged-in connection serves the specs: wallet logins count against a
// budget of 2 per second (burst 10) per account.
var _ = framework.AreaDescribe("Wallet stream", Ordered, func() {
	var (
		s       *trading.StreamSession
		unknown client.WSMessage
	)
	BeforeAll(func(ctx SpecContext) {
		s = trading.NewStreamSession(ctx, target.RoleFull, trading.WalletStream)
		unknown = s.Request(ctx, noSuchMethod, map[string]any{})
	})

	DescribeTable("V3-WSW-METHODS the wallet stream has the methods the document names", framework.Checks("V3-WSW-METHODS"),
		func(ctx SpecContext, method string, params func(*trading.StreamSession) any) {
			if unknown.Error == nil {
				Fail("a request naming no method of the stream was answered with " + unknown.Describe() + ", so a documented method cannot be told from an unknown one")
			}
			ans := s.Request(ctx, method, params(s))
			Expect(ans.Kind()).NotTo(Equal(unknown.Kind()), "%s is a documented method, yet it was answered as the method %s the stream does not have: %s",
				method, noSuchMethod, ans.Describe())
		},
		Entry("login", "login", func(s *trading.StreamSession) any { return client.StreamLoginBasic(s.Acct.APIKey, s.Acct.Secret) }),
		Entry("subscribe_transactions", "subscribe_transactions", none),
		Entry("unsubscribe_transactions", "unsubscribe_transactions", none),
		Entry("subscribe_wallet_balances", "subscribe_wallet_balances", none),
		Entry("unsubscribe_wallet_balances", "unsubscribe_wallet_balances", none),
		Entry("wallet_balances", "wallet_balances", none),
		Entry("wallet_balance", "wallet_balance", func(*trading.StreamSession) any {
			return map[string]any{"currency": framework.Current().AnyCurrency(context.Background())}
		}),
		Entry("transactions", "transactions", none),
	)

	framework.ConformanceIt("V3-WSW-UNKNOWN-METHOD", func(ctx SpecContext) {
		id := s.NextID()
		s.Pace(ctx, noSuchMethod)
		m, err := s.WS.Request(ctx, framework.Timeouts.Request, id, noSuchMethod, map[string]any{"params": map[string]any{}})
		Expect(err).NotTo(HaveOccurred(), "a request naming no method of the stream is answered")
		Expect(m.Error).NotTo(BeNil(), "the answer to an unknown method is an error: %s\nframe: %s", m.Describe(), m.Raw)
		Expect(m.Error.Code.String()).NotTo(BeEmpty(), "the error has a code\nframe: %s", m.Raw)
		Expect(m.HasID && m.ID == id).To(BeTrue(), "the error carries the request id %q\nframe: %s", id, m.Raw)
		Expect(s.WS.IsClosed()).To(BeFalse(), "the connection stays open after an unknown method: %s", s.WS.CloseReason())
	})
})

func none(*trading.StreamSession) any { return map[string]any{} }

var _ = framework.AreaDescribe("Wallet stream: malformed frames", func() {
	framework.ConformanceIt("V3-WSW-MALFORMED", func(ctx SpecContext) {
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.WalletStream)
		framework.Observe("V3-WSW-MALFORMED", "a frame that is not JSON was %s", s.AnswerToMalformed(ctx))
	})
})
