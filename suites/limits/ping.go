package limits

import (
	"fmt"
	"slices"
	"time"

	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// pingWait is the documented ping period and the tolerance on top of it.
const pingWait = 30*time.Second + 2*time.Second

// Last of the parallel specs: by then its process's connection (pingprobe.go)
// has long seen its ping.
var _ = framework.AreaDescribe("Limits: ping", Label(LabelLimits, LabelSlow), SpecPriority(-5), func() {
	framework.ConformanceIt("V3-LIMIT-WS-PING", func(ctx SpecContext) {
		requireOptIn(pingLabels(), pingRule)
		// The connection opened when this process's first spec started
		// (pingprobe.go): by now it has usually seen its ping.
		d, err := probe.wait(ctx)
		Expect(err).NotTo(HaveOccurred(), "a connection to /ws/public that only listens must get a ping within 30 s")
		AddReportEntry("first ping", d.Round(time.Millisecond).String())
	}, NodeTimeout(pingWait+10*time.Second))
})

// requireOptIn skips a slow spec unless the label filter names it: with no
// filter, or one that would select the spec without its slow and rule
// labels too, it is not asked for. `conform mutate` (rule:<ID>) and
// --label-filter=slow run it.
func requireOptIn(labels Labels, rule string) {
	filter := GinkgoLabelFilter()
	bare := slices.DeleteFunc(slices.Clone(labels), func(l string) bool { return l == LabelSlow || l == rules.Label(rule) })
	if filter == "" || Labels(bare).MatchesLabelFilter(filter) {
		Skip(fmt.Sprintf("slow (waits up to %s for a ping): run with --label-filter=%s or --label-filter=%s", pingWait, LabelSlow, rules.Label(rule)))
	}
}
