package load

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// StreamSummary is the outcome of one stream run or of several workers'
// runs merged (summary.json of a stream scenario, and its console summary).
type StreamSummary struct {
	Title     string    `json:"title"`
	Kind      string    `json:"kind"` // "stream", to tell it from a REST summary
	Scenarios []string  `json:"scenarios"`
	Targets   []string  `json:"targets"`
	Earliest  time.Time `json:"earliest"`
	Latest    time.Time `json:"latest"`
	SpanS     float64   `json:"span_s"`
	// Latency: see StreamRecord (trade to subscriber for ws-market,
	// handshake for ws-connect).
	LatencyOf string         `json:"latency_of"`
	Latency   LatencyFigures `json:"latency"`
	Samples   uint64         `json:"latency_samples"`
	// Messages received; per second: the mean from the driver's start to
	// the end (the drain included), and the busiest second.
	Messages          uint64            `json:"messages"`
	MessagesPerSecond float64           `json:"messages_per_second"`
	PeakMessages      uint64            `json:"peak_messages_per_second"`
	MessagesByChannel map[string]uint64 `json:"messages_by_channel,omitempty"`
	Gaps              uint64            `json:"gaps"`
	GapsByChannel     map[string]uint64 `json:"gaps_by_channel,omitempty"`
	Undelivered       uint64            `json:"undelivered"`
	Unseen            uint64            `json:"unseen"`
	OutOfOrder        uint64            `json:"out_of_order"`
	Disconnects       uint64            `json:"disconnects"`
	Subscribers       int               `json:"subscribers_requested"`
	Opened            uint64            `json:"connections_opened"`
	Failed            uint64            `json:"connections_failed"`
	PeakOpen          int64             `json:"connections_peak"`
	// Ops are the driving operations: trades (ws-market), connection
	// attempts (ws-connect); OpRate is the achieved rate of them.
	Ops          OpCounts          `json:"ops"`
	RequestedOps float64           `json:"requested_rate"`
	OpRate       float64           `json:"achieved_rate"`
	Shortfall    float64           `json:"shortfall"`
	Success      float64           `json:"success"`
	Slow         SlowConsumers     `json:"slow_consumers"`
	Errors       []ErrorCount      `json:"errors,omitempty"`
	Connect      []ConnectFindings `json:"connect,omitempty"`
	Runs         []StreamRunInfo   `json:"runs"`
	Interrupted  []string          `json:"interrupted,omitempty"`
	Verdict      Verdict           `json:"verdict"`

	latency *Histogram
	seconds []StreamSecond
}

// StreamAnalysis is a stream run analysed.
type StreamAnalysis struct{ Summary *StreamSummary }

// AnalyzeStream merges the records of one or more workers and judges them:
// INTERRUPTED when a run was stopped early, INVALID when the driving
// operations fell short of the requested rate by more than MaxShortfall,
// otherwise by the thresholds.
func AnalyzeStream(recs []StreamRecord, title string, ts []Threshold) *StreamAnalysis {
	s := &StreamSummary{Title: title, Kind: "stream", MessagesByChannel: map[string]uint64{}, latency: &Histogram{}}
	scen, targets := map[string]bool{}, map[string]bool{}
	secs := map[int64]*StreamSecond{}
	errs := map[string]uint64{}
	var opSpan, driving float64
	var minDur time.Duration
	for _, r := range recs {
		scen[r.Run.Scenario], targets[r.Run.Target] = true, true
		if s.Earliest.IsZero() || r.Run.Started.Before(s.Earliest) {
			s.Earliest = r.Run.Started
		}
		if r.Run.Ended.After(s.Latest) {
			s.Latest = r.Run.Ended
		}
		s.latency.Merge(r.Latency.Histogram())
		s.Messages += r.Messages
		for ch, n := range r.MessagesByChannel {
			s.MessagesByChannel[ch] += n
		}
		s.Gaps += r.Gaps
		for ch, n := range r.GapsByChannel {
			if s.GapsByChannel == nil {
				s.GapsByChannel = map[string]uint64{}
			}
			s.GapsByChannel[ch] += n
		}
		s.Undelivered += r.Undelivered
		s.Unseen += r.Unseen
		s.OutOfOrder += r.OutOfOrder
		s.Disconnects += r.Disconnects
		s.Subscribers += r.Run.Subscribers
		s.Opened += r.Opened
		s.Failed += r.Failed
		s.PeakOpen += r.PeakOpen
		s.Ops.Sent += r.Ops.Sent
		s.Ops.OK += r.Ops.OK
		s.RequestedOps += r.Run.Rate
		from := r.Run.Driving
		if from.IsZero() {
			from = r.Run.Started
		}
		// The operations' span: the duration asked for, or longer when
		// the driver fell behind (its last operation started later than
		// its schedule's last slot).
		span := r.Run.Duration
		if !r.Run.DriverDone.IsZero() && r.Run.Rate > 0 {
			span = max(span, r.Run.DriverDone.Sub(from)+time.Duration(float64(time.Second)/r.Run.Rate))
		}
		if r.Run.Interrupted {
			span = min(span, r.Run.Ended.Sub(from))
		}
		minDur = max(minDur, r.Run.Duration)
		opSpan = max(opSpan, span.Seconds())
		driving = max(driving, r.Run.Ended.Sub(from).Seconds())
		s.Slow.Count += r.Slow.Count
		s.Slow.Delay = max(s.Slow.Delay, r.Slow.Delay)
		s.Slow.Closed += r.Slow.Closed
		s.Slow.Messages += r.Slow.Messages
		s.Slow.MaxLagMS = max(s.Slow.MaxLagMS, r.Slow.MaxLagMS)
		for k, n := range r.Slow.CloseReasons {
			if s.Slow.CloseReasons == nil {
				s.Slow.CloseReasons = map[string]uint64{}
			}
			s.Slow.CloseReasons[k] += n
		}
		for k, n := range r.Errors {
			errs[k] += n
		}
		if r.Connect != nil {
			s.Connect = append(s.Connect, *r.Connect)
		}
		for _, sec := range r.Seconds {
			m := secs[sec.Unix]
			if m == nil {
				m = &StreamSecond{Unix: sec.Unix}
				secs[sec.Unix] = m
			}
			m.Messages += sec.Messages
			m.Ops += sec.Ops
			m.OpsOK += sec.OpsOK
			m.Open += sec.Open
			m.Disconnects += sec.Disconnects
			for ms, n := range sec.LatencyMS {
				if m.LatencyMS == nil {
					m.LatencyMS = map[int]uint64{}
				}
				m.LatencyMS[ms] += n
			}
		}
		s.Runs = append(s.Runs, r.Run)
		if r.Run.Interrupted {
			s.Interrupted = append(s.Interrupted, fmt.Sprintf("%s (ran %s of %s)", r.Run.Attack,
				r.Run.Ended.Sub(r.Run.Started).Round(time.Millisecond), r.Run.Duration))
		}
	}
	s.Scenarios, s.Targets = keys(scen), keys(targets)
	s.SpanS = s.Latest.Sub(s.Earliest).Seconds()
	for _, sec := range secs {
		s.seconds = append(s.seconds, *sec)
		s.PeakMessages = max(s.PeakMessages, sec.Messages)
	}
	sort.Slice(s.seconds, func(i, j int) bool { return s.seconds[i].Unix < s.seconds[j].Unix })
	s.LatencyOf = latencyOf(s.Scenarios)
	s.Latency, s.Samples = s.latency.figures(), s.latency.Count()
	if driving > 0 {
		s.MessagesPerSecond = float64(s.Messages) / driving
	}
	if opSpan > 0 {
		s.OpRate = float64(s.Ops.Sent) / opSpan
	}
	if s.RequestedOps > 0 {
		s.Shortfall = 1 - s.OpRate/s.RequestedOps
	}
	// Success: the share of subscriptions and driving operations that
	// worked (ws-connect's attempts are its subscriptions).
	total, good := s.Ops.Sent, s.Ops.OK
	if !slicesHas(s.Scenarios, ScenarioWSConnect) {
		total, good = total+s.Opened+s.Failed, good+s.Opened
	}
	if total > 0 {
		s.Success = float64(good) / float64(total)
	}
	s.Errors = topErrors(errs, 10)
	s.Verdict = s.judge(ts, minDur)
	return &StreamAnalysis{Summary: s}
}

func slicesHas(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func latencyOf(scenarios []string) string {
	if len(scenarios) != 1 {
		return "by scenario: " + strings.Join(scenarios, ", ")
	}
	switch scenarios[0] {
	case ScenarioWSConnect:
		return "WebSocket handshake"
	case ScenarioWSTrading:
		return "trading stream request to its answer (the order's report)"
	case ScenarioWS2Trading:
		return "trading stream request to its order's report notification"
	}
	return "trade timestamp to receipt by a subscriber (trades channel)"
}

// judge gives the verdict.
func (s *StreamSummary) judge(ts []Threshold, dur time.Duration) Verdict {
	v := Verdict{Status: StatusPass}
	for _, t := range ts {
		v.Thresholds = append(v.Thresholds, s.evaluate(t))
	}
	// 1%, or 50 ms of the run's duration: one late operation at the end
	// of a short run is scheduling, not a driver falling behind.
	tolerance := MaxShortfall
	if dur > 0 {
		tolerance = max(tolerance, float64(50*time.Millisecond)/float64(dur))
	}
	if s.RequestedOps > 0 && s.Shortfall > tolerance && len(s.Interrupted) == 0 {
		v.Problems = append(v.Problems, fmt.Sprintf("the driver made %.1f operations/s of the %.1f/s requested (%.1f%% short)",
			s.OpRate, s.RequestedOps, 100*s.Shortfall))
	}
	if s.Unseen > 0 {
		v.Warnings = append(v.Warnings, fmt.Sprintf("%d of the driver's %d trades reached no subscriber by the end: the target fell behind (see the latency)", s.Unseen, s.Ops.OK))
	}
	if s.Slow.Count > 0 && s.Slow.Closed == 0 {
		v.Warnings = append(v.Warnings, fmt.Sprintf("no slow consumer was disconnected (the %d of them lagged up to %s)", s.Slow.Count, fmtMS(s.Slow.MaxLagMS)))
	}
	switch {
	case len(s.Interrupted) > 0:
		v.Status = StatusInterrupted
	case len(v.Problems) > 0:
		v.Status = StatusInvalid
	default:
		for _, t := range v.Thresholds {
			if !t.Pass {
				v.Status = StatusBreached
			}
		}
	}
	return v
}

// evaluate checks one threshold against the stream figures.
func (s *StreamSummary) evaluate(t Threshold) ThresholdResult {
	var actual float64
	var shown string
	switch t.Metric {
	case "gaps":
		actual, shown = float64(s.Gaps), fmt.Sprint(s.Gaps)
	case "disconnects":
		actual, shown = float64(s.Disconnects), fmt.Sprint(s.Disconnects)
	case "messages":
		actual, shown = s.MessagesPerSecond, fmt.Sprintf("%.1f/s", s.MessagesPerSecond)
	case "success":
		actual, shown = s.Success, fmt.Sprintf("%.4f", s.Success)
	case "rate":
		actual, shown = s.OpRate, fmt.Sprintf("%.1f/s", s.OpRate)
	default:
		fig := latencyMetrics()[t.Metric]
		v := fig(s.Latency)
		actual, shown = v/1000, fmtMS(v)
		if s.Samples == 0 {
			return ThresholdResult{Threshold: t.raw, Actual: "no latency measured", Pass: false}
		}
	}
	return ThresholdResult{Threshold: t.raw, Actual: shown, Pass: t.holds(actual)}
}

// Rows are the summary's figures as label and text.
func (s *StreamSummary) Rows() [][2]string {
	chans := make([]string, 0, len(s.MessagesByChannel))
	for ch, n := range s.MessagesByChannel {
		chans = append(chans, fmt.Sprintf("%s %d", ch, n))
	}
	sort.Strings(chans)
	rows := [][2]string{
		{"scenario", strings.Join(s.Scenarios, ", ")},
		{"target", strings.Join(s.Targets, ", ")},
		{"span", fmt.Sprintf("%.3fs (%s to %s), %d run(s)", s.SpanS, s.Earliest.UTC().Format(time.RFC3339), s.Latest.UTC().Format(time.RFC3339), len(s.Runs))},
		{"connections", fmt.Sprintf("%d opened, %d failed, %d at most at once (%d subscribers requested)", s.Opened, s.Failed, s.PeakOpen, s.Subscribers)},
		{"driver", fmt.Sprintf("%d sent, %d ok; %.1f/s of %.1f/s requested", s.Ops.Sent, s.Ops.OK, s.OpRate, s.RequestedOps)},
		{"success", fmt.Sprintf("%.4f", s.Success)},
		{"latency", fmt.Sprintf("p50 %s  p90 %s  p95 %s  p99 %s  max %s  (%d samples: %s)", fmtMS(s.Latency.P50MS), fmtMS(s.Latency.P90MS),
			fmtMS(s.Latency.P95MS), fmtMS(s.Latency.P99MS), fmtMS(s.Latency.MaxMS), s.Samples, s.LatencyOf)},
		{"messages", fmt.Sprintf("%d (%.1f/s, peak %d/s)", s.Messages, s.MessagesPerSecond, s.PeakMessages)},
	}
	if len(chans) > 0 {
		rows = append(rows, [2]string{"by channel", strings.Join(chans, ", ")})
	}
	rows = append(rows,
		[2]string{"gaps", fmt.Sprintf("%d missing in the middle%s, %d undelivered at the end, %d out of order; %d trades reached no subscriber", s.Gaps, byChannel(s.GapsByChannel), s.Undelivered, s.OutOfOrder, s.Unseen)},
		[2]string{"disconnects", fmt.Sprint(s.Disconnects)})
	if s.Slow.Count > 0 {
		rows = append(rows, [2]string{"slow consumers", fmt.Sprintf("%d pausing %s per message: %d disconnected by the target %v, %d messages, lag up to %s",
			s.Slow.Count, s.Slow.Delay, s.Slow.Closed, s.Slow.CloseReasons, s.Slow.Messages, fmtMS(s.Slow.MaxLagMS))})
	}
	for _, c := range s.Connect {
		first := "none failed"
		if c.FirstFailureOpen >= 0 {
			first = fmt.Sprintf("first failure after %.2fs with %d open from its address: %s", c.FirstFailureAfterS, c.FirstFailureOpen, c.FirstFailure)
		}
		rows = append(rows, [2]string{"connect ramp", fmt.Sprintf("%s; held per address %v", first, c.HeldPerAddr)})
	}
	for _, e := range s.Errors {
		rows = append(rows, [2]string{"error", fmt.Sprintf("%d× %s", e.Count, e.Error)})
	}
	return rows
}

// byChannel is " (ch n, ...)" of the gaps of each channel judged, or
// nothing when only one was.
func byChannel(m map[string]uint64) string {
	if len(m) < 2 {
		return ""
	}
	parts := make([]string, 0, len(m))
	for ch, n := range m {
		parts = append(parts, fmt.Sprintf("%s %d", ch, n))
	}
	sort.Strings(parts)
	return " (" + strings.Join(parts, ", ") + ")"
}

// WriteText writes the console summary.
func (s *StreamSummary) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\n", s.Title)
	for _, r := range s.Rows() {
		fmt.Fprintf(tw, "  %s\t%s\n", r[0], r[1])
	}
	writeVerdict(tw, s.Verdict, s.Interrupted)
	return tw.Flush()
}

// WriteJSON writes summary.json.
func (s *StreamSummary) WriteJSON(path string) error { return writeJSON(path, s) }
