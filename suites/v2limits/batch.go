package v2limits

import (
	"github.com/conform-harness/conform/scenarios"
	"github.com/conform-harness/conform/suites/framework"
)

// area is this package's area of the catalogue.
const area = "v2limits"

// BatchSpecs declares the specs of the v2 rules judged from the one batch
// of limit scenarios. It is called inside the batch's container (in
// suites/limits: the v3 and v2 rows are offered together, from one address
// in one lane plan on a remote target); judge gives a rule its verdict from
// the batch's results once they are in.
func BatchSpecs(judge func(rule string)) {
	for _, id := range scenarios.BatchRules() {
		if framework.Rule(id).Area != area {
			continue
		}
		framework.ConformanceIt(id, func() {
			judge(id)
		})
	}
}
