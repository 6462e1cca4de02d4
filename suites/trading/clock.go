package trading

import (
	"context"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// EmulatorNow reads the emulator's clock, which the control plane may have
// moved away from the wall clock (skipping the spec on another target).
func EmulatorNow(ctx context.Context) time.Time {
	GinkgoHelper()
	e := framework.Current()
	e.RequireEmulator()
	now, err := e.Control().Now(ctx)
	Expect(err).NotTo(HaveOccurred(), "reading the emulator clock")
	return now
}

// TargetNow is the target's notion of now: the emulator's clock, or the wall
// clock elsewhere. Times a spec sends (expire_time) are built from it.
func TargetNow(ctx context.Context) time.Time {
	GinkgoHelper()
	if framework.Current().Config.Emulator {
		return EmulatorNow(ctx)
	}
	return time.Now().UTC()
}
