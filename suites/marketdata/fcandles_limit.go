package marketdata

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Futures candles: limit", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	// The finest period is asked for too: it has the most candles over the
	// same history, so a cap is more likely to be reached.
	periodCases := []url.Values{nil, {"period": {"M1"}}}

	framework.ConformanceContext("V3-FCANDLE-LIST-LIMIT-DEFAULT", func() {
		DescribeTable("GET /public/futures/candles/{kind} without limit",
			func(ctx SpecContext, kind string) {
				for _, q := range periodCases {
					def := candleListOf(getOK(ctx, pub, candleListPath(kind), q))
					for contract, cs := range def {
						Expect(len(cs)).To(BeNumerically("<=", 10), "%s %s (%v): candles without limit", kind, contract, q)
					}
					// Where limit=11 shows 11 candles exist, the default gives 10.
					more := candleListOf(getOK(ctx, pub, candleListPath(kind), withParams(q, "limit", "11")))
					for contract, cs := range more {
						if len(cs) == 11 {
							Expect(len(def[contract])).To(Equal(10), "%s %s (%v): limit=11 gives 11 candles, no limit gives %d", kind, contract, q, len(def[contract]))
						}
					}
				}
			},
			Entry("open_interest", "open_interest"),
			Entry("premium_index", "premium_index"),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-ONE-LIMIT-DEFAULT", func() {
		DescribeTable("GET /public/futures/candles/{kind}/{symbol} without limit",
			func(ctx SpecContext, kind string) {
				for _, contract := range sampleContracts(ctx, pub) {
					for _, q := range periodCases {
						def := fetchCandles(ctx, pub, kind, oneEP, contract, q)
						Expect(len(def)).To(BeNumerically("<=", 100), "%s %s (%v): candles without limit", kind, contract, q)
						more := fetchCandles(ctx, pub, kind, oneEP, contract, withParams(q, "limit", "101"))
						if len(more) == 101 {
							Expect(len(def)).To(Equal(100), "%s %s (%v): limit=101 gives 101 candles, no limit gives %d", kind, contract, q, len(def))
						}
					}
				}
			},
			Entry("open_interest", "open_interest"),
			Entry("premium_index", "premium_index"),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-LIMIT", func() {
		DescribeTable("limit",
			func(ctx SpecContext, kind string, ep endpoint, limit int) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s (%s endpoint)", kind, contract, ep)
				first := fetchCandles(ctx, pub, kind, ep, contract, nil)
				needCandles(first, 1, what)
				// One till for every request, so that the candles on offer
				// do not change between them.
				q := url.Values{"till": {newestStamp(first, what)}}
				all := fetchCandles(ctx, pub, kind, ep, contract, withParams(q, "limit", "1000"))
				Expect(len(all)).To(BeNumerically("<=", 1000), "%s, limit=1000", what)
				Expect(len(all)).To(BeNumerically(">=", len(first)-1), "%s: limit=1000 gives fewer candles than no limit", what)
				got := fetchCandles(ctx, pub, kind, ep, contract, withParams(q, "limit", strconv.Itoa(limit)))
				Expect(len(got)).To(Equal(min(limit, len(all))), "%s: limit=%d with %d candles on offer (limit=1000 gives %d)", what, limit, len(all), len(all))
				if ep == listEP {
					// "per contract on the list endpoints": every contract is capped.
					for c, cs := range candleListOf(getOK(ctx, pub, candleListPath(kind), url.Values{"limit": {strconv.Itoa(limit)}})) {
						Expect(len(cs)).To(BeNumerically("<=", limit), "%s %s (list endpoint, all contracts): limit=%d", kind, c, limit)
					}
				}
			},
			candleEntries(endpoints, "limit=1", 1),
			candleEntries(endpoints, "limit=7", 7),
			candleEntries(endpoints, "limit=1000", 1000),
		)
	})
})
