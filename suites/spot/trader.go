package spot

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// Short names for what the specs build and read, everywhere in the tables.
type (
	order  = trading.Order
	params = trading.Params
)

// cloids makes the suite's client_order_ids; spot's start with "cfs".
const cloids trading.Cloids = "cfs"

// newTrader returns a Basic-authenticated spot trader for role (skipping the
// spec when the target config has no key for it). Call it in the spec body,
// never in a goroutine or a cleanup: it registers cleanups of its own.
func newTrader(role string) *trading.Trader {
	GinkgoHelper()
	return trading.NewTrader(role, trading.Spot)
}

// restingSetup registers the BeforeEach of a container whose specs place
// orders that rest without trading: the full key's trader into *t and a
// symbol it can afford resting buys on into *s.
func restingSetup(t **trading.Trader, s *trading.Symbol) {
	BeforeEach(func(ctx SpecContext) {
		framework.Current().RequireTrading()
		*t = newTrader(target.RoleFull)
		*s = restingSymbol(ctx, *t)
	})
}

// fillsWith returns the counterparty and a market on which it trades with t.
func fillsWith(ctx SpecContext, t *trading.Trader) (*trading.Trader, market) {
	GinkgoHelper()
	cp := newTrader(target.RoleCounterparty)
	return cp, fillMarket(ctx, cp, t, 3, nil)
}
