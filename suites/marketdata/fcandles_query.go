package marketdata

import (
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Futures candles: sort, period and range", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	// expectOrder checks the order of every series that has two candles or
	// more, skipping when none has.
	expectOrder := func(all map[string][]record, desc bool, what string) {
		GinkgoHelper()
		checked := 0
		for contract, cs := range all {
			if len(cs) >= 2 {
				checked++
				expectStrictOrder(cs, desc, fmt.Sprintf("%s %s", what, contract))
			}
		}
		if checked == 0 {
			Skip(what + ": no contract has two candles to order")
		}
	}

	framework.ConformanceContext("V3-FCANDLE-SORT-DEFAULT", func() {
		DescribeTable("without sort",
			func(ctx SpecContext, kind string, ep endpoint) {
				expectOrder(series(ctx, pub, kind, ep, nil), true, fmt.Sprintf("%s (%s endpoint, no sort)", kind, ep))
			},
			candleEntries(endpoints, ""),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-SORT", func() {
		DescribeTable("sort",
			func(ctx SpecContext, kind string, ep endpoint, sort string) {
				q := url.Values{"sort": {sort}}
				expectOrder(series(ctx, pub, kind, ep, q), sort == "DESC", fmt.Sprintf("%s (%s endpoint, sort=%s)", kind, ep, sort))
			},
			candleEntries(endpoints, "ASC", "ASC"),
			candleEntries(endpoints, "DESC", "DESC"),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-PERIOD-DEFAULT", func() {
		DescribeTable("without period",
			func(ctx SpecContext, kind string, ep endpoint) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s (%s endpoint)", kind, contract, ep)
				first := fetchCandles(ctx, pub, kind, ep, contract, url.Values{"period": {"M30"}})
				needCandles(first, 2, what+" with period=M30")
				// The same till for both, so that a new bucket cannot
				// start between them; timestamps only, as the newest
				// candle's values may still move.
				q := url.Values{"till": {newestStamp(first, what)}}
				def, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, q), what+" without period")
				m30, _ := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, withParams(q, "period", "M30")), what+" with period=M30")
				Expect(def).To(Equal(m30), "%s: the candles without period are not the period=M30 candles", what)
			},
			candleEntries(endpoints, ""),
		)
	})

	framework.ConformanceContext("V3-FCANDLE-PERIOD", func() {
		var entries []TableEntry
		for _, p := range periods {
			entries = append(entries, candleEntries(endpoints, "period="+p, p)...)
		}
		DescribeTable("period",
			func(ctx SpecContext, kind string, ep endpoint, period string) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s (%s endpoint, period=%s)", kind, contract, ep, period)
				// fetchCandles expects HTTP 200: the period is accepted.
				cs := fetchCandles(ctx, pub, kind, ep, contract, url.Values{"period": {period}})
				// The candles are one period wide.
				expectPeriodSpacing(cs, period, what)
			},
			entries,
		)
	})

	framework.ConformanceContext("V3-FCANDLE-RANGE", func() {
		DescribeTable("from and till",
			func(ctx SpecContext, kind string, ep endpoint, useFrom, useTill bool) {
				contract := candleContract(ctx, pub)
				what := fmt.Sprintf("%s %s (%s endpoint)", kind, contract, ep)
				base := fetchCandles(ctx, pub, kind, ep, contract, nil)
				needCandles(base, 4, what)
				raw, ts := stampsOf(base, what)
				asc := ascending(raw, ts)
				// Bounds taken from the answer, with candles outside them.
				// A one-sided window is kept a few candles wide, so that new
				// candles arriving in the meantime cannot push the expected
				// ones past the default limit.
				from, till := asc[1], asc[len(asc)-2]
				switch {
				case !useTill:
					from = asc[len(asc)-3]
				case !useFrom:
					till = asc[2]
				}
				q := url.Values{}
				if useFrom {
					q.Set("from", from.raw)
				}
				if useTill {
					q.Set("till", till.raw)
				}
				gotRaw, gotTs := stampsOf(fetchCandles(ctx, pub, kind, ep, contract, q), what)
				for i, t := range gotTs {
					if useFrom {
						Expect(t.Before(from.t)).To(BeFalse(), "%s, %s: candle %s is before from", what, q.Encode(), gotRaw[i])
					}
					if useTill {
						Expect(t.After(till.t)).To(BeFalse(), "%s, %s: candle %s is after till", what, q.Encode(), gotRaw[i])
					}
				}
				// The candles strictly inside the window are all there
				// (whether the bounds are inclusive is not said).
				for _, s := range asc {
					if (!useFrom || s.t.After(from.t)) && (!useTill || s.t.Before(till.t)) {
						Expect(gotTs).To(ContainElement(BeTemporally("==", s.t)), "%s, %s: candle %s, inside the window, is missing\ngot: %v", what, q.Encode(), s.raw, gotRaw)
					}
				}
			},
			candleEntries(endpoints, "from and till", true, true),
			candleEntries(endpoints, "from only", true, false),
			candleEntries(endpoints, "till only", false, true),
		)
	})
})

type stamp struct {
	raw string
	t   time.Time
}

// ascending pairs timestamps with their text, oldest first.
func ascending(raw []string, ts []time.Time) []stamp {
	out := make([]stamp, len(raw))
	for i := range raw {
		out[i] = stamp{raw[i], ts[i]}
	}
	slices.SortFunc(out, func(a, b stamp) int { return a.t.Compare(b.t) })
	return out
}
