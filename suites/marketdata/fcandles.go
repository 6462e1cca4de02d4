package marketdata

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// candleKinds are the two futures candle families; they share every
// parameter and shape ("same as open_interest list/by contract").
var candleKinds = []string{"open_interest", "premium_index"}

// endpoint tells the list endpoint (/public/futures/candles/{kind}, keyed by
// contract) from the by-contract one (/public/futures/candles/{kind}/{symbol}).
type endpoint string

const (
	listEP endpoint = "list"
	oneEP  endpoint = "by-contract"
)

var endpoints = []endpoint{listEP, oneEP}

// periods are the documented period values, in order.
var periods = []string{"M1", "M3", "M5", "M15", "M30", "H1", "H4", "D1", "D7", "1M"}

// candleEntries makes one table entry per kind and endpoint; the body gets
// (ctx, kind, ep, args...).
func candleEntries(eps []endpoint, label string, args ...any) []TableEntry {
	var out []TableEntry
	for _, kind := range candleKinds {
		for _, ep := range eps {
			desc := fmt.Sprintf("%s, %s endpoint", kind, ep)
			if label != "" {
				desc += ", " + label
			}
			out = append(out, Entry(desc, append([]any{kind, ep}, args...)...))
		}
	}
	return out
}

func candleListPath(kind string) string { return "/public/futures/candles/" + kind }

func candleOnePath(kind, contract string) string {
	return "/public/futures/candles/" + kind + "/" + url.PathEscape(contract)
}

// candleListOf decodes a list answer: an object keyed by contract whose
// values are arrays of candle objects.
func candleListOf(ex *client.Exchange) map[string][]record {
	GinkgoHelper()
	out := map[string][]record{}
	for contract, v := range framework.ObjectOf(ex) {
		items, ok := v.([]any)
		Expect(ok).To(BeTrue(), "contract %s: value is not an array of candles but %#v\nexchange: %s", contract, v, ex)
		out[contract] = candlesOf(items, ex)
	}
	return out
}

func candlesOf(items []any, ex *client.Exchange) []record {
	GinkgoHelper()
	out := make([]record, 0, len(items))
	for i, it := range items {
		c, ok := it.(map[string]any)
		Expect(ok).To(BeTrue(), "candle %d is not an object but %#v\nexchange: %s", i, it, ex)
		out = append(out, c)
	}
	return out
}

func withParams(q url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

// fetchCandles returns one contract's candles from either endpoint; on the
// list endpoint it asks for that contract with symbols and takes its entry
// (none when the answer lacks it).
func fetchCandles(ctx context.Context, c *client.Client, kind string, ep endpoint, contract string, q url.Values) []record {
	GinkgoHelper()
	if ep == listEP {
		return candleListOf(getOK(ctx, c, candleListPath(kind), withParams(q, "symbols", contract)))[contract]
	}
	ex := getOK(ctx, c, candleOnePath(kind, contract), q)
	return candlesOf(framework.ArrayOf(ex), ex)
}

// series returns candle arrays by contract: every contract of the list
// answer, or each sample contract from the by-contract endpoint.
func series(ctx context.Context, c *client.Client, kind string, ep endpoint, q url.Values) map[string][]record {
	GinkgoHelper()
	if ep == listEP {
		return candleListOf(getOK(ctx, c, candleListPath(kind), q))
	}
	out := map[string][]record{}
	for _, contract := range sampleContracts(ctx, c) {
		out[contract] = fetchCandles(ctx, c, kind, oneEP, contract, q)
	}
	return out
}

// sampleContracts returns the first perpetual and the first cash-settled
// contract the target lists (or its first futures symbol), skipping the spec
// when it lists none.
func sampleContracts(ctx context.Context, c *client.Client) []string {
	GinkgoHelper()
	all := symbols(ctx, c)
	var out []string
	for _, ct := range contractTypes {
		if codes := symbolsWhere(all, contractOf(ct)); len(codes) > 0 {
			out = append(out, codes[0])
		}
	}
	if len(out) == 0 {
		if codes := symbolsWhere(all, isFutures); len(codes) > 0 {
			out = append(out, codes[0])
		}
	}
	if len(out) == 0 {
		Skip("the target lists no futures contract (symbol of type futures)")
	}
	return out
}

// candleContract is the one contract a spec needs a consistent window of.
func candleContract(ctx context.Context, c *client.Client) string {
	GinkgoHelper()
	return sampleContracts(ctx, c)[0]
}

// needCandles skips a spec that needs at least n candles to say anything.
func needCandles(cs []record, n int, what string) {
	GinkgoHelper()
	if len(cs) < n {
		Skip(fmt.Sprintf("%s has %d candles; the spec needs at least %d", what, len(cs), n))
	}
}

// stampsOf returns the candles' timestamps as sent and parsed.
func stampsOf(cs []record, what string) ([]string, []time.Time) {
	GinkgoHelper()
	raw := make([]string, len(cs))
	ts := make([]time.Time, len(cs))
	for i, c := range cs {
		s, ok := c["timestamp"].(string)
		Expect(ok).To(BeTrue(), "%s: candle %d has no timestamp string: %v", what, i, c)
		t, err := time.Parse(time.RFC3339Nano, s)
		Expect(err).NotTo(HaveOccurred(), "%s: candle %d timestamp %q is not ISO 8601", what, i, s)
		raw[i], ts[i] = s, t
	}
	return raw, ts
}

// newestStamp returns the newest candle timestamp as sent, used as till to
// freeze a window against a moving "now" across several requests.
func newestStamp(cs []record, what string) string {
	GinkgoHelper()
	raw, ts := stampsOf(cs, what)
	best := 0
	for i := range ts {
		if ts[i].After(ts[best]) {
			best = i
		}
	}
	return raw[best]
}

// expectStrictOrder checks timestamps strictly decreasing (desc) or
// increasing; candles of one contract and period never share a timestamp.
func expectStrictOrder(cs []record, desc bool, what string) {
	GinkgoHelper()
	raw, ts := stampsOf(cs, what)
	for i := 1; i < len(ts); i++ {
		ok := ts[i].After(ts[i-1])
		if desc {
			ok = ts[i].Before(ts[i-1])
		}
		Expect(ok).To(BeTrue(), "%s: candle %d (%s) follows candle %d (%s); want %s order\ntimestamps: %v",
			what, i, raw[i], i-1, raw[i-1], map[bool]string{true: "newest first", false: "oldest first"}[desc], raw)
	}
}

// periodStep is the width of a fixed-width period; 1M is a calendar month.
var periodStep = map[string]time.Duration{
	"M1": time.Minute, "M3": 3 * time.Minute, "M5": 5 * time.Minute, "M15": 15 * time.Minute,
	"M30": 30 * time.Minute, "H1": time.Hour, "H4": 4 * time.Hour, "D1": 24 * time.Hour, "D7": 7 * 24 * time.Hour,
}

// expectPeriodSpacing checks that candles of a period are that period
// apart: every gap a whole number of periods, the smallest gap one period.
func expectPeriodSpacing(cs []record, period, what string) {
	GinkgoHelper()
	raw, ts := stampsOf(cs, what)
	sorted := append([]time.Time(nil), ts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Before(sorted[j]) })
	smallest := -1
	for i := 1; i < len(sorted); i++ {
		a, b := sorted[i-1], sorted[i]
		var gap int // in periods
		if period == "1M" {
			gap = (b.Year()*12 + int(b.Month())) - (a.Year()*12 + int(a.Month()))
			Expect(b.Sub(a)).To(BeNumerically(">=", 28*24*time.Hour), "%s: %s and %s are less than a month apart\ntimestamps: %v", what, a, b, raw)
		} else {
			d := b.Sub(a)
			Expect(d%periodStep[period]).To(BeZero(), "%s: %s and %s are %s apart, not a multiple of %s\ntimestamps: %v", what, a, b, d, period, raw)
			gap = int(d / periodStep[period])
		}
		Expect(gap).To(BeNumerically(">=", 1), "%s: %s and %s fall in the same %s period\ntimestamps: %v", what, a, b, period, raw)
		if smallest < 0 || gap < smallest {
			smallest = gap
		}
	}
	if smallest > 0 {
		Expect(smallest).To(Equal(1), "%s: no two candles are one %s period apart\ntimestamps: %v", what, period, raw)
	}
}
