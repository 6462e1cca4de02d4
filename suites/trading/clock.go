package trading

import (
	"context"
	"encoding/json"
	"net/http"
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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.Config.ControlURL+"/info", nil)
	Expect(err).NotTo(HaveOccurred(), "building the request for the emulator clock")
	resp, err := e.HTTPClient().Do(req)
	Expect(err).NotTo(HaveOccurred(), "reading the emulator clock")
	defer resp.Body.Close()
	var in struct {
		Now string `json:"now"`
	}
	Expect(json.NewDecoder(resp.Body).Decode(&in)).To(Succeed(), "decoding the emulator's /info")
	now, err := time.Parse(time.RFC3339Nano, in.Now)
	Expect(err).NotTo(HaveOccurred(), "the emulator's clock %q", in.Now)
	return now.UTC()
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
