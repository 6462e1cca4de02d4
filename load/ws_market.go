package load

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// runMarket is ws-market and ws2-market: it opens the subscribers (each
// source address at ConnectRate per second), then trades at Rate for
// Duration, lets the subscribers read for Drain, closes them and judges
// their trades channels (and v2 order books) for gaps.
func runMarket(ctx context.Context, cfg *StreamConfig, info *StreamRunInfo) (StreamRecord, error) {
	url := cfg.url()
	v2 := IsV2(cfg.Scenario)
	books := newTradeUnion() // v2 order book sequences
	symbols := cfg.symbols()
	srcs := cfg.SourceAddrs
	if len(srcs) == 0 {
		srcs = []net.IP{nil}
	}
	subs := make([]*subscriber, cfg.Subscribers+cfg.SlowConsumers)
	for i := range subs {
		s := &subscriber{idx: i, v2: v2}
		if i < cfg.Subscribers {
			s.ch = cfg.Channels[i%len(cfg.Channels)]
			s.sym = symbols[(i/len(cfg.Channels))%len(symbols)]
		} else {
			s.ch, s.sym, s.slow = "trades", symbols[i%len(symbols)], true
		}
		if v2 && s.ch == "orderbook" {
			s.book = books
		}
		subs[i] = s
	}
	perAddr := (len(subs) + len(srcs) - 1) / len(srcs)
	ramp := time.Duration(float64(perAddr)/cfg.ConnectRate*float64(time.Second)) + cfg.Timeout
	col := newCollector(info.Started, ramp+3*cfg.Duration+cfg.Drain+time.Minute) // room for a driver that falls behind
	union := newTradeUnion()
	var stopping atomic.Bool
	var readers sync.WaitGroup
	stopSampling := sampleEverySecond(col)
	defer stopSampling()

	// Open: each source address opens its share, paced.
	var opened, failed atomic.Uint64
	var openers sync.WaitGroup
	for a, src := range srcs {
		openers.Add(1)
		go func(a int, src net.IP) {
			defer openers.Done()
			start := time.Now()
			for k, i := 0, a; i < len(subs); k, i = k+1, i+len(srcs) {
				due := start.Add(time.Duration(float64(k) / cfg.ConnectRate * float64(time.Second)))
				if !sleepUntil(ctx, due) {
					return
				}
				s := subs[i]
				if err := s.subscribe(ctx, cfg, url, src); err != nil {
					failed.Add(1)
					col.fail(err.Error())
					continue
				}
				opened.Add(1)
				col.connected()
				readers.Add(1)
				go func() {
					defer readers.Done()
					s.read(col, union, &stopping, cfg.SlowDelay)
					col.closed(time.Now(), s.lost)
				}()
			}
		}(a, src)
	}
	openers.Wait()
	progressf(cfg.Progress, "%s: %d of %d subscribers open (%d failed) in %s; trading at %g/s for %s",
		cfg.Scenario, opened.Load(), len(subs), failed.Load(), time.Since(info.Started).Round(time.Millisecond), cfg.Rate, cfg.Duration)

	d := newDriver(cfg, col)
	info.Driving = time.Now()
	if ctx.Err() == nil {
		stopProgress := progressEvery(cfg.Progress, func() string {
			d.mu.Lock()
			defer d.mu.Unlock()
			return fmt.Sprintf("%s: %d trades (%d ok), %d open, %d messages", cfg.Scenario, d.sent, d.ok, col.open.Load(), col.totalMessages())
		})
		info.DriverDone = d.run(ctx, cfg.Rate, cfg.Duration)
		stopProgress()
		sleepUntil(ctx, time.Now().Add(cfg.Drain))
	}
	info.Ended = time.Now()
	stopping.Store(true)
	for _, s := range subs {
		if s.conn != nil {
			s.conn.Close()
		}
	}
	readers.Wait()

	cctx, cancel := context.WithTimeout(context.Background(), DefaultCleanupTimeout)
	rep := d.cleanup(cctx)
	cancel()
	info.Cleanup = &rep

	rec := StreamRecord{Run: *info, Opened: opened.Load(), Failed: failed.Load(), Ops: OpCounts{Sent: d.sent, OK: d.ok},
		Slow: SlowConsumers{Count: cfg.SlowConsumers, Delay: cfg.SlowDelay}}
	ids, seqs := union.sorted(), books.sorted()
	watched := map[string]bool{} // symbols with a trades subscriber open at the end
	for _, s := range subs {
		if s.conn == nil {
			continue
		}
		if s.slow {
			rec.Slow.Messages += s.messages
			rec.Slow.MaxLagMS = max(rec.Slow.MaxLagMS, float64(s.maxLag)/float64(time.Millisecond))
			if s.lost {
				rec.Slow.Closed++
				if rec.Slow.CloseReasons == nil {
					rec.Slow.CloseReasons = map[string]uint64{}
				}
				rec.Slow.CloseReasons[s.reason]++
			}
			continue
		}
		col.channelMessages(s.ch, s.messages)
		if s.lost {
			rec.Disconnects++
			col.fail("disconnect: " + s.reason)
		}
		judged := ids
		if s.book != nil {
			judged = seqs
		}
		g, u := countGaps(judged[s.sym], s.track, !s.lost)
		if s.ch == "trades" || s.book != nil {
			if rec.GapsByChannel == nil {
				rec.GapsByChannel = map[string]uint64{}
			}
			rec.GapsByChannel[s.ch] += g
		}
		rec.Gaps += g
		if s.ch == "trades" && !s.lost {
			watched[s.sym] = true
		}
		rec.Undelivered += u
		rec.OutOfOrder += s.track.outOfOrder
	}
	for sym, n := range d.okBySym {
		if watched[sym] {
			rec.Unseen += n - min(n, uint64(len(ids[sym])))
		}
	}
	return col.record(rec), nil
}

// sleepUntil waits until t; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	w := time.Until(t)
	if w <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(w)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}

// sampleEverySecond notes the open connections every second.
func sampleEverySecond(col *collector) (stop func()) {
	done := make(chan struct{})
	go func() {
		tk := time.NewTicker(time.Second)
		defer tk.Stop()
		col.sample(time.Now())
		for {
			select {
			case <-done:
				return
			case now := <-tk.C:
				col.sample(now)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// progressEvery writes line() to w every second until stopped.
func progressEvery(w io.Writer, line func() string) (stop func()) {
	if w == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		tk := time.NewTicker(DefaultProgressEvery)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				fmt.Fprintln(w, line())
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

func progressf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// totalMessages is the messages received so far.
func (c *collector) totalMessages() uint64 {
	var n uint64
	for i := range c.secs {
		n += c.secs[i].messages.Load()
	}
	return n
}
