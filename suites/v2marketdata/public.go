package v2marketdata

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// pick returns up to n ids spread over the list (first, last, middle).
func pick(ids []string, n int) []string {
	if len(ids) <= n {
		return ids
	}
	out := []string{ids[0], ids[len(ids)-1]}
	for i := 1; len(out) < n; i++ {
		out = append(out, ids[i*len(ids)/n])
	}
	return out
}

// list reads an array resource and its ids.
func list(ctx context.Context, c *client.Client, path string, q url.Values) ([]map[string]any, []string) {
	GinkgoHelper()
	objs, _ := framework.GetObjects(ctx, c, path, q)
	return objs, framework.IDsOf(objs, "id")
}

var _ = Describe("v2 public market data", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().V2Public() })

	framework.ConformanceIt("V2-CURRENCY-FIELDS", func(ctx SpecContext) {
		objs, ids := list(ctx, pub, "/public/currency", nil)
		Expect(objs).NotTo(BeEmpty(), "GET /api/2/public/currency lists the currencies")
		for i, o := range objs {
			Expect(o).To(framework.MatchSchema(currencySchema), "currency %s", ids[i])
		}
	})

	framework.ConformanceIt("V2-CURRENCY-FILTER", func(ctx SpecContext) {
		_, all := list(ctx, pub, "/public/currency", nil)
		want := pick(all, 2)
		_, got := list(ctx, pub, "/public/currency", url.Values{"currencies": {strings.Join(want, ",")}})
		Expect(got).To(ConsistOf(want), "currencies=%s", strings.Join(want, ","))
	})

	framework.ConformanceIt("V2-CURRENCY-ONE", func(ctx SpecContext) {
		_, all := list(ctx, pub, "/public/currency", nil)
		for _, id := range pick(all, 3) {
			o, _ := framework.GetObject(ctx, pub, "/public/currency/"+id, nil)
			Expect(o["id"]).To(Equal(id), "GET /api/2/public/currency/%s", id)
			Expect(o).To(framework.MatchSchema(currencySchema), "currency %s", id)
		}
	})

	framework.ConformanceIt("V2-SYMBOL-FIELDS", func(ctx SpecContext) {
		objs, ids := list(ctx, pub, "/public/symbol", nil)
		Expect(objs).NotTo(BeEmpty(), "GET /api/2/public/symbol lists the symbols")
		for i, o := range objs {
			Expect(o).To(framework.MatchSchema(symbolSchema), "symbol %s", ids[i])
		}
	})

	framework.ConformanceIt("V2-SYMBOL-FILTER", func(ctx SpecContext) {
		_, all := list(ctx, pub, "/public/symbol", nil)
		want := pick(all, 2)
		_, got := list(ctx, pub, "/public/symbol", url.Values{"symbols": {strings.Join(want, ",")}})
		Expect(got).To(ConsistOf(want), "symbols=%s", strings.Join(want, ","))
	})

	framework.ConformanceIt("V2-SYMBOL-ONE", func(ctx SpecContext) {
		_, all := list(ctx, pub, "/public/symbol", nil)
		for _, id := range pick(all, 3) {
			o, _ := framework.GetObject(ctx, pub, "/public/symbol/"+id, nil)
			Expect(o["id"]).To(Equal(id), "GET /api/2/public/symbol/%s", id)
			Expect(o).To(framework.MatchSchema(symbolSchema), "symbol %s", id)
		}
	})

	framework.ConformanceIt("V2-TICKER-FIELDS", func(ctx SpecContext) {
		objs, _ := framework.GetObjects(ctx, pub, "/public/ticker", nil)
		Expect(objs).NotTo(BeEmpty(), "GET /api/2/public/ticker lists tickers")
		for _, o := range objs {
			Expect(o).To(framework.MatchSchema(tickerSchema), "ticker of %v", o["symbol"])
		}
	})

	framework.ConformanceIt("V2-TICKER-FILTER", func(ctx SpecContext) {
		_, all := list(ctx, pub, "/public/symbol", nil)
		want := pick(all, 2)
		objs, _ := framework.GetObjects(ctx, pub, "/public/ticker", url.Values{"symbols": {strings.Join(want, ",")}})
		Expect(framework.IDsOf(objs, "symbol")).To(ConsistOf(want), "symbols=%s", strings.Join(want, ","))
	})

	framework.ConformanceIt("V2-TICKER-NO-TRADE", func(ctx SpecContext) {
		objs, _ := framework.GetObjects(ctx, pub, "/public/ticker", nil)
		seen := 0
		for _, o := range objs {
			if o["volume"] != "0" || seen == 3 {
				continue
			}
			seen++
			framework.Observe("V2-TICKER-NO-TRADE", "%v without trades in 24 hours: last=%#v open=%#v low=%#v high=%#v",
				o["symbol"], o["last"], o["open"], o["low"], o["high"])
		}
		if seen == 0 {
			framework.Observe("V2-TICKER-NO-TRADE", "every listed symbol traded in the last 24 hours: nothing to record")
		}
	})

	framework.ConformanceIt("V2-CONV-PROCESSING-TIME", func(ctx SpecContext) {
		objs, ids := list(ctx, pub, "/public/currency", nil)
		kinds := map[string]int{}
		for _, o := range objs {
			for _, k := range []string{"lowProcessingTime", "highProcessingTime", "avgProcessingTime"} {
				if v, ok := o[k]; ok {
					kinds[fmt.Sprintf("%s as %T", k, v)]++
				}
			}
		}
		framework.Observe("V2-CONV-PROCESSING-TIME", "over %d currencies: %v", len(ids), kinds)
	})
})
