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

// offset exists on the by-contract endpoints only.
var _ = framework.AreaDescribe("Futures candles: offset", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceContext("V3-FCANDLE-OFFSET", func() {
		DescribeTable("GET /public/futures/candles/{kind}/{symbol} with offset",
			func(ctx SpecContext, kind string, ep endpoint, offset int, sort string) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s", kind, contract)
				first := fetchCandles(ctx, pub, kind, ep, contract, nil)
				needCandles(first, 1, what)
				// Same till, sort and limit for both requests, so that the
				// offset is all that differs.
				q := url.Values{"till": {newestStamp(first, what)}, "limit": {strconv.Itoa(offset + 10)}}
				if sort != "" {
					q.Set("sort", sort)
				}
				base, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, q), what)
				if len(base) <= offset {
					Skip(fmt.Sprintf("%s has %d candles up to %s; offset=%d needs more", what, len(base), q.Get("till"), offset))
				}
				got, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, withParams(q, "offset", strconv.Itoa(offset))), what)
				Expect(len(got)).To(BeNumerically(">=", len(base)-offset), "%s, %s: offset=%d returns too few candles", what, q.Encode(), offset)
				Expect(got[:len(base)-offset]).To(Equal(base[offset:]), "%s, %s: offset=%d does not skip the first %d candles of offset=0\noffset=0: %v", what, q.Encode(), offset, offset, base)
			},
			candleEntries([]endpoint{oneEP}, "offset=1", 1, ""),
			candleEntries([]endpoint{oneEP}, "offset=7", 7, ""),
			candleEntries([]endpoint{oneEP}, "offset=3, sort=ASC", 3, "ASC"),
		)

		DescribeTable("GET /public/futures/candles/{kind}/{symbol}, offset default 0",
			func(ctx SpecContext, kind string, ep endpoint) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s", kind, contract)
				first := fetchCandles(ctx, pub, kind, ep, contract, nil)
				needCandles(first, 1, what)
				q := url.Values{"till": {newestStamp(first, what)}}
				def, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, q), what)
				zero, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, withParams(q, "offset", "0")), what)
				Expect(def).To(Equal(zero), "%s: no offset and offset=0 answer different candles", what)
			},
			candleEntries([]endpoint{oneEP}, ""),
		)

		DescribeTable("GET /public/futures/candles/{kind}/{symbol}, offset up to 100000",
			func(ctx SpecContext, kind string, ep endpoint) {
				contract := candleContract(ctx, pub)
				// fetchCandles expects HTTP 200 with an array: the offset is accepted.
				cs := fetchCandles(ctx, pub, kind, ep, contract, url.Values{"offset": {"100000"}})
				Expect(len(cs)).To(BeNumerically("<=", 100), "%s %s, offset=100000: more candles than the default limit", kind, contract)
			},
			candleEntries([]endpoint{oneEP}, "offset=100000"),
		)
	})
})
