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

// symbols reads the whole symbol map.
func symbols(ctx context.Context, c *client.Client) map[string]record {
	GinkgoHelper()
	return recordsOf(getOK(ctx, c, "/public/symbol", nil))
}

// symbolsWhere returns the sorted codes of the symbols that pick selects.
func symbolsWhere(all map[string]record, pick func(record) bool) []string {
	var out []string
	for _, code := range sortedKeys(all) {
		if pick(all[code]) {
			out = append(out, code)
		}
	}
	return out
}

func isSpot(s record) bool    { return s["type"] == "spot" }
func isFutures(s record) bool { return s["type"] == "futures" }

// contractOf selects futures symbols of one contract_type.
func contractOf(contractType string) func(record) bool {
	return func(s record) bool { return isFutures(s) && s["contract_type"] == contractType }
}

var _ = framework.AreaDescribe("Symbols: GET /public/symbol", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceIt("V3-SYMBOL-MAP", func(ctx SpecContext) {
		// The keys are symbol codes: the by-code endpoint answers to them.
		expectKeysAnswerByCode(ctx, pub, "/public/symbol", symbols(ctx, pub), "symbol")
	})

	framework.ConformanceIt("V3-SYMBOL-FIELDS", func(ctx SpecContext) {
		for code, s := range symbols(ctx, pub) {
			Expect(s).To(framework.MatchSchema(symbolSchema), "symbol %s", code)
			Expect(s["type"]).To(BeElementOf(symbolTypes), "symbol %s: type", code)
			Expect(s["status"]).To(BeElementOf(symbolStatuses), "symbol %s: status", code)
		}
	})

	framework.ConformanceIt("V3-SYMBOL-SPOT", func(ctx SpecContext) {
		all := symbols(ctx, pub)
		spot := symbolsWhere(all, isSpot)
		if len(spot) == 0 {
			Skip("the target lists no spot symbol")
		}
		for _, code := range spot {
			Expect(all[code]).To(HaveKeyWithValue("base_currency", And(BeAssignableToTypeOf(""), Not(BeEmpty()))),
				"spot symbol %s: base_currency must name a currency", code)
		}
	})

	framework.ConformanceIt("V3-SYMBOL-FUTURES", func(ctx SpecContext) {
		all := symbols(ctx, pub)
		futures := symbolsWhere(all, isFutures)
		if len(futures) == 0 {
			Skip("the target lists no futures symbol")
		}
		for _, code := range futures {
			s := all[code]
			Expect(s["contract_type"]).To(BeElementOf(contractTypes), "futures symbol %s: contract_type", code)
			Expect(s).To(HaveKeyWithValue("underlying", And(BeAssignableToTypeOf(""), Not(BeEmpty()))), "futures symbol %s: underlying", code)
			// base_currency is "String or null: null for futures", a field
			// that is not optional: present, and null.
			Expect(s).To(HaveKeyWithValue("base_currency", BeNil()), "futures symbol %s: base_currency", code)
		}
	})

	framework.ConformanceContext("V3-SYMBOL-EXPIRY", func() {
		DescribeTable("expiry of",
			func(ctx SpecContext, contractType string, want OmegaMatcher) {
				all := symbols(ctx, pub)
				codes := symbolsWhere(all, contractOf(contractType))
				if len(codes) == 0 {
					Skip("the target lists no " + contractType + " futures contract")
				}
				for _, code := range codes {
					// expiry is "DateTime or null", not optional: always present.
					Expect(all[code]).To(HaveKeyWithValue("expiry", want), "%s contract %s: expiry", contractType, code)
				}
			},
			Entry("a perpetual contract is null", "perpetual", BeNil()),
			Entry("a cash-settled contract is a DateTime", "cash_settled", framework.BeISOTimestamp()),
		)
	})

	framework.ConformanceIt("V3-SYMBOL-LEVERAGE", func(ctx SpecContext) {
		all := symbols(ctx, pub)
		if len(symbolsWhere(all, func(s record) bool { return s["margin_trading"] == false })) == 0 {
			Skip("every symbol of the target has margin trading, so the rule cannot be seen broken")
		}
		for code, s := range all {
			v, present := s["max_initial_leverage"]
			if !present {
				continue
			}
			Expect(s["margin_trading"]).To(BeTrue(), "symbol %s carries max_initial_leverage %v but margin_trading %v", code, v, s["margin_trading"])
			Expect(v).To(framework.BeDecimalString(), "symbol %s: max_initial_leverage is a number (decimal string)", code)
		}
	})

	DescribeTable("V3-SYMBOL-FILTER "+framework.Rule("V3-SYMBOL-FILTER").Statement,
		framework.Checks("V3-SYMBOL-FILTER", "V3-CONV-GET-QUERY"),
		func(ctx SpecContext, pick func(all map[string]record) []string) {
			all := symbols(ctx, pub)
			codes := pick(all)
			if len(codes) == 0 {
				Skip("the target does not list the symbols this case needs")
			}
			if len(codes) >= len(all) {
				Skip(fmt.Sprintf("the target lists %d symbols, too few to show a filter of %d limiting the answer", len(all), len(codes)))
			}
			q := url.Values{"symbols": {strings.Join(codes, ",")}}
			got := recordsOf(getOK(ctx, pub, "/public/symbol", q))
			Expect(sortedKeys(got)).To(ConsistOf(codes), "symbols=%s", q.Get("symbols"))
			for _, code := range codes {
				Expect(got[code]).To(Equal(all[code]), "symbol %s under the filter differs from its entry in the whole map", code)
			}
		},
		Entry("one code", spreadOf(1)),
		Entry("two codes", spreadOf(2)),
		Entry("three codes", spreadOf(3)),
		Entry("a spot symbol and a futures contract", func(all map[string]record) []string {
			spot, fut := symbolsWhere(all, isSpot), symbolsWhere(all, isFutures)
			if len(spot) == 0 || len(fut) == 0 {
				return nil
			}
			return []string{spot[0], fut[0]}
		}),
	)

	framework.ConformanceIt("V3-SYMBOL-FILTER-EMPTY", func(ctx SpecContext) {
		absent := symbols(ctx, pub)
		Expect(absent).NotTo(BeEmpty(), "all symbols were asked for (no symbols parameter), none came")
		empty := recordsOf(getOK(ctx, pub, "/public/symbol", url.Values{"symbols": {""}}))
		Expect(sortedKeys(empty)).To(Equal(sortedKeys(absent)), "symbols= (empty) answers other symbols than no parameter")
		Expect(empty).To(Equal(absent), "symbols= (empty) answers other records than no parameter")
	})

	framework.ConformanceContext("V3-SYMBOL-ONE", func() {
		DescribeTable("GET /public/symbol/{symbol} for",
			func(ctx SpecContext, what string, pick func(record) bool) {
				all := symbols(ctx, pub)
				codes := symbolsWhere(all, pick)
				if len(codes) == 0 {
					Skip("the target lists no " + what)
				}
				code := codes[0]
				one := framework.JSONOf(getOK(ctx, pub, "/public/symbol/"+url.PathEscape(code), nil))
				Expect(one).To(Equal(any(all[code])), "symbol %s alone differs from its entry in the map", code)
			},
			Entry("a spot symbol", "spot symbol", isSpot),
			Entry("a perpetual contract", "perpetual futures contract", contractOf("perpetual")),
			Entry("a cash-settled contract", "cash_settled futures contract", contractOf("cash_settled")),
		)
	})

	framework.ConformanceContext("V3-SYMBOL-FILTER-UNKNOWN", func() {
		DescribeTable("symbols naming",
			func(ctx SpecContext, withKnown bool) {
				observeUnknownInFilter(ctx, pub, "V3-SYMBOL-FILTER-UNKNOWN", "/public/symbol", "symbols", symbols(ctx, pub), withKnown)
			},
			Entry("only an unknown code", false),
			Entry("a known and an unknown code", true),
		)
	})
})

// spreadOf picks n symbols spread over the sorted listing.
func spreadOf(n int) func(map[string]record) []string {
	return func(all map[string]record) []string {
		if len(all) < n {
			return nil
		}
		return spread(sortedKeys(all), n)
	}
}
