package v2auth

import (
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// aloneRule is the rule "each right alone" of the endpoints a right
// guards. No version 2 row is guarded by Place/cancel orders.
var aloneRule = map[string]string{
	rightOrderbook: "V2-AUTH-RIGHT-ALONE-ORDERBOOK",
	rightPayment:   "V2-AUTH-RIGHT-ALONE-PAYMENT",
	rightWithdraw:  "V2-AUTH-RIGHT-ALONE-WITHDRAW",
}

// aloneEntries are every right-bearing endpoint with the key of each of
// the four rights alone.
func aloneEntries() []TableEntry {
	var out []TableEntry
	for _, p := range v2Endpoints {
		id, ok := aloneRule[p.right]
		if !ok {
			continue
		}
		for _, r := range rightOrder {
			role, served := singleRight[r], r == p.right
			verb := "is refused"
			if served {
				verb = "is served"
			}
			out = append(out, Entry(fmt.Sprintf("%s key: %s %s", role, p, verb), framework.Checks(id), role, p, served))
		}
	}
	return out
}

var _ = Describe("v2: each access right alone", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	// A served request is one the rights check let through: any answer but
	// 401 and 403 (a write without parameters may be answered 10001, an
	// unknown identifier 400 or 500). Writes carry no parameters and name
	// nothing the account has, so a served one changes nothing but a new
	// deposit address of the account's own.
	DescribeTable("an endpoint serves the key holding its right alone and refuses each other right alone with 1003",
		func(ctx SpecContext, role string, p endpoint, served bool) {
			if p.method != http.MethodGet {
				e.RequireTrading()
			}
			ex, _ := e.V2Signed(role).Do(ctx, client.Request{Method: p.method, Path: fill(ctx, e, p.path, true)})
			if served {
				Expect(ex.Err).NotTo(HaveOccurred(), "%s with the %s key", p, role)
				Expect(ex.Status).NotTo(BeElementOf(http.StatusUnauthorized, http.StatusForbidden),
					"%s with the %s key, which holds its right (%s) alone: expected it served, got %s", p, role, p.right, ex)
				return
			}
			Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with the %s key, which lacks its right (%s)", p, role, p.right)
		},
		aloneEntries(),
	)
})
