package margin

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Margin configuration", func() {
	framework.ConformanceIt("V3-MARGIN-CONFIG", func(ctx SpecContext) {
		t := newTrader(target.RoleFull)
		ex := t.Do(ctx, http.MethodGet, "/margin/config", nil)
		Expect(ex).To(framework.BeOK(), "GET /margin/config")
		body := framework.ObjectOf(ex)
		Expect(body).To(HaveKey("config"), "GET /margin/config answers an object with key config\nexchange: %s", ex)
		recs, ok := body["config"].([]any)
		Expect(ok).To(BeTrue(), "config is an array of margin configuration records\nexchange: %s", ex)
		if len(recs) == 0 {
			Skip("the target answers no margin configuration record, so there is no record to check")
		}
		for i, x := range recs {
			r, ok := x.(map[string]any)
			Expect(ok).To(BeTrue(), "config[%d] is an object: %v", i, x)
			Expect(r).To(framework.MatchSchema(configSchema), "config[%d]", i)
			Expect(r).To(trading.HaveValueIn("margin_mode", isolated, cross), "config[%d]", i)
			present := 0
			for _, k := range []string{"limit_base", "limit_power", "unlimited_threshold"} {
				if _, ok := r[k]; ok {
					present++
				}
			}
			Expect(present).To(BeElementOf(0, 3), "config[%d]: limit_base, limit_power and unlimited_threshold are returned together, when a risk limit exists, or not at all\nrecord: %v", i, r)
		}
	})
})
