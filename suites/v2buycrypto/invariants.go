package v2buycrypto

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = framework.AreaDescribe("v2 buy-crypto: invariants between fields", func() {
	framework.ConformanceIt("V2-BUY-LIMIT-MINMAX", func(ctx SpecContext) {
		seen := 0
		for _, p := range providers(ctx) {
			for _, m := range objects(p["methods"]) {
				for _, l := range objects(m["transactionLimits"]) {
					seen++
					where := fmt.Sprintf("a limit of method %v (%v to %v)", m["id"], l["currencyCode"], l["targetCode"])
					lo, errLo := decimal.NewFromString(fmt.Sprint(l["sourceMin"]))
					hi, errHi := decimal.NewFromString(fmt.Sprint(l["sourceMax"]))
					Expect(errLo == nil && errHi == nil).To(BeTrue(), "%s: sourceMin %v and sourceMax %v are decimals", where, l["sourceMin"], l["sourceMax"])
					Expect(lo.LessThanOrEqual(hi)).To(BeTrue(), "%s: sourceMin %s is at most sourceMax %s", where, lo, hi)
				}
			}
		}
		if seen == 0 {
			Skip("no provider method of the target lists a transaction limit")
		}
	})
})
