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

var _ = framework.AreaDescribe("v2 public market data", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().V2Public() })

	// Currency and Symbol: the list with its fields, the filter parameter
	// and the one record by path, the same three rules for each.
	for _, r := range []struct {
		rule, path, filter string
		schema             framework.Schema
	}{
		{"V2-CURRENCY", "/public/currency", "currencies", currencySchema},
		{"V2-SYMBOL", "/public/symbol", "symbols", symbolSchema},
	} {
		framework.ConformanceIt(r.rule+"-FIELDS", func(ctx SpecContext) {
			objs, ids := list(ctx, pub, r.path, nil)
			Expect(objs).NotTo(BeEmpty(), "GET /api/2%s lists the records", r.path)
			for i, o := range objs {
				Expect(o).To(framework.MatchSchema(r.schema), "%s %s", r.path, ids[i])
			}
		})

		framework.ConformanceIt(r.rule+"-FILTER", func(ctx SpecContext) {
			_, all := list(ctx, pub, r.path, nil)
			want := pick(all, 2)
			_, got := list(ctx, pub, r.path, url.Values{r.filter: {strings.Join(want, ",")}})
			Expect(got).To(ConsistOf(want), "%s=%s", r.filter, strings.Join(want, ","))
		})

		framework.ConformanceIt(r.rule+"-ONE", func(ctx SpecContext) {
			_, all := list(ctx, pub, r.path, nil)
			for _, id := range pick(all, 3) {
				o, _ := framework.GetObject(ctx, pub, r.path+"/"+id, nil)
				Expect(o["id"]).To(Equal(id), "GET /api/2%s/%s", r.path, id)
				Expect(o).To(framework.MatchSchema(r.schema), "%s/%s", r.path, id)
			}
		})
	}

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
