package spot

import (
	"github.com/conform-harness/conform/suites/trading"
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
