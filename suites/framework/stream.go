package framework

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
)

// streamPerIP is the per-IP message rate of each v3 stream (Limits: 10 and
// 10), read from the spec.
const streamPerIP = 10

// sharedStreamPacer paces every stream message of this process when the
// connections share one source address (a target off loopback).
var sharedStreamPacer = sync.OnceValue(func() *client.Pacer {
	return client.NewPacer([]client.PathClass{{Prefixes: []string{""}, Rate: streamPerIP}}, 1/float64(GinkgoT().ParallelTotal()))
})

// StreamPacer paces the messages of one stream connection under the per-IP
// message limit: its own on loopback (each connection has an address of its
// own), else one shared by the process's connections.
func (e *Env) StreamPacer() *client.Pacer {
	if e.loopback {
		return client.NewPacer([]client.PathClass{{Prefixes: []string{""}, Rate: streamPerIP}}, 1)
	}
	return sharedStreamPacer()
}

// DialStream opens a WebSocket connection to path (e.g. /api/3/ws/trading)
// of the target with the suite's guard and redactor, from a source address
// of its own on loopback; the connection closes when the spec ends and its
// redacted transcript is attached to a failed spec.
func (e *Env) DialStream(ctx context.Context, path string) *client.WSConn {
	GinkgoHelper()
	opts := client.WSOptions{Guard: e.guard, Redactor: e.redactor}
	if e.loopback {
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
		RedactedFail(err.Error())
	}
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() {
			reportEntry("stream frames "+path, c.Transcript(), ReportEntryVisibilityFailureOrVerbose)
		}
		c.Close()
	})
	return c
}
