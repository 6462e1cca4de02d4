package load

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// StreamResultsFile is the results file of a stream run: one StreamRecord
// per worker, in JSON (conform load merge reads several).
const StreamResultsFile = "stream.json"

// StreamRecord is what one worker's stream run measured. Latency means, by
// scenario: ws-market and ws2-market, from a trade's own timestamp to its
// receipt by a subscriber (trades channel); ws-connect, the WebSocket
// handshake; ws-trading, a request to its answer; ws2-trading, a request
// to its order's report.
type StreamRecord struct {
	Run     StreamRunInfo   `json:"run"`
	Latency SparseHistogram `json:"latency"`
	Seconds []StreamSecond  `json:"seconds"`
	// Messages are the notifications received, MessagesByChannel split by
	// channel (slow consumers apart).
	Messages          uint64            `json:"messages"`
	MessagesByChannel map[string]uint64 `json:"messages_by_channel,omitempty"`
	// Gaps are trades missing in the middle of a subscriber's stream:
	// ids some subscriber of the symbol received, between the first and
	// last this one received, that this one never got. Undelivered are
	// those after its last, still missing after the drain, on
	// connections open at the end. OutOfOrder counts ids received below
	// the last one. On v2 the order book's sequences count likewise
	// (GapsByChannel splits the gaps: trades, orderbook).
	Gaps          uint64            `json:"gaps"`
	GapsByChannel map[string]uint64 `json:"gaps_by_channel,omitempty"`
	Undelivered   uint64            `json:"undelivered"`
	// Unseen are trades the driver made (filled) that no trades
	// subscriber of their symbol received by the end, on symbols with one
	// open at the end: what the union of ids cannot show as undelivered
	// (a lower bound where others trade the symbol too: their trades
	// count as received ones).
	Unseen     uint64 `json:"unseen"`
	OutOfOrder uint64 `json:"out_of_order"`
	// Disconnects are connections ended by the target or the network
	// before the run ended (slow consumers apart).
	Disconnects uint64 `json:"disconnects"`
	// Connections: opened (handshake and subscription confirmed),
	// failed, and the most open at once.
	Opened   uint64        `json:"connections_opened"`
	Failed   uint64        `json:"connections_failed"`
	PeakOpen int64         `json:"connections_peak"`
	Slow     SlowConsumers `json:"slow_consumers"`
	// Ops are the driver's operations (ws-market: trades through the
	// REST API; ws-connect: connection attempts).
	Ops     OpCounts          `json:"ops"`
	Errors  map[string]uint64 `json:"errors,omitempty"`
	Connect *ConnectFindings  `json:"connect,omitempty"`
}

// StreamRunInfo is one stream run as configured.
type StreamRunInfo struct {
	Scenario    string        `json:"scenario"`
	Attack      string        `json:"attack"`
	WorkerID    int           `json:"worker_id"`
	Target      string        `json:"target"`
	Subscribers int           `json:"subscribers,omitempty"`
	Channels    []string      `json:"channels,omitempty"`
	Symbols     []string      `json:"symbols,omitempty"`
	Rate        float64       `json:"rate"` // trades/s (ws-market), connections/s (ws-connect)
	Duration    time.Duration `json:"duration_ns"`
	SourceAddrs []string      `json:"source_addrs,omitempty"`
	Started     time.Time     `json:"started"`
	// Driving is when the driver started (after the subscribers opened).
	Driving time.Time `json:"driving"`
	// DriverDone is when the driver started its last operation.
	DriverDone  time.Time      `json:"driver_done"`
	Ended       time.Time      `json:"ended"`
	Interrupted bool           `json:"interrupted,omitempty"`
	Cleanup     *CleanupReport `json:"cleanup,omitempty"`
}

// StreamSecond is one second of a stream run (Unix seconds).
type StreamSecond struct {
	Unix        int64  `json:"unix"`
	Messages    uint64 `json:"messages"`
	Ops         uint64 `json:"ops"`
	OpsOK       uint64 `json:"ops_ok"`
	Open        int64  `json:"open"`
	Disconnects uint64 `json:"disconnects"`
	// LatencyMS counts the latencies of the second by whole millisecond
	// (the last bucket, maxSecondMS, holds every latency from there up).
	LatencyMS map[int]uint64 `json:"latency_ms,omitempty"`
}

// SlowConsumers are the subscribers that read slowly on purpose, and what
// the target did with them.
type SlowConsumers struct {
	Count int `json:"count"`
	// Delay is the pause after each message they read.
	Delay time.Duration `json:"delay_ns"`
	// Closed are those the target disconnected; CloseReasons how.
	Closed       uint64            `json:"closed"`
	CloseReasons map[string]uint64 `json:"close_reasons,omitempty"`
	Messages     uint64            `json:"messages"`
	// MaxLagMS is the largest trade-to-receipt time they saw.
	MaxLagMS float64 `json:"max_lag_ms"`
}

// OpCounts count a stream run's driving operations.
type OpCounts struct {
	Sent uint64 `json:"sent"`
	OK   uint64 `json:"ok"`
}

// maxSecondMS is the top millisecond bucket of the per-second latencies.
const maxSecondMS = 1000

// second is a second's counters while the run goes on.
type second struct {
	messages, ops, opsOK, disconnects atomic.Uint64
	open                              atomic.Int64
	lat                               [maxSecondMS + 1]atomic.Uint64
}

// collector gathers a stream run's figures from many goroutines.
type collector struct {
	start time.Time
	secs  []second
	open  atomic.Int64
	peak  atomic.Int64

	shards [16]struct {
		mu sync.Mutex
		h  Histogram
	}

	mu        sync.Mutex
	errors    map[string]uint64
	byChannel map[string]uint64
	rec       StreamRecord
}

// newCollector covers span seconds from start (later events count in the
// last second: make span generous, as a second costs 8 KiB).
func newCollector(start time.Time, span time.Duration) *collector {
	n := int(span/time.Second) + 2
	return &collector{start: start, secs: make([]second, n), errors: map[string]uint64{}, byChannel: map[string]uint64{}}
}

func (c *collector) slot(t time.Time) *second {
	i := int(t.Sub(c.start) / time.Second)
	return &c.secs[min(max(i, 0), len(c.secs)-1)]
}

// latency records one latency, measured at t, by goroutine shard k.
func (c *collector) latency(k int, t time.Time, d time.Duration) {
	ms := min(max(int(d/time.Millisecond), 0), maxSecondMS)
	c.slot(t).lat[ms].Add(1)
	s := &c.shards[k%len(c.shards)]
	s.mu.Lock()
	s.h.Record(d)
	s.mu.Unlock()
}

func (c *collector) message(t time.Time) { c.slot(t).messages.Add(1) }

func (c *collector) op(t time.Time, ok bool) {
	s := c.slot(t)
	s.ops.Add(1)
	if ok {
		s.opsOK.Add(1)
	}
}

func (c *collector) connected() {
	n := c.open.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
}

// closed counts a connection's end; lost says the target or the network
// ended it before the run did.
func (c *collector) closed(t time.Time, lost bool) {
	c.open.Add(-1)
	if lost {
		c.slot(t).disconnects.Add(1)
	}
}

// sample notes the open connections at t (every second).
func (c *collector) sample(t time.Time) { c.slot(t).open.Store(c.open.Load()) }

func (c *collector) fail(err string) {
	c.mu.Lock()
	c.errors[err]++
	c.mu.Unlock()
}

func (c *collector) channelMessages(ch string, n uint64) {
	c.mu.Lock()
	c.byChannel[ch] += n
	c.mu.Unlock()
}

// record returns the run's StreamRecord; base holds what the scenario
// counted itself (gaps, slow consumers, ops, connections).
func (c *collector) record(base StreamRecord) StreamRecord {
	r := base
	var h Histogram
	for i := range c.shards {
		h.Merge(&c.shards[i].h)
	}
	r.Latency = h.Sparse()
	r.PeakOpen = c.peak.Load()
	r.Errors, r.MessagesByChannel = c.errors, c.byChannel
	if len(r.Errors) == 0 {
		r.Errors = nil
	}
	r.Messages = 0
	for _, n := range c.byChannel {
		r.Messages += n
	}
	end := r.Run.Ended
	for i := range c.secs {
		at := c.start.Add(time.Duration(i) * time.Second)
		if !end.IsZero() && at.After(end) {
			break
		}
		s := &c.secs[i]
		ss := StreamSecond{Unix: at.Unix(), Messages: s.messages.Load(), Ops: s.ops.Load(), OpsOK: s.opsOK.Load(),
			Open: s.open.Load(), Disconnects: s.disconnects.Load()}
		for ms := range s.lat {
			if n := s.lat[ms].Load(); n > 0 {
				if ss.LatencyMS == nil {
					ss.LatencyMS = map[int]uint64{}
				}
				ss.LatencyMS[ms] = n
			}
		}
		r.Seconds = append(r.Seconds, ss)
	}
	return r
}

// WriteStreamRecords writes a results file.
func WriteStreamRecords(path string, recs []StreamRecord) error {
	b, err := json.MarshalIndent(recs, "", " ")
	if err != nil {
		return fmt.Errorf("stream results: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("stream results: %w", err)
	}
	return nil
}

// ReadStreamRecords reads a results file.
func ReadStreamRecords(path string) ([]StreamRecord, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("stream results: %w", err)
	}
	var recs []StreamRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, fmt.Errorf("stream results %s: %w", path, err)
	}
	return recs, nil
}

// secondQuantile is the q quantile of a second's millisecond counts.
func secondQuantile(lat map[int]uint64, q float64) (ms int, ok bool) {
	var total uint64
	keys := make([]int, 0, len(lat))
	for k, n := range lat {
		total += n
		keys = append(keys, k)
	}
	if total == 0 {
		return 0, false
	}
	sort.Ints(keys)
	rank := uint64(q*float64(total) + 0.999999)
	var seen uint64
	for _, k := range keys {
		if seen += lat[k]; seen >= max(rank, 1) {
			return k, true
		}
	}
	return keys[len(keys)-1], true
}
