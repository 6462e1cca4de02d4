package v2auth

import (
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
)

// aloneRule is the rule "each right alone" of the endpoints a right
// guards. No version 2 row is guarded by Place/cancel orders.
var aloneRule = map[string]string{
	trading.RightOrderbook: "V2-AUTH-RIGHT-ALONE-ORDERBOOK",
	trading.RightPayment:   "V2-AUTH-RIGHT-ALONE-PAYMENT",
	trading.RightWithdraw:  "V2-AUTH-RIGHT-ALONE-WITHDRAW",
}

var _ = framework.AreaDescribe("v2: each access right alone", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	// A served request is one the rights check let through: any answer but
	// 401 and 403 (a write without parameters may be answered 10001, an
	// unknown identifier 400 or 500). Writes carry no parameters and name
	// nothing the account has, so a served one changes nothing but a new
	// deposit address of the account's own.
	DescribeTable("an endpoint serves the key holding its right alone and refuses each other right alone with 1003",
		func(ctx SpecContext, role string, p trading.Endpoint, served bool) {
			if p.Method != http.MethodGet {
				e.RequireTrading()
			}
			ex, _ := e.V2Signed(role).Do(ctx, client.Request{Method: p.Method, Path: fill(ctx, e, p.Path, true)})
			trading.CheckAlone(ex, role, p, served)
		},
		trading.AloneEntries(v2Endpoints, aloneRule, nil),
	)
})
