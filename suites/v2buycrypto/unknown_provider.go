package v2buycrypto

import (
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

var _ = framework.AreaDescribe("v2 buy crypto: an unknown providerID", func() {
	framework.ConformanceIt("V2-BUY-UNKNOWN-PROVIDER", func(ctx SpecContext) {
		c := v2(target.RoleFull)
		rate := get(ctx, c, "/buy-crypto/provider/987654321/rate", url.Values{"source": {"USD"}, "target": {"BTC"}})
		framework.Observe("V2-BUY-UNKNOWN-PROVIDER", "the rate of an unknown providerID was answered %s", trading.Outcome(rate))
	})
})
