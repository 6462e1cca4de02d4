// The one conformance suite: every area package registers its specs, this
// package runs them once (one report, one parallel run), starting the
// embedded emulator on process 1 when no target is given.
package suites_test

import (
	"flag"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	_ "github.com/conform-harness/conform/suites/auth"
	_ "github.com/conform-harness/conform/suites/buycrypto"
	_ "github.com/conform-harness/conform/suites/conventions"
	_ "github.com/conform-harness/conform/suites/errors"
	"github.com/conform-harness/conform/suites/framework"
	_ "github.com/conform-harness/conform/suites/limits"
	_ "github.com/conform-harness/conform/suites/margin"
	_ "github.com/conform-harness/conform/suites/marketdata"
	_ "github.com/conform-harness/conform/suites/orderlists"
	_ "github.com/conform-harness/conform/suites/spot"
	_ "github.com/conform-harness/conform/suites/streampublic"
	_ "github.com/conform-harness/conform/suites/streamtrading"
	_ "github.com/conform-harness/conform/suites/streamwallet"
	_ "github.com/conform-harness/conform/suites/subaccounts"
	"github.com/conform-harness/conform/suites/trading"
	_ "github.com/conform-harness/conform/suites/v2account"
	_ "github.com/conform-harness/conform/suites/v2auth"
	_ "github.com/conform-harness/conform/suites/v2buycrypto"
	_ "github.com/conform-harness/conform/suites/v2conventions"
	_ "github.com/conform-harness/conform/suites/v2errors"
	_ "github.com/conform-harness/conform/suites/v2history"
	_ "github.com/conform-harness/conform/suites/v2limits"
	_ "github.com/conform-harness/conform/suites/v2marketdata"
	_ "github.com/conform-harness/conform/suites/v2streams"
	_ "github.com/conform-harness/conform/suites/v2subaccounts"
	_ "github.com/conform-harness/conform/suites/v2versioning"
	_ "github.com/conform-harness/conform/suites/versioning"
)

var flags = framework.RegisterFlags(flag.CommandLine)

func TestConformance(t *testing.T) {
	RegisterFailHandler(framework.RedactedFail)
	RunSpecs(t, "conform")
}

var stopTarget = func() {}

var _ = SynchronizedBeforeSuite(func() []byte {
	cfg, stop, err := framework.StartTarget(flags)
	Expect(err).NotTo(HaveOccurred(), "harness: the target could not be set up")
	stopTarget = stop
	return cfg
}, func(cfg []byte) {
	Expect(framework.Setup(cfg)).To(Succeed())
})

var _ = SynchronizedAfterSuite(func() {}, func() {
	stopTarget()
	trading.RemoveLanes() // every process is done with the fill specs' locks
	framework.RemovePacing()
})

// -conform.progress: a line per spec started and ended, which conform tails
// for its progress line and stall detector (Ginkgo's parallel output says
// nothing until a spec ends).
var progress = &framework.Progress{}

var _ = ReportBeforeSuite(func(r Report) {
	Expect(progress.Total(flags.Progress, r)).To(Succeed(), "harness: the progress file conform named")
})

var _ = ReportBeforeEach(func(s SpecReport) { progress.Started(flags.Progress, s) })

var _ = ReportAfterEach(func(s SpecReport) { progress.Ended(flags.Progress, s) })

// -conform.report: the report of the selected specs only (conform mutate's).
var _ = ReportAfterSuite("conform report", func(r Report) {
	if flags.Report != "" {
		Expect(framework.WriteSelectedReport(flags.Report, r)).To(Succeed())
	}
})
