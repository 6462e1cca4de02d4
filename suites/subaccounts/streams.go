package subaccounts

import (
	"context"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// streamLogin dials path and sends the real service's login (HS256, as
// client libraries do; the spec shows no login) with the sub role's key,
// answering the login's answer.
func streamLogin(ctx context.Context, path string) client.WSMessage {
	GinkgoHelper()
	e := framework.Current()
	a := e.Account(target.RoleSub)
	ws := e.DialStream(ctx, path)
	Expect(e.StreamPacer(strings.TrimPrefix(path, "/api/3")).Wait(ctx, "")).To(Succeed())
	m, err := ws.Request(ctx, framework.Timeouts.Request, "login-1", "login", map[string]any{"params": client.StreamLoginHS256(a.APIKey, a.Secret, time.Now(), 0)})
	Expect(err).NotTo(HaveOccurred(), "login on %s", path)
	return m
}

var _ = framework.AreaDescribe("A frozen sub-account on the streams", func() {
	BeforeEach(func() { mayChange() })

	framework.ConformanceContext("V3-SUBACC-FROZEN-STREAMS", func() {
		DescribeTable("its login is refused", func(ctx SpecContext, path string) {
			Expect(streamLogin(ctx, path).Error).To(BeNil(), "the active sub-account logs in on %s", path)
			newSuper().freezeForSpec(ctx, subID(target.RoleSub))
			ans := streamLogin(ctx, path)
			Expect(ans.Error).NotTo(BeNil(), "the frozen sub-account's login on %s is refused: %s", path, ans.Describe())
		}, Entry("trading", trading.TradingStream), Entry("wallet", trading.WalletStream))
	})

	framework.ConformanceIt("V3-SUBACC-FROZEN-SESSION", func(ctx SpecContext) {
		framework.Current().RequireStreamTrading()
		s := newSuper()
		sym := fundedSub(ctx, s, false)
		sess := trading.NewStreamSession(ctx, target.RoleSub, trading.TradingStream)
		p := sym.RestingBuy(cloids.New(), 3)
		sess.CancelAtEnd(p["client_order_id"])
		s.freezeForSpec(ctx, subID(target.RoleSub))
		ans := sess.Request(ctx, "spot_balances", map[string]any{})
		Expect(ans.Error).NotTo(BeNil(), "a balance read on the stream session of the frozen sub-account is refused: %s", ans.Describe())
		ans = sess.Request(ctx, "spot_new_order", p.JSON())
		Expect(ans.Error).NotTo(BeNil(), "a new order on the stream session of the frozen sub-account is refused: %s", ans.Describe())
		Expect(resultOf(s.activate(ctx, subID(target.RoleSub)))).To(Equal(true), "activating the sub-account to read its orders")
		Expect(isActive(ctx, sess.Trader, p["client_order_id"])).To(BeFalse(), "the refused order %s was placed nowhere", p["client_order_id"])
	})
})
