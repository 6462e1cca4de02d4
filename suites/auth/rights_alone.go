package auth

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// aloneRule is the rule "each right alone" of the endpoints a right guards.
var aloneRule = map[string]string{
	rightOrderbook: "V3-AUTH-RIGHT-ALONE-ORDERBOOK",
	rightTrading:   "V3-AUTH-RIGHT-ALONE-TRADING",
	rightPayment:   "V3-AUTH-RIGHT-ALONE-PAYMENT",
	rightWithdraw:  "V3-AUTH-RIGHT-ALONE-WITHDRAW",
}

// aloneEntries are the rows of the table below: every right-bearing
// endpoint with the key of each of the four rights alone.
func aloneEntries(endpoints []endpoint, rule map[string]string) []TableEntry {
	var out []TableEntry
	for _, p := range endpoints {
		id, ok := rule[p.right]
		if !ok {
			continue
		}
		for _, r := range rightOrder {
			role, served := singleRight[r], r == p.right
			if served && strings.Contains(p.path, "/sub-to-") {
				// Transfers "from the calling sub-account": what the
				// super account's key is answered is not shown, so
				// only the refusal of the other rights is asserted.
				continue
			}
			verb := "is refused"
			if served {
				verb = "is served"
			}
			args := []any{framework.Checks(id), role, p, served}
			if served && p.method == http.MethodDelete && !strings.Contains(p.path, "{client_order_id}") {
				// A served cancel-all or position close acts on the whole
				// account, which other processes may share on a sandbox.
				args = append([]any{Serial}, args...)
			}
			out = append(out, Entry(fmt.Sprintf("%s key: %s %s", role, p, verb), args...))
		}
	}
	return out
}

// checkAlone sends the request with the role's key. A served request is
// one the rights check let through: any answer but 401 and 403 (a body
// the spec leaves empty may be answered 10001, an unknown identifier
// 20002). Writes carry no body, so a served one changes nothing but what
// the process's own account holds (its cancel-all and close-all), which
// its specs leave empty.
func checkAlone(ex *client.Exchange, role string, p endpoint, served bool) {
	GinkgoHelper()
	if served {
		Expect(ex.Err).NotTo(HaveOccurred(), "%s with the %s key", p, role)
		Expect(ex.Status).NotTo(BeElementOf(http.StatusUnauthorized, http.StatusForbidden),
			"%s with the %s key, which holds its right (%s) alone: expected it served, got %s", p, role, p.right, ex)
		return
	}
	Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003),
		"%s with the %s key, which lacks its right (%s)", p, role, p.right)
}

var _ = Describe("Each access right alone", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	DescribeTable("an endpoint serves the key holding its right alone and refuses each other right alone with 1003",
		func(ctx SpecContext, role string, p endpoint, served bool) {
			if p.method != http.MethodGet {
				e.RequireTrading()
			}
			c := e.Signed(role, framework.Basic)
			ex, _ := c.Do(ctx, client.Request{Method: p.method, Path: fill(ctx, e, p.path, true)})
			checkAlone(ex, role, p, served)
		},
		aloneEntries(v3Endpoints, aloneRule),
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
