package framework

import (
	"context"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
)

// V2Stream opens a v2 JSON-RPC stream (path such as /api/2/ws/public) on
// the target through the one guard and redactor. Its transcript is attached
// to the spec's report when the spec fails, and it is closed when the spec
// ends.
func (e *Env) V2Stream(ctx context.Context, path string) *client.WSConn {
	GinkgoHelper()
	c, err := client.DialWS(ctx, e.Config.WS+path, client.WSOptions{Guard: e.guard, Redactor: e.redactor})
	if err != nil {
		RedactedFail(err.Error())
	}
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() {
			reportEntry("stream "+path, c.Transcript(), ReportEntryVisibilityFailureOrVerbose)
		}
		c.Close()
	})
	return c
}
