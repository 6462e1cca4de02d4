package api

import "strings"

// standIns are the faults of the rules "each right alone"
// (V3-AUTH-RIGHT-ALONE-*, aliased on version 2): each lets one other right,
// held alone, pass where right is needed. The one chosen is a right none of
// the roles read-only, trade-only and no-rights holds, so only a key
// holding it alone tells the two apart. Right names as in
// emulator/internal/auth (which imports this package).
var standIns = []struct{ fault, right, other string }{
	{"V3-AUTH-RIGHT-ALONE-ORDERBOOK", "orderbook", "payment"},
	{"V3-AUTH-RIGHT-ALONE-TRADING", "trading", "withdraw"},
	{"V3-AUTH-RIGHT-ALONE-PAYMENT", "payment", "withdraw"},
	{"V3-AUTH-RIGHT-ALONE-WITHDRAW", "withdraw", "payment"},
}

// holds reports whether p may call a route guarded by right (empty: any
// authenticated key).
func (rt *Router) holds(p *Principal, right string) bool {
	if right == "" || p.Rights[right] {
		return true
	}
	for _, s := range standIns {
		if s.right == right && p.Rights[s.other] && rt.faults.On(s.fault) {
			return true
		}
	}
	return false
}

// servedBare tells where the fault of V3-AUTH-REQUIRED (V2-AUTH-REQUIRED on
// version 2) serves a request without credentials: every private path but
// those the first tables of requests without credentials held (the Spot
// and Margin rows; three v2 rows), so that only the rows of the other
// areas kill it.
func servedBare(path string) bool {
	switch {
	case strings.HasPrefix(path, "/spot/"), strings.HasPrefix(path, "/margin/"):
		return false
	case path == "/account/balance", path == "/history/trades", path == "/account/transactions":
		return false
	}
	return true
}
