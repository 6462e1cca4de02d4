package streampublic

import (
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The other version's names: version 2's stream methods on version 3.
var _ = framework.AreaDescribe("Market data stream: version 2's methods", func() {
	framework.ConformanceIt("V3-WS-PUB-V2-METHODS", func(ctx SpecContext) {
		s := open(ctx)
		sym := trading.WorkingSymbols(ctx)[0].Code
		for _, method := range []string{"subscribeTrades", "subscribeCandles", "getSymbols"} {
			id := s.id()
			m, err := s.c.Request(ctx, framework.Timeouts.Eventually, id, method, map[string]any{"params": map[string]any{"symbol": sym, "period": "M30"}})
			Expect(err).NotTo(HaveOccurred(), "%s (version 2's method) on the v3 stream: an answer with id %q", method, id)
			expectError(m, id, method+", version 2's method, on the v3 market data stream")
		}
	})
})
