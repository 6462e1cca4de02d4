package framework

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/onsi/ginkgo/v2/types"
)

// WriteSelectedReport writes r to path as Ginkgo's --json-report would, but
// keeping of the specs only those the run's label filter selects, compact.
// A mutation run selects a rule's few specs out of more than a thousand:
// Ginkgo's own report of it is megabytes of filtered-out specs, written by
// each of hundreds of runs and read back by conform mutate.
func WriteSelectedReport(path string, r types.Report) error {
	if f := r.SuiteConfig.LabelFilter; f != "" {
		match, err := types.ParseLabelFilter(f)
		if err != nil {
			return fmt.Errorf("report: label filter %q: %w", f, err)
		}
		kept := types.SpecReports{}
		for _, s := range r.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt || match(s.Labels()) {
				kept = append(kept, s)
			}
		}
		r.SpecReports = kept
	}
	b, err := json.Marshal([]types.Report{r})
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
