package marketdata

import (
	"fmt"
	"sort"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Networks: the networks of a Currency", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().Public() })

	framework.ConformanceIt("V3-NETWORK-FIELDS", func(ctx SpecContext) {
		seen := 0
		for code, cur := range currencies(ctx, pub) {
			for i, n := range networksOf(code, cur) {
				seen++
				where := fmt.Sprintf("currency %s networks[%d] (code %v)", code, i, n["code"])
				Expect(n).To(framework.MatchSchema(networkSchema), where)
				// asset_id: "values are strings".
				if ids, ok := n["asset_id"].(map[string]any); ok {
					for k, v := range ids {
						Expect(v).To(BeAssignableToTypeOf(""), "%s: asset_id[%q]", where, k)
					}
				}
			}
		}
		if seen == 0 {
			Skip("no currency of the target lists a network")
		}
	})

	framework.ConformanceIt("V3-NETWORK-DEFAULT", func(ctx SpecContext) {
		// The spec says default marks "the default network" without saying
		// how many may carry it: count, per currency, the networks that do.
		byCount := map[int][]string{}
		for code, cur := range currencies(ctx, pub) {
			nets := networksOf(code, cur)
			if len(nets) == 0 {
				continue
			}
			d := 0
			for _, n := range nets {
				if n["default"] == true {
					d++
				}
			}
			byCount[d] = append(byCount[d], code)
		}
		if len(byCount) == 0 {
			Skip("no currency of the target lists a network")
		}
		var parts []string
		for _, d := range sortedInts(byCount) {
			codes := byCount[d]
			sort.Strings(codes)
			parts = append(parts, fmt.Sprintf("%d currencies with %d default networks (e.g. %s)", len(codes), d, codes[0]))
		}
		framework.Observe("V3-NETWORK-DEFAULT", "%s", strings.Join(parts, "; "))
	})
})

func sortedInts[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}
