package streamwallet

import (
	"bytes"
	"encoding/json"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var cloids = trading.Cloids("wsw")

// requestBare sends a request on a connection that has not logged in,
// paced under the wallet stream's method limits.
func requestBare(ctx SpecContext, ws *client.WSConn, id, method string, params any) client.WSMessage {
	GinkgoHelper()
	Expect(framework.Current().MethodPacer("/ws/wallet").Wait(ctx, method)).To(Succeed())
	m, err := ws.Request(ctx, framework.Timeouts.Request, id, method, map[string]any{"params": params})
	Expect(err).NotTo(HaveOccurred(), "%s on the wallet stream is answered", method)
	return m
}

// expectRefused asserts m is an error, not a result, carrying id.
func expectRefused(m client.WSMessage, id, what string) {
	GinkgoHelper()
	Expect(m.Error).NotTo(BeNil(), "%s is refused with an error, got %s\nframe: %s", what, m.Describe(), m.Raw)
	Expect(m.HasID && m.ID == id).To(BeTrue(), "%s: the error carries the request id %q\nframe: %s", what, id, m.Raw)
}

var _ = framework.AreaDescribe("Wallet stream: what it does not serve", func() {
	framework.ConformanceIt("V3-WSW-LOGIN-FIRST", func(ctx SpecContext) {
		ws := framework.Current().DialStream(ctx, trading.WalletStream)
		for i, method := range []string{"wallet_balances", "transactions", "subscribe_wallet_balances"} {
			id := "before-login-" + string(rune('a'+i))
			expectRefused(requestBare(ctx, ws, id, method, map[string]any{}), id, method+" sent before a login")
		}
	})

	framework.ConformanceIt("V3-WSW-NO-TRADING", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		framework.Current().RequireStreamTrading()
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.WalletStream)
		sym := trading.WorkingSymbols(ctx)[0]
		cloid := cloids.New()
		s.CancelAtEnd(cloid)
		ans := s.Request(ctx, "spot_new_order", sym.RestingBuy(cloid, 2).JSON())
		Expect(ans.Error).NotTo(BeNil(), "spot_new_order is a trading stream method, not a wallet stream one: got %s", ans.Describe())
		Expect(s.Get(ctx, cloid).Status).NotTo(Equal(200), "spot_new_order sent on the wallet stream placed the order %s", cloid)
		bal := s.Request(ctx, "spot_balances", map[string]any{})
		Expect(bal.Error).NotTo(BeNil(), "spot_balances is a trading stream method, not a wallet stream one: got %s", bal.Describe())
	})

	framework.ConformanceIt("V3-WSW-ERROR-CODE", func(ctx SpecContext) {
		ws := framework.Current().DialStream(ctx, trading.WalletStream)
		m := requestBare(ctx, ws, "e1", noSuchMethod, map[string]any{})
		Expect(m.Error).NotTo(BeNil(), "a request naming no method of the stream is an error: %s", m.Describe())
		var body struct {
			Error map[string]any `json:"error"`
		}
		dec := json.NewDecoder(bytes.NewReader(m.Raw))
		dec.UseNumber()
		Expect(dec.Decode(&body)).To(Succeed(), "frame: %s", m.Raw)
		Expect(body.Error).To(HaveKey("code"), "the error object has a code: %s", m.Raw)
		Expect(body.Error["code"]).To(BeAssignableToTypeOf(json.Number("")), "the error's code is a Number, not %T: %s", body.Error["code"], m.Raw)
	})
})
