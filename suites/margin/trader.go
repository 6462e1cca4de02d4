package margin

import (
	"context"
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Short names for what the specs build and read, everywhere in the tables.
type (
	order  = trading.Order
	params = trading.Params
)

// cloids makes the suite's client_order_ids; margin's start with "cfm".
const cloids trading.Cloids = "cfm"

// trader is one account of the target trading on margin, with the margin
// accounts and positions it holds.
type trader struct{ *trading.Trader }

// newTrader returns a Basic-authenticated margin trader for role (skipping
// the spec when the target config has no key for it). Call it in the spec
// body: it registers cleanups of its own.
func newTrader(role string) *trader {
	GinkgoHelper()
	return &trader{trading.NewTrader(role, trading.Margin)}
}

// trades reads GET /margin/history/trade.
func (t *trader) trades(ctx context.Context, q params) []order {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodGet, "/margin/history/trade", q)
	Expect(ex).To(framework.BeOK(), "reading the margin trade history with %s", q)
	return trading.Objects(ex)
}
