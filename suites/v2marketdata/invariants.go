package v2marketdata

import (
	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = framework.AreaDescribe("v2 invariants between fields of market data records", func() {
	var pub *client.Client
	BeforeEach(func() { pub = framework.Current().V2Public() })

	framework.ConformanceIt("V2-SYMBOL-STEPS-POSITIVE", func(ctx SpecContext) {
		objs, ids := list(ctx, pub, "/public/symbol", nil)
		Expect(objs).NotTo(BeEmpty(), "GET /api/2/public/symbol lists the symbols")
		for i, o := range objs {
			for _, field := range []string{"quantityIncrement", "tickSize"} {
				s, ok := o[field].(string)
				Expect(ok).To(BeTrue(), "symbol %s: %s is not a decimal string but %#v", ids[i], field, o[field])
				d, err := decimal.NewFromString(s)
				Expect(err).NotTo(HaveOccurred(), "symbol %s: %s %q", ids[i], field, s)
				Expect(d.IsPositive()).To(BeTrue(), "symbol %s: %s is %s; want greater than zero", ids[i], field, s)
			}
		}
	})
})
