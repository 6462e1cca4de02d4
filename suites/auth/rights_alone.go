package auth

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// aloneRule is the rule "each right alone" of the endpoints a right guards.
var aloneRule = map[string]string{
	trading.RightOrderbook: "V3-AUTH-RIGHT-ALONE-ORDERBOOK",
	trading.RightTrading:   "V3-AUTH-RIGHT-ALONE-TRADING",
	trading.RightPayment:   "V3-AUTH-RIGHT-ALONE-PAYMENT",
	trading.RightWithdraw:  "V3-AUTH-RIGHT-ALONE-WITHDRAW",
}

// aloneKept leaves out the served row of the sub-account transfers "from
// the calling sub-account" (what the super account's key is answered is
// not shown, so only the other rights' refusals are asserted). A served
// cancel-all or position close acts on the whole account, yet runs beside
// other specs: processes that may place orders never share an account
// (target.Config.ForProcess).
func aloneKept(p trading.Endpoint, served bool) bool {
	return !served || !strings.Contains(p.Path, "/sub-to-")
}

var _ = framework.AreaDescribe("Each access right alone", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	DescribeTable("an endpoint serves the key holding its right alone and refuses each other right alone with 1003",
		func(ctx SpecContext, role string, p trading.Endpoint, served bool) {
			if p.Method != http.MethodGet {
				e.RequireTrading()
			}
			c := e.Signed(role, framework.Basic)
			ex, _ := c.Do(ctx, client.Request{Method: p.Method, Path: fill(ctx, e, p.Path, true)})
			trading.CheckAlone(ex, role, p, served)
		},
		trading.AloneEntries(v3Endpoints, aloneRule, aloneKept),
	)

	framework.ConformanceIt("V3-AUTH-RIGHT-ORDER", func(ctx SpecContext) {
		e.RequireTrading()
		ex, _ := e.Signed(target.RoleReadOnly, framework.Basic).Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order"})
		outcome := fmt.Sprintf("HTTP %d", ex.Status)
		if ae, ok := ex.APIError(); ok {
			outcome = fmt.Sprintf("HTTP %d code %d", ae.Status, ae.Code)
		}
		framework.Observe("V3-AUTH-RIGHT-ORDER", "POST /spot/order without parameters by a key lacking Place/cancel orders was answered %s", outcome)
	})
})
