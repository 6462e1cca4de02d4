package spot

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// setAvailable sets t's available balance of cur to exactly amount through
// the emulator's control plane, and puts it back when the spec ends (after
// the spec's orders are canceled, since cleanups run last-in first-out).
func setAvailable(ctx context.Context, t *trader, cur string, amount decimal.Decimal) {
	GinkgoHelper()
	ctl := framework.Current().Control()
	orig := t.balance(ctx, cur).avail
	DeferCleanup(func(ctx SpecContext) {
		now := t.balance(ctx, cur).avail
		Expect(ctl.Fund(ctx, t.acct.APIKey, cur, orig.Sub(now).String())).To(Succeed(), "restoring the %s balance of %s", cur, t.role)
	})
	now := t.balance(ctx, cur).avail
	Expect(ctl.Fund(ctx, t.acct.APIKey, cur, amount.Sub(now).String())).To(Succeed(), "setting the %s balance of %s to %s", cur, t.role, amount)
	Expect(t.balance(ctx, cur).avail).To(decEqual(amount), "available %s of %s after funding", cur, t.role)
}

// emulatorNow reads the emulator's clock, which the control plane may have
// moved away from the wall clock.
func emulatorNow(ctx context.Context) time.Time {
	GinkgoHelper()
	e := framework.Current()
	e.RequireEmulator()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.Config.ControlURL+"/info", nil)
	Expect(err).NotTo(HaveOccurred(), "building the request for the emulator clock")
	resp, err := (&http.Client{Timeout: framework.Timeouts.Request}).Do(req)
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

// targetNow is the target's notion of now: the emulator's clock, or the wall
// clock elsewhere.
func targetNow(ctx context.Context) time.Time {
	GinkgoHelper()
	if framework.Current().Config.Emulator {
		return emulatorNow(ctx)
	}
	return time.Now().UTC()
}

// advance moves the emulator clock.
func advance(ctx context.Context, d time.Duration) {
	GinkgoHelper()
	Expect(framework.Current().Control().Advance(ctx, d)).To(Succeed(), "moving the emulator clock by %s", d)
}

// timeField parses a DateTime field.
func timeField(o order, k string) time.Time {
	GinkgoHelper()
	s := strField(o, k)
	t, err := time.Parse(time.RFC3339Nano, s)
	Expect(err).NotTo(HaveOccurred(), "field %s of %v is not an ISO 8601 timestamp", k, o)
	return t.UTC()
}
