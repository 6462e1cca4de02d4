package marketdata

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Futures candles: shape", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceContext("V3-FCANDLE-LIST-SHAPE", func() {
		DescribeTable("GET /public/futures/candles/{kind}",
			func(ctx SpecContext, kind string, oneContract bool) {
				futures := symbolsWhere(symbols(ctx, pub), isFutures)
				if len(futures) == 0 {
					Skip("the target lists no futures contract")
				}
				var q url.Values
				if oneContract {
					q = url.Values{"symbols": {futures[0]}}
				}
				// candleListOf fails on anything but an object of arrays of objects.
				got := candleListOf(getOK(ctx, pub, candleListPath(kind), q))
				for _, key := range sortedKeys(got) {
					Expect(key).To(BeElementOf(futures), "key %q is not a contract code (a symbol of type futures)", key)
				}
			},
			Entry("open_interest, all contracts", "open_interest", false),
			Entry("open_interest, one contract named by symbols", "open_interest", true),
			Entry("premium_index, all contracts", "premium_index", false),
			Entry("premium_index, one contract named by symbols", "premium_index", true),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-FIELDS", func() {
		DescribeTable("every candle of",
			func(ctx SpecContext, kind string, ep endpoint) {
				n := 0
				for contract, cs := range series(ctx, pub, kind, ep, nil) {
					for i, c := range cs {
						n++
						Expect(c).To(framework.MatchSchema(candleSchema), "%s candle %d of %s (%s endpoint)", kind, i, contract, ep)
					}
				}
				if n == 0 {
					Skip("the target answers no " + kind + " candle")
				}
			},
			candleEntries(endpoints, ""),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-SYMBOLS", func() {
		DescribeTable("symbols on GET /public/futures/candles/{kind} naming",
			func(ctx SpecContext, kind string, n int) {
				unfiltered := candleListOf(getOK(ctx, pub, candleListPath(kind), nil))
				futures := symbolsWhere(symbols(ctx, pub), isFutures)
				if len(futures) <= n {
					Skip(fmt.Sprintf("the target lists %d futures contracts, too few to show a filter of %d limiting the answer", len(futures), n))
				}
				codes := spread(futures, n)
				if len(sortedKeys(unfiltered)) == 0 || allIn(sortedKeys(unfiltered), codes) {
					Skip("without symbols the target answers no contract besides " + strings.Join(codes, ",") + ", so a filter cannot be seen limiting")
				}
				got := candleListOf(getOK(ctx, pub, candleListPath(kind), url.Values{"symbols": {strings.Join(codes, ",")}}))
				for _, key := range sortedKeys(got) {
					Expect(key).To(BeElementOf(codes), "symbols=%s answers contract %s too", strings.Join(codes, ","), key)
				}
				// A named contract that has candles is not left out.
				for _, code := range codes {
					if len(unfiltered[code]) > 0 {
						Expect(got[code]).NotTo(BeEmpty(), "symbols=%s leaves out %s, which has candles without the filter", strings.Join(codes, ","), code)
					}
				}
			},
			Entry("open_interest, one contract", "open_interest", 1),
			Entry("open_interest, two contracts", "open_interest", 2),
			Entry("premium_index, one contract", "premium_index", 1),
			Entry("premium_index, two contracts", "premium_index", 2),
		)
	})
})
