package framework

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/rules"
	. "github.com/onsi/ginkgo/v2"
)

// streamPerIP is the per-IP message rate of a v3 stream (e.g. /ws/trading)
// from rules.Limits.
func streamPerIP(stream string) []client.PathClass {
	rate := 10
	for _, l := range rules.Limits() {
		if l.Stream && !l.PerAccount && len(l.Prefixes) > 0 && l.Prefixes[0] == stream {
			rate = l.Rate
		}
	}
	return []client.PathClass{{Prefixes: []string{""}, Rate: rate}}
}

// sharedStreamPacers pace every message of this process on a stream when
// the connections share one source address (a target off loopback).
var (
	sharedMu          sync.Mutex
	sharedStreamPacer = map[string]*client.Pacer{}
)

// StreamPacer paces the messages of one connection to stream (e.g.
// /ws/trading) under the per-IP message limit: its own on loopback (each
// connection has an address of its own), else one shared by the process's
// connections to the stream.
func (e *Env) StreamPacer(stream string) *client.Pacer {
	if e.loopback {
		return client.NewPacer(streamPerIP(stream), 1)
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedStreamPacer[stream] == nil {
		sharedStreamPacer[stream] = client.NewPacer(streamPerIP(stream), 1/float64(GinkgoT().ParallelTotal()))
	}
	return sharedStreamPacer[stream]
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
