package trading

import (
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The access rights as both versions' Authentication sections name them.
const (
	RightOrderbook = "Orderbook, History, Trading balance"
	RightTrading   = "Place/cancel orders"
	RightPayment   = "Payment information"
	RightWithdraw  = "Withdraw cryptocurrencies"
	RightNone      = "none" // any authenticated key
)

// SingleRight is the role holding each right alone.
var SingleRight = map[string]string{
	RightOrderbook: target.RoleReadOnly,
	RightTrading:   target.RoleTradeOnly,
	RightPayment:   target.RolePaymentOnly,
	RightWithdraw:  target.RoleWithdrawOnly,
}

// RightOrder lists the four rights in a fixed order: every Ginkgo process
// must build the same spec tree.
var RightOrder = []string{RightOrderbook, RightTrading, RightPayment, RightWithdraw}

// Endpoint is one row of a version's endpoint tables with its access
// right. Path segments in braces are filled in at run time.
type Endpoint struct {
	Method, Path, Right string
}

func (p Endpoint) String() string { return p.Method + " " + p.Path }

// AloneEntries are the rows of a right-alone table (role, endpoint,
// served): every endpoint whose right has a rule in rule, with the key of
// each of the four rights alone. keep, when not nil, leaves out the rows it
// answers false for.
func AloneEntries(endpoints []Endpoint, rule map[string]string, keep func(p Endpoint, served bool) bool) []TableEntry {
	var out []TableEntry
	for _, p := range endpoints {
		id, ok := rule[p.Right]
		if !ok {
			continue
		}
		for _, r := range RightOrder {
			role, served := SingleRight[r], r == p.Right
			if keep != nil && !keep(p, served) {
				continue
			}
			verb := "is refused"
			if served {
				verb = "is served"
			}
			out = append(out, Entry(fmt.Sprintf("%s key: %s %s", role, p, verb), framework.Checks(id), role, p, served))
		}
	}
	return out
}

// CheckAlone judges the answer to p sent with role's key. A served request
// is one the rights check let through: any answer but 401 and 403 (a
// request without parameters may be answered 10001, an unknown identifier
// its own error); a refused one is 1003 with HTTP 403.
func CheckAlone(ex *client.Exchange, role string, p Endpoint, served bool) {
	GinkgoHelper()
	if served {
		Expect(ex.Err).NotTo(HaveOccurred(), "%s with the %s key", p, role)
		Expect(ex.Status).NotTo(BeElementOf(http.StatusUnauthorized, http.StatusForbidden),
			"%s with the %s key, which holds its right (%s) alone: expected it served, got %s", p, role, p.Right, ex)
		return
	}
	Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003),
		"%s with the %s key, which lacks its right (%s)", p, role, p.Right)
}

// BareEntries are the rows of a table of requests without credentials:
// every endpoint, named for itself.
func BareEntries(endpoints []Endpoint) []TableEntry {
	out := make([]TableEntry, 0, len(endpoints))
	for _, p := range endpoints {
		out = append(out, Entry(p.String(), p))
	}
	return out
}

// NewEndpoint is the row method path guarded by right (tables of rows
// read as the document's, one per line).
func NewEndpoint(method, path, right string) Endpoint {
	return Endpoint{Method: method, Path: path, Right: right}
}
