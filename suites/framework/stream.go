package framework

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
)

// Stream opens a WebSocket connection to path (e.g. /api/3/ws/public) of the
// target's stream base URL, from a source address of its own on a loopback
// target (so per-IP stream budgets are never shared), carrying the
// live-trading guard and the redactor. It is closed when the spec ends, and
// its transcript is attached to a failed spec.
func (e *Env) Stream(ctx context.Context, path string) *client.WSConn {
	GinkgoHelper()
	opts := client.WSOptions{Guard: e.guard, Redactor: e.redactor}
	if !e.loopback {
		// One address for every spec: stay under the stream's per-IP budget.
		opts.Pacer, opts.PacePath = e.pacer, strings.TrimPrefix(path, "/api/3")
	} else {
		n := e.nextAddr.Add(1)
		ip := net.IPv4(127, byte(16+GinkgoParallelProcess()), byte(n>>8), byte(n))
		if e.forward {
			opts.Header = http.Header{"X-Forwarded-For": {ip.String()}}
		} else {
			opts.From = ip
		}
	}
	c, err := client.DialWS(ctx, e.Config.WS+path, opts)
	if err != nil {
		RedactedFail(fmt.Sprintf("opening the stream: %v", err))
	}
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() {
			reportEntry("stream", c.Transcript(), ReportEntryVisibilityFailureOrVerbose)
		}
		c.Close()
	})
	return c
}
