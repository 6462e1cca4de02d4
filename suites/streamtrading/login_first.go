package streamtrading

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Trading stream: before a login, and the wallet's methods", func() {
	framework.ConformanceIt("V3-WST-LOGIN-FIRST", func(ctx SpecContext) {
		ws := framework.Current().DialStream(ctx, trading.TradingStream)
		sym := trading.WorkingSymbols(ctx)[0]
		for i, r := range []struct {
			method string
			params map[string]any
		}{
			{"spot_balances", map[string]any{}},
			{"spot_fee", map[string]any{"symbol": sym.Code}},
			{"spot_subscribe", map[string]any{}},
		} {
			id := fmt.Sprintf("before-login-%d", i)
			Expect(framework.Current().MethodPacer("/ws/trading").Wait(ctx, r.method)).To(Succeed())
			m, err := ws.Request(ctx, framework.Timeouts.Request, id, r.method, map[string]any{"params": r.params})
			Expect(err).NotTo(HaveOccurred(), "%s sent before a login is answered", r.method)
			Expect(m.Error).NotTo(BeNil(), "%s sent before a login is refused with an error, got %s\nframe: %s", r.method, m.Describe(), m.Raw)
			Expect(m.HasID && m.ID == id).To(BeTrue(), "%s before a login: the error carries the request id %q\nframe: %s", r.method, id, m.Raw)
		}
	})

	framework.ConformanceIt("V3-WST-NO-WALLET", func(ctx SpecContext) {
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
		for _, method := range []string{"wallet_balances", "transactions"} {
			id := s.NextID()
			s.Pace(ctx, "spot_balances") // a wallet method has no class of its own on this stream
			m, err := s.WS.Request(ctx, framework.Timeouts.Request, id, method, map[string]any{"params": map[string]any{}})
			Expect(err).NotTo(HaveOccurred(), "%s on the trading stream is answered", method)
			Expect(m.Error).NotTo(BeNil(), "%s is a wallet stream method, not a trading stream one: got %s\nframe: %s", method, m.Describe(), m.Raw)
			Expect(m.HasID && m.ID == id).To(BeTrue(), "%s on the trading stream: the error carries the request id %q\nframe: %s", method, id, m.Raw)
		}
	})
})
