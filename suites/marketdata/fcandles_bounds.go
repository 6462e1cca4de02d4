package marketdata

import (
	"fmt"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The spec gives the ranges of limit and offset but not what happens
// outside them (rejected or clamped): these specs record the answer and
// assert only what is unambiguous.
var _ = framework.AreaDescribe("Futures candles: limit and offset out of range", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	// request asks one contract's candles with q and returns the exchange
	// and, for a 200 answer, the candle count.
	request := func(ctx SpecContext, kind string, ep endpoint, q url.Values) (*client.Exchange, string) {
		GinkgoHelper()
		contract := candleContract(ctx, pub)
		path := candleOnePath(kind, contract)
		if ep == listEP {
			path, q = candleListPath(kind), withParams(q, "symbols", contract)
		}
		ex := get(ctx, pub, path, q)
		expectConformingAnswer(ex)
		if ex.Status != 200 {
			return ex, ""
		}
		var cs []record
		if ep == listEP {
			cs = candleListOf(ex)[contract]
		} else {
			cs = candlesOf(framework.ArrayOf(ex), ex)
		}
		// A 200 answer never holds more than the documented maximum.
		Expect(len(cs)).To(BeNumerically("<=", 1000), "%s: more than 1000 candles\nexchange: %s", q.Encode(), ex)
		return ex, fmt.Sprintf(", %d candles", len(cs))
	}

	framework.ConformanceContext("V3-FCANDLE-LIMIT-BOUNDS", func() {
		DescribeTable("limit",
			func(ctx SpecContext, kind string, ep endpoint, limit string) {
				ex, count := request(ctx, kind, ep, url.Values{"limit": {limit}})
				framework.Observe("V3-FCANDLE-LIMIT-BOUNDS", "%s %s endpoint, limit=%s: %s%s", kind, ep, limit, outcome(ex), count)
			},
			candleEntries(endpoints, "limit=0", "0"),
			candleEntries(endpoints, "limit=-1", "-1"),
			candleEntries(endpoints, "limit=1001", "1001"),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-OFFSET-BOUNDS", func() {
		DescribeTable("offset",
			func(ctx SpecContext, kind string, ep endpoint, offset string) {
				ex, count := request(ctx, kind, ep, url.Values{"offset": {offset}})
				framework.Observe("V3-FCANDLE-OFFSET-BOUNDS", "%s %s endpoint, offset=%s: %s%s", kind, ep, offset, outcome(ex), count)
			},
			candleEntries([]endpoint{oneEP}, "offset=-1", "-1"),
			candleEntries([]endpoint{oneEP}, "offset=100001", "100001"),
		)
	})
})
