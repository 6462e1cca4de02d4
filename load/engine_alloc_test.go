package load

import (
	"bufio"
	"context"
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// fixedServer answers every request on loopback with the same bytes,
// allocating nothing per request, so that a test can count the
// generator's own allocations.
func fixedServer(t *testing.T) string {
	t.Helper()
	answer := []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}")
	// A request of the public scenario: a header, no body.
	return rawServer(t, func(c net.Conn, _ *bufio.Reader) bool {
		_, err := c.Write(answer)
		return err == nil
	})
}

// At max rate the engine allocates nothing per request: results go to
// a reused batch, requests are written and answers read in place. The
// run as a whole adds the results file's two per request: Vegeta's gob
// encoding of the timestamp (time.Time.MarshalBinary).
func TestEngineAllocations(t *testing.T) {
	url := fixedServer(t)
	base := testBase(t, url)
	s, err := NewScenario(ScenarioPublic, ScenarioConfig{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	cfg := RunConfig{Base: base, Scenario: s, Pacing: Unlimited, Duration: 300 * time.Millisecond, Workers: 8, MaxWorkers: 8,
		Connections: 8, Timeout: DefaultTimeout, Results: io.Discard}
	// mallocs counts the allocations per request of f, which returns how
	// many requests it sent; the server allocates nothing per request. A
	// run's own (connections, buffers, workers, the histogram) are set
	// apart: setup allocations, at most a few hundred.
	const setup = 2000
	mallocs := func(f func() uint64) (float64, uint64) {
		var before, after runtime.MemStats
		var n uint64
		// Enough requests to set the setup apart; a busy machine sends
		// fewer in the run's time: the run again, up to three times.
		for try := 1; try <= 3 && n < 1000; try++ {
			runtime.GC()
			runtime.ReadMemStats(&before)
			n = f()
			runtime.ReadMemStats(&after)
		}
		if n < 1000 {
			t.Fatalf("only %d requests sent in three runs", n)
		}
		return float64(max(after.Mallocs-before.Mallocs, setup)-setup) / float64(n), n
	}
	engineOnly, n := mallocs(func() uint64 {
		var sent uint64
		e := newEngine(cfg, s.Targeter(), "alloc", func(rs []vegeta.Result) bool {
			for i := range rs {
				if rs[i].Code != 200 {
					t.Errorf("result %+v", rs[i])
				}
			}
			atomic.AddUint64(&sent, uint64(len(rs)))
			return true
		}, false)
		e.start()
		e.wait()
		return sent
	})
	t.Logf("engine: %d requests, %.3f allocations per request", n, engineOnly)
	if engineOnly > 0.05 {
		t.Errorf("engine: %.3f allocations per request, want none", engineOnly)
	}
	run, n := mallocs(func() uint64 {
		info, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return info.Sent
	})
	t.Logf("run with its results file: %d requests, %.3f allocations per request", n, run)
	if run > 2.1 {
		t.Errorf("run: %.3f allocations per request, want at most the results file's 2", run)
	}
}
