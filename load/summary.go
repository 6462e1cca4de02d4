package load

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Verdict statuses.
const (
	StatusPass     = "PASS"     // valid, and every threshold holds
	StatusBreached = "BREACHED" // valid, and a threshold was breached
	StatusInvalid  = "INVALID"  // the generator did not offer the requested load; figures are not a capacity verdict
	// StatusInterrupted: stopped on purpose (SIGINT, SIGTERM) before its
	// duration; what was measured is kept and shown, but it is no verdict
	// on the target.
	StatusInterrupted = "INTERRUPTED"
)

// MaxShortfall is how far the achieved rate may fall below the requested
// one before a run is invalid.
const MaxShortfall = 0.01

// Summary is the outcome of one run or of several workers' runs merged
// (summary.json and the console summary).
type Summary struct {
	Title     string   `json:"title"`
	Scenarios []string `json:"scenarios"`
	Targets   []string `json:"targets"`
	// Earliest and Latest are when the first and last requests were sent.
	Earliest time.Time `json:"earliest"`
	Latest   time.Time `json:"latest"`
	SpanS    float64   `json:"span_s"`
	// RequestedRate is the requested mean rate (sum over workers), 0 when
	// unlimited or unknown (RequestedKnown false).
	RequestedRate  float64 `json:"requested_rate"`
	RequestedKnown bool    `json:"requested_known"`
	// Expected is the number of requests asked for; Unsent how many of
	// them were never sent.
	Expected uint64 `json:"expected_requests"`
	Requests uint64 `json:"requests"`
	Unsent   uint64 `json:"unsent_requests"`
	// NoResponse counts requests that got no HTTP answer (connection
	// refused or reset, timeout, redirect refused).
	NoResponse uint64 `json:"no_response"`
	// AchievedRate is each worker's requests over its own span, summed
	// over workers; WallRate is all requests over the overall span (lower
	// when workers did not start together).
	AchievedRate float64 `json:"achieved_rate"`
	WallRate     float64 `json:"wall_rate"`
	// Shortfall is 1 - AchievedRate/RequestedRate (when known).
	Shortfall float64 `json:"shortfall"`
	// Throughput is successful requests per second, the wait for the last
	// answers included (Vegeta's definition).
	Throughput float64 `json:"throughput"`
	// Success is the share of 2xx and 3xx answers among all requests.
	Success     float64           `json:"success"`
	StatusCodes map[string]uint64 `json:"status_codes"`
	Share429    float64           `json:"share_429"`
	Latency     LatencyFigures    `json:"latency"`
	// ScheduleLag is how late requests were sent against the pacing's
	// schedule, a measure of the generator's own precision.
	ScheduleLag *LagFigures `json:"schedule_lag,omitempty"`
	// BytesOut is the total of request bodies sent. (Bytes in are not
	// counted: response bodies are read in full but kept only for failed
	// requests, up to 1 KiB.)
	BytesOut    uint64       `json:"bytes_out"`
	Errors      []ErrorCount `json:"errors,omitempty"`
	Workers     uint64       `json:"workers"`
	MaxWorkers  uint64       `json:"max_workers"`
	Connections int          `json:"connections"`
	HTTPVersion string       `json:"http_version"`
	Runs        []RunSummary `json:"runs"`
	// Interrupted names the runs stopped before their duration, with how
	// long each ran; the verdict is then INTERRUPTED.
	Interrupted []string `json:"interrupted,omitempty"`
	Verdict     Verdict  `json:"verdict"`

	latency *Histogram
	// perSecond is the throughput over time, for report.html.
	perSecond []SecondCount
}

// LatencyFigures are latency statistics in milliseconds, from an HDR
// histogram (three significant digits; min, mean and max exact).
type LatencyFigures struct {
	MinMS  float64 `json:"min_ms"`
	MeanMS float64 `json:"mean_ms"`
	P50MS  float64 `json:"p50_ms"`
	P90MS  float64 `json:"p90_ms"`
	P95MS  float64 `json:"p95_ms"`
	P99MS  float64 `json:"p99_ms"`
	MaxMS  float64 `json:"max_ms"`
}

// LagFigures are schedule-lag statistics in milliseconds.
type LagFigures struct {
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
	MaxMS float64 `json:"max_ms"`
}

// ErrorCount is one distinct error and how often it occurred.
type ErrorCount struct {
	Error string `json:"error"`
	Count uint64 `json:"count"`
}

// RunSummary is one worker's run within a summary.
type RunSummary struct {
	Attack string `json:"attack"`
	// Run is the run as configured; nil when its results came without a
	// summary.json naming it.
	Run          *RunInfo    `json:"run,omitempty"`
	Requests     uint64      `json:"requests"`
	AchievedRate float64     `json:"achieved_rate"`
	Success      float64     `json:"success"`
	P99MS        float64     `json:"p99_ms"`
	ScheduleLag  *LagFigures `json:"schedule_lag,omitempty"`
	Problems     []string    `json:"problems,omitempty"`
}

// Verdict is the judgement of a run: INVALID when the load was not what was
// asked for, otherwise BREACHED or PASS by the thresholds.
type Verdict struct {
	Status     string            `json:"status"`
	Problems   []string          `json:"problems,omitempty"`
	Thresholds []ThresholdResult `json:"thresholds,omitempty"`
	// Warnings do not change the status, but qualify the figures.
	Warnings []string `json:"warnings,omitempty"`
}

// MaxScheduleLag is the schedule lag (p99) above which a run is flagged:
// the rate was reached on average, but in bursts, which usually means the
// generating machine or the target was saturated.
const MaxScheduleLag = 50 * time.Millisecond

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func latencyFigures(h *Histogram) LatencyFigures {
	return LatencyFigures{MinMS: ms(h.Min()), MeanMS: ms(h.Mean()), P50MS: ms(h.Quantile(0.5)), P90MS: ms(h.Quantile(0.9)),
		P95MS: ms(h.Quantile(0.95)), P99MS: ms(h.Quantile(0.99)), MaxMS: ms(h.Max())}
}

func lagFigures(h *Histogram) *LagFigures {
	if h.Count() == 0 {
		return nil
	}
	return &LagFigures{P50MS: ms(h.Quantile(0.5)), P99MS: ms(h.Quantile(0.99)), MaxMS: ms(h.Max())}
}

// WriteJSON writes the summary as indented JSON to path.
func (s *Summary) WriteJSON(path string) error { return writeJSON(path, s) }

// writeJSON writes v indented to path (summary.json of either kind of run).
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	return nil
}

// ReadSummary reads a summary.json.
func ReadSummary(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("summary %s: %w", path, err)
	}
	return &s, nil
}

// sortedCodes lists the status codes in numeric order ("0" first).
func (s *Summary) sortedCodes() []string {
	codes := make([]string, 0, len(s.StatusCodes))
	for c := range s.StatusCodes {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if len(codes[i]) != len(codes[j]) {
			return len(codes[i]) < len(codes[j])
		}
		return codes[i] < codes[j]
	})
	return codes
}

// statusMix is "200 x9990 (99.90%), 429 x10 (0.10%)".
func (s *Summary) statusMix() string {
	var parts []string
	for _, c := range s.sortedCodes() {
		n := s.StatusCodes[c]
		label := c
		if c == "0" {
			label = "no answer"
		}
		parts = append(parts, fmt.Sprintf("%s x%d (%.2f%%)", label, n, 100*float64(n)/float64(max(s.Requests, 1))))
	}
	return strings.Join(parts, ", ")
}

// requestedText is the requested rate as shown to people.
func (s *Summary) requestedText() string {
	switch {
	case !s.RequestedKnown:
		return "unknown"
	case s.RequestedRate == 0:
		return "max (as fast as the workers allow)"
	}
	return fmt.Sprintf("%.1f/s", s.RequestedRate)
}

// Rows are the summary as label/value pairs, shared by the console and
// HTML reports.
func (s *Summary) Rows() [][2]string {
	rows := [][2]string{
		{"scenario", strings.Join(s.Scenarios, ", ")},
		{"target", strings.Join(s.Targets, ", ")},
		{"workers", fmt.Sprintf("%d run(s), %d workers (max %d), %d connections, %s", len(s.Runs), s.Workers, s.MaxWorkers, s.Connections, s.HTTPVersion)},
		{"span", fmt.Sprintf("%.3fs (%s to %s)", s.SpanS, s.Earliest.UTC().Format(time.RFC3339), s.Latest.UTC().Format(time.RFC3339))},
		{"requested rate", s.requestedText()},
		{"achieved rate", fmt.Sprintf("%.1f/s", s.AchievedRate)},
	}
	if s.RequestedKnown && s.RequestedRate > 0 {
		short := fmt.Sprintf("%.2f%% (invalid above %.0f%%)", 100*s.Shortfall, 100*MaxShortfall)
		if s.Shortfall <= 0 {
			short = fmt.Sprintf("none (achieved %.2f%% above requested)", -100*s.Shortfall)
		}
		rows = append(rows, [2]string{"shortfall", short})
	}
	rows = append(rows,
		[2]string{"requests", fmt.Sprintf("%d sent of %d requested, %d unsent, %d without an answer", s.Requests, s.Expected, s.Unsent, s.NoResponse)},
		[2]string{"throughput", fmt.Sprintf("%.1f/s successful", s.Throughput)},
		[2]string{"success", fmt.Sprintf("%.4f (%.2f%%)", s.Success, 100*s.Success)},
		[2]string{"status codes", s.statusMix()},
		[2]string{"429 share", fmt.Sprintf("%.2f%%", 100*s.Share429)},
		[2]string{"latency", fmt.Sprintf("p50 %s  p90 %s  p95 %s  p99 %s  max %s  (min %s, mean %s; HDR histogram)",
			fmtMS(s.Latency.P50MS), fmtMS(s.Latency.P90MS), fmtMS(s.Latency.P95MS), fmtMS(s.Latency.P99MS), fmtMS(s.Latency.MaxMS),
			fmtMS(s.Latency.MinMS), fmtMS(s.Latency.MeanMS))},
	)
	if l := s.ScheduleLag; l != nil {
		rows = append(rows, [2]string{"schedule lag", fmt.Sprintf("p50 %s  p99 %s  max %s (how late the generator sent)", fmtMS(l.P50MS), fmtMS(l.P99MS), fmtMS(l.MaxMS))})
	}
	if c := s.cleanup(); c != "" {
		rows = append(rows, [2]string{"cleanup", c})
	}
	for i, e := range s.Errors {
		label := ""
		if i == 0 {
			label = "errors"
		}
		rows = append(rows, [2]string{label, fmt.Sprintf("x%d %s", e.Count, e.Error)})
	}
	return rows
}

func fmtMS(v float64) string { return fmtDur(time.Duration(v * float64(time.Millisecond))) }

// WriteText writes the console summary.
func (s *Summary) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\n", s.Title)
	for _, r := range s.Rows() {
		fmt.Fprintf(tw, "  %s\t%s\n", r[0], r[1])
	}
	if len(s.Runs) > 1 {
		for _, r := range s.Runs {
			fmt.Fprintf(tw, "  run\t%s: %d requests, %.1f/s of %s, success %.4f, p99 %s\n", r.Attack, r.Requests, r.AchievedRate, runRequested(r), r.Success, fmtMS(r.P99MS))
		}
	}
	writeVerdict(tw, s.Verdict, s.Interrupted)
	return tw.Flush()
}

// writeVerdict writes the verdict's lines of a console summary (REST and
// stream runs alike): thresholds, problems, warnings, interruptions, status.
func writeVerdict(tw io.Writer, v Verdict, interrupted []string) {
	for _, t := range v.Thresholds {
		mark := "ok"
		if !t.Pass {
			mark = "BREACHED"
		}
		fmt.Fprintf(tw, "  threshold\t%s: %s (actual %s)\n", t.Threshold, mark, t.Actual)
	}
	for _, p := range v.Problems {
		fmt.Fprintf(tw, "  invalid\t%s\n", p)
	}
	for _, w := range v.Warnings {
		fmt.Fprintf(tw, "  warning\t%s\n", w)
	}
	for _, i := range interrupted {
		fmt.Fprintf(tw, "  interrupted\t%s (what was measured until then is kept)\n", i)
	}
	fmt.Fprintf(tw, "  verdict\t%s\n", v.Status)
}

func runRequested(r RunSummary) string {
	switch {
	case r.Run == nil:
		return "unknown"
	case r.Run.RequestedRate == 0:
		return "max"
	}
	return fmt.Sprintf("%.1f/s", r.Run.RequestedRate)
}

// cleanup sums what the runs left on the target and removed afterwards
// ("" when no run had anything to clean up).
func (s *Summary) cleanup() string {
	var c CleanupReport
	var any bool
	var errs []string
	for _, r := range s.Runs {
		if r.Run == nil || r.Run.Cleanup == nil {
			continue
		}
		any = true
		c.Left += r.Run.Cleanup.Left
		c.Removed += r.Run.Cleanup.Removed
		c.Gone += r.Run.Cleanup.Gone
		c.Failures += r.Run.Cleanup.Failures
		if r.Run.CleanupError != "" {
			errs = append(errs, r.Run.CleanupError)
		}
	}
	if !any {
		return ""
	}
	out := fmt.Sprintf("%d orders left after the run: %d canceled, %d already gone, %d failed", c.Left, c.Removed, c.Gone, c.Failures)
	if len(errs) > 0 {
		out += " (" + strings.Join(errs, "; ") + ")"
	}
	return out
}
