package load

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ConnectFindings say when and how connections started failing in a
// ws-connect ramp.
type ConnectFindings struct {
	// FirstFailureOpen is how many connections were open (from the
	// failing attempt's source address) when the first attempt failed;
	// -1 when none failed.
	FirstFailureOpen int64 `json:"first_failure_open"`
	// FirstFailureAfterS is when it failed, in seconds into the ramp.
	FirstFailureAfterS float64 `json:"first_failure_after_s"`
	FirstFailure       string  `json:"first_failure,omitempty"`
	// HeldPerAddr is the most connections held at once per source
	// address.
	HeldPerAddr map[string]int64 `json:"held_per_addr"`
}

// runConnect is ws-connect: connection attempts at Rate per second for
// Duration, spread over the source addresses in turn, each held open
// (reading) until the end. Latency is the handshake's.
func runConnect(ctx context.Context, cfg *StreamConfig, info *StreamRunInfo) (StreamRecord, error) {
	url := wsURL(cfg.Base)
	srcs := cfg.SourceAddrs
	if len(srcs) == 0 {
		srcs = []net.IP{nil}
	}
	col := newCollector(info.Started, 3*cfg.Duration+cfg.Timeout+time.Minute)
	stopSampling := sampleEverySecond(col)
	defer stopSampling()
	var (
		stopping atomic.Bool
		readers  sync.WaitGroup
		mu       sync.Mutex
		subs     []*subscriber
		held     = make([]atomic.Int64, len(srcs))
		peak     = make([]int64, len(srcs))
		find     = ConnectFindings{FirstFailureOpen: -1, HeldPerAddr: map[string]int64{}}
		sent, ok atomic.Uint64
		attempts sync.WaitGroup
	)
	stopProgress := progressEvery(cfg.Progress, func() string {
		return fmt.Sprintf("ws-connect: %d attempts, %d open, %d failed", sent.Load(), col.open.Load(), sent.Load()-ok.Load())
	})
	start := time.Now()
	info.Driving = start
	for i := 0; ; i++ {
		due := start.Add(time.Duration(float64(i) / cfg.Rate * float64(time.Second)))
		if due.Sub(start) >= cfg.Duration || !sleepUntil(ctx, due) {
			break
		}
		a := i % len(srcs)
		info.DriverDone = time.Now()
		sent.Add(1)
		attempts.Add(1)
		go func() {
			defer attempts.Done()
			t0 := time.Now()
			conn, resp, err := cfg.dialer(srcs[a]).DialContext(ctx, url, nil)
			now := time.Now()
			col.op(now, err == nil)
			if err != nil {
				why := "dial: " + errKind(err)
				if resp != nil {
					why = fmt.Sprintf("handshake: HTTP %d", resp.StatusCode)
				}
				col.fail(why)
				mu.Lock()
				if find.FirstFailureOpen < 0 {
					find.FirstFailureOpen, find.FirstFailure = held[a].Load(), why
					find.FirstFailureAfterS = now.Sub(start).Seconds()
				}
				mu.Unlock()
				return
			}
			ok.Add(1)
			col.latency(i, now, now.Sub(t0))
			col.connected()
			n := held[a].Add(1)
			s := &subscriber{idx: i, conn: conn, ch: "none"}
			mu.Lock()
			peak[a] = max(peak[a], n)
			subs = append(subs, s)
			mu.Unlock()
			readers.Add(1)
			go func() {
				defer readers.Done()
				s.read(col, nil, &stopping, 0)
				held[a].Add(-1)
				col.closed(time.Now(), s.lost)
			}()
		}()
	}
	attempts.Wait()
	stopProgress()
	info.Ended = time.Now()
	stopping.Store(true)
	mu.Lock()
	for _, s := range subs {
		s.conn.Close()
	}
	mu.Unlock()
	readers.Wait()
	rec := StreamRecord{Run: *info, Opened: ok.Load(), Failed: sent.Load() - ok.Load(), Ops: OpCounts{Sent: sent.Load(), OK: ok.Load()}}
	for a, src := range srcs {
		name := "default"
		if src != nil {
			name = src.String()
		}
		find.HeldPerAddr[name] = peak[a]
	}
	for _, s := range subs {
		if s.lost {
			rec.Disconnects++
			col.fail("disconnect: " + s.reason)
		}
	}
	rec.Connect = &find
	return col.record(rec), nil
}
