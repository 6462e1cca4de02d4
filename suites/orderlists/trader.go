package orderlists

import (
	"context"
	"sort"

	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
)

// Short names for what the specs build and read, everywhere in the tables.
type (
	order  = trading.Order
	params = trading.Params
)

// cloids makes the suite's client_order_ids; order lists' start with "cfl".
const cloids trading.Cloids = "cfl"

// trader is one account of the target, trading on both venues: its order
// methods take the venue through On, its list methods as an argument.
type trader struct{ *trading.Trader }

// newTrader returns a Basic-authenticated trader for role (skipping the spec
// when the target config has no key for it). Call it in the spec body: it
// registers cleanups of its own.
func newTrader(role string) *trader {
	GinkgoHelper()
	return &trader{trading.NewTrader(role, trading.Spot)}
}

// activeIDs lists the client_order_ids of the active orders of v, sorted.
func (t *trader) activeIDs(ctx context.Context, v trading.Venue) []string {
	GinkgoHelper()
	ids := trading.CloidsOf(t.On(v).Active(ctx, ""))
	sort.Strings(ids)
	return ids
}
