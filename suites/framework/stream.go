package framework

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/rules"
	. "github.com/onsi/ginkgo/v2"
)

// streamPerIP is the per-IP message rate and burst of a v3 stream (e.g. /ws/trading)
// from rules.Limits.
func streamPerIP(stream string) []client.PathClass {
	c := client.PathClass{Prefixes: []string{""}, Rate: 10}
	for _, l := range rules.Limits() {
		if l.Stream && !l.PerAccount && len(l.Prefixes) > 0 && l.Prefixes[0] == stream {
			c.Rate, c.Burst = l.Rate, l.Burst
		}
	}
	return []client.PathClass{c}
}

// StreamPacer paces the messages of one connection to stream (e.g.
// /ws/trading) under the per-IP message limit: its own on loopback (each
// connection has an address of its own), else one shared by the process's
// connections to the stream.
func (e *Env) StreamPacer(stream string) *client.Pacer {
	if e.loopback {
		return client.NewPacer(streamPerIP(stream), 1)
	}
	e.streamMu.Lock()
	defer e.streamMu.Unlock()
	if e.streamPacers[stream] == nil {
		e.streamPacers[stream] = runPacer("ws"+stream, streamPerIP(stream), GinkgoT().ParallelTotal())
	}
	return e.streamPacers[stream]
}

// MethodPacer paces this process's requests on stream (e.g. /ws/trading)
// under the per-account method limits of the v3 Limits section; the
// process's accounts are its own, so it has the whole budget.
func (e *Env) MethodPacer(stream string) *client.Pacer {
	e.streamMu.Lock()
	defer e.streamMu.Unlock()
	key := "methods " + stream
	if e.streamPacers[key] == nil {
		e.streamPacers[key] = client.NewPacer(client.StreamMethodClasses(stream), 1)
	}
	return e.streamPacers[key]
}

// DialStream opens a WebSocket connection to path (e.g. /api/3/ws/trading)
// of the target with the suite's guard and redactor, from a source address
// of its own on loopback; every frame it sends is paced under the stream's
// per-IP message limit (StreamPacer). A frame the guard refuses (a trading
// method on a stream host that may not trade) skips the spec with the
// reason, as a refused REST request does. The connection closes when the
// spec ends and its redacted transcript is attached to a failed spec.
func (e *Env) DialStream(ctx context.Context, path string) *client.WSConn {
	GinkgoHelper()
	opts := client.WSOptions{Guard: e.guard, Redactor: e.redactor, OnRefused: skipRefused, TLS: e.tls, Pacer: e.StreamPacer(strings.TrimPrefix(path, "/api/3"))}
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
		RedactedFail(fmt.Sprintf("opening the stream %s: %v", path, err))
	}
	DeferCleanup(func() {
		if CurrentSpecReport().Failed() {
			reportEntry("stream frames "+path, c.Transcript(), ReportEntryVisibilityFailureOrVerbose)
		}
		c.Close()
	})
	return c
}
