//go:build linux

package load

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// A loop that the policy finds busy hands half its connections to new
// loops: every request still gets exactly one result, in order, over the
// connections it began with (moved, never dialled again), requests half
// sent when their connection moved included; a loop the policy finds idle
// keeps them all.
func TestLoopSplit(t *testing.T) {
	tests := []struct {
		name   string
		policy loopPolicy
		body   []byte
		conns  int
		// wantLoops: a busy loop splits at least once, and never beyond the
		// policy's bound (how many splits a run has time for depends on
		// the machine's load).
		wantLoops func(n int32) bool
		elsewhere bool // sleeping outside the scheduler (see evloop.sleep)
	}{
		{"busy, small requests", loopPolicy{window: time.Millisecond, slack: 2, windows: 1, maxLoops: 4}, nil, 8,
			func(n int32) bool { return n >= 2 && n <= 4 }, false},
		{"busy, requests larger than the sockets' buffers", loopPolicy{window: time.Millisecond, slack: 2, windows: 1, maxLoops: 3},
			bytes.Repeat([]byte("x"), 8<<20), 4, func(n int32) bool { return n >= 2 && n <= 3 }, false},
		{"idle", loopPolicy{window: time.Millisecond, slack: 0, windows: 1, maxLoops: 4}, nil, 8,
			func(n int32) bool { return n == 1 }, false},
		{"busy, the target taken as elsewhere", loopPolicy{window: time.Millisecond, slack: 2, windows: 1, maxLoops: 2}, nil, 8,
			func(n int32) bool { return n == 2 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				mu    sync.Mutex
				peers = map[string]int{}
			)
			url := rawServer(t, func(c net.Conn, br *bufio.Reader) bool {
				if tt.body != nil {
					// Read late: the request waits for room in the
					// socket's buffers when its connection moves.
					time.Sleep(30 * time.Millisecond)
					if _, err := io.CopyN(io.Discard, br, int64(len(tt.body))); err != nil {
						return false
					}
				}
				mu.Lock()
				peers[c.RemoteAddr().String()]++
				mu.Unlock()
				_, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				return err == nil
			})
			cfg := RunConfig{Base: testBase(t, url), Pacing: Unlimited, Duration: 300 * time.Millisecond,
				Workers: uint64(tt.conns), MaxWorkers: uint64(tt.conns), Connections: tt.conns, Timeout: 2 * time.Second, TargetElsewhere: tt.elsewhere}
			tr := func(tg *vegeta.Target) error {
				tg.Method, tg.URL = "GET", url+"/api/3/public/symbol"
				if tt.body != nil {
					tg.Method, tg.Body = "POST", tt.body
				}
				return nil
			}
			out, e := runEngineWith(t, cfg, tr, false, func(e *engine) { e.loopPolicy = tt.policy })
			if n := e.loops.Load(); !tt.wantLoops(n) {
				t.Errorf("%d loops", n)
			}
			if len(out) == 0 {
				t.Fatal("no results")
			}
			for _, r := range out {
				if r.Code != 200 || r.Error != "" || r.BytesIn != 2 {
					t.Fatalf("result %+v (body %q)", r, r.Body)
				}
			}
			checkSeqOrder(t, out)
			if e.seq != uint64(len(out)) {
				t.Errorf("%d requests sent, %d results", e.seq, len(out))
			}
			mu.Lock()
			defer mu.Unlock()
			answered := 0
			for _, n := range peers {
				answered += n
			}
			// At most the connections the run began with: a moved one is
			// never dialled again (one may end the run unused).
			if len(peers) > cfg.Connections || answered != len(out) {
				t.Errorf("%d connections answered %d requests; want at most %d connections, %d requests", len(peers), answered, cfg.Connections, len(out))
			}
		})
	}
}
