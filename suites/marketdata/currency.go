package marketdata

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

// currencies reads the whole currency map.
func currencies(ctx context.Context, c *client.Client) map[string]record {
	GinkgoHelper()
	return recordsOf(getOK(ctx, c, "/public/currency", nil))
}

// networksOf returns a currency's networks items; a non-object item fails,
// since networks is an "array of Network".
func networksOf(code string, cur record) []record {
	GinkgoHelper()
	items, _ := cur["networks"].([]any)
	out := make([]record, 0, len(items))
	for i, it := range items {
		n, ok := it.(map[string]any)
		Expect(ok).To(BeTrue(), "currency %s: networks[%d] is not a Network object but %#v", code, i, it)
		out = append(out, n)
	}
	return out
}

var _ = framework.AreaDescribe("Currencies: GET /public/currency", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceIt("V3-CURRENCY-MAP", func(ctx SpecContext) {
		// The keys are currency codes: the by-code endpoint answers to them.
		expectKeysAnswerByCode(ctx, pub, "/public/currency", currencies(ctx, pub), "currency")
	})

	framework.ConformanceIt("V3-CURRENCY-FIELDS", func(ctx SpecContext) {
		for code, cur := range currencies(ctx, pub) {
			Expect(cur).To(framework.MatchSchema(currencySchema), "currency %s", code)
		}
	})

	framework.ConformanceIt("V3-CURRENCY-EXPLORER-TX", func(ctx SpecContext) {
		links := map[string]any{} // where -> crypto_explorer
		for code, cur := range currencies(ctx, pub) {
			if v, ok := cur["crypto_explorer"]; ok {
				links["currency "+code] = v
			}
			for _, n := range networksOf(code, cur) {
				if v, ok := n["crypto_explorer"]; ok {
					links["currency "+code+" network "+fmtAny(n["code"])] = v
				}
			}
		}
		if len(links) == 0 {
			Skip("no currency or network of the target carries a crypto_explorer link")
		}
		for where, v := range links {
			Expect(v).To(ContainSubstring("{tx}"), "crypto_explorer of %s", where)
		}
	})

	framework.ConformanceContext("V3-CURRENCY-FILTER", func() {
		DescribeTable("currencies names",
			func(ctx SpecContext, n int) {
				all := currencies(ctx, pub)
				if len(all) <= n {
					Skip(fmt.Sprintf("the target lists %d currencies, too few to show a filter of %d limiting the answer", len(all), n))
				}
				codes := spread(sortedKeys(all), n)
				got := recordsOf(getOK(ctx, pub, "/public/currency", url.Values{"currencies": {strings.Join(codes, ",")}}))
				Expect(sortedKeys(got)).To(ConsistOf(codes), "currencies=%s", strings.Join(codes, ","))
				for _, code := range codes {
					Expect(got[code]).To(Equal(all[code]), "currency %s under the filter differs from its entry in the whole map", code)
				}
			},
			Entry("one code", 1),
			Entry("two codes", 2),
			Entry("three codes", 3),
		)
	})

	framework.ConformanceContext("V3-CURRENCY-FILTER-EMPTY", func() {
		DescribeTable("the currencies parameter",
			func(ctx SpecContext, q url.Values) {
				got := recordsOf(getOK(ctx, pub, "/public/currency", q))
				Expect(got).NotTo(BeEmpty(), "all currencies were asked for, none came")
				// "All" includes at least every currency a symbol names.
				for sym, s := range symbols(ctx, pub) {
					for _, f := range []string{"base_currency", "quote_currency", "fee_currency"} {
						if code, ok := s[f].(string); ok && code != "" {
							Expect(got).To(HaveKey(code), "symbol %s names %s %s, which the answer for all currencies lacks", sym, f, code)
						}
					}
				}
				Expect(sortedKeys(got)).To(Equal(sortedKeys(currencies(ctx, pub))), "the answer differs from the one without the parameter")
			},
			Entry("absent", url.Values(nil)),
			Entry("empty", url.Values{"currencies": {""}}),
		)
	})

	framework.ConformanceContext("V3-CURRENCY-ONE", func() {
		DescribeTable("GET /public/currency/{currency} for",
			func(ctx SpecContext, what string, pick func(code string, cur record) bool) {
				all := currencies(ctx, pub)
				code := ""
				for _, k := range sortedKeys(all) {
					if pick(k, all[k]) {
						code = k
						break
					}
				}
				if code == "" {
					Skip("the target lists no " + what)
				}
				one := framework.JSONOf(getOK(ctx, pub, "/public/currency/"+url.PathEscape(code), nil))
				Expect(one).To(Equal(any(all[code])), "currency %s alone differs from its entry in the map", code)
			},
			Entry("a crypto currency", "crypto currency", func(_ string, c record) bool { return c["crypto"] == true }),
			Entry("a fiat currency", "fiat currency", func(_ string, c record) bool { return c["crypto"] == false }),
			Entry("a currency on several networks", "currency on several networks", func(code string, c record) bool {
				return len(networksOf(code, c)) >= 2
			}),
		)
	})

	framework.ConformanceIt("V3-CURRENCY-PREFERRED-NETWORK", func(ctx SpecContext) {
		all := currencies(ctx, pub)
		// Prefer a network that is not a currency's default, where a
		// preference could change something; else take any network.
		var code, network, anyCode, anyNetwork string
		for _, k := range sortedKeys(all) {
			for _, n := range networksOf(k, all[k]) {
				nc, _ := n["code"].(string)
				switch {
				case nc == "":
				case network == "" && n["default"] != true:
					code, network = k, nc
				case anyNetwork == "":
					anyCode, anyNetwork = k, nc
				}
			}
		}
		if network == "" {
			code, network = anyCode, anyNetwork
		}
		if network == "" {
			Skip("no currency of the target lists a network")
		}
		ex := get(ctx, pub, "/public/currency", url.Values{"preferred_network": {network}})
		expectConformingAnswer(ex)
		if ex.Status != 200 {
			framework.Observe("V3-CURRENCY-PREFERRED-NETWORK", "preferred_network=%s: %s", network, outcome(ex))
			return
		}
		got := recordsOf(ex)
		var nets []string
		if cur, ok := got[code]; ok {
			for _, n := range networksOf(code, cur) {
				nets = append(nets, fmtAny(n["code"]))
			}
		}
		framework.Observe("V3-CURRENCY-PREFERRED-NETWORK",
			"preferred_network=%s (a network of %s): %s, %d of %d currencies [%s]; %s networks [%s]; answer identical to the unfiltered one: %t",
			network, code, outcome(ex), len(got), len(all), strings.Join(sortedKeys(got), ","), code, strings.Join(nets, ","), equalJSON(got, all))
	})

	framework.ConformanceContext("V3-CURRENCY-FILTER-UNKNOWN", func() {
		DescribeTable("currencies naming",
			func(ctx SpecContext, withKnown bool) {
				observeUnknownInFilter(ctx, pub, "V3-CURRENCY-FILTER-UNKNOWN", "/public/currency", "currencies", currencies(ctx, pub), withKnown)
			},
			Entry("only an unknown code", false),
			Entry("a known and an unknown code", true),
		)
	})
})
