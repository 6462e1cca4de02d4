package buycrypto

import (
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
)

// unknownProvider is a provider_id no target lists.
const unknownProvider = "987654321"

var _ = framework.AreaDescribe("Buy crypto: an unknown provider_id", func() {
	framework.ConformanceIt("V3-BUY-UNKNOWN-PROVIDER", func(ctx SpecContext) {
		b := newBuyer()
		rate := b.get(ctx, "/buy-crypto/provider/"+unknownProvider+"/rate", url.Values{"source": {"USD"}, "target": {"BTC"}})
		orders := b.get(ctx, "/buy-crypto/provider/"+unknownProvider+"/order", nil)
		framework.Observe("V3-BUY-UNKNOWN-PROVIDER", "rate of an unknown provider: %s; its order listing: %s %.60s",
			trading.Outcome(rate), trading.Outcome(orders), orders.Body)
	})
})
