package load

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Threshold is a condition on a run's figures, such as p99<50ms,
// success>0.99 or rate>=1000; a breached threshold fails the run.
type Threshold struct {
	// Metric is p50, p90, p95, p99 or max (latency), success (ratio of
	// 2xx/3xx answers) or rate (achieved requests per second).
	Metric string
	// Op is <, <=, > or >=.
	Op string
	// Limit is the bound: seconds for latencies, a ratio or a rate.
	Limit float64
	raw   string
}

// String is the threshold as written.
func (t Threshold) String() string { return t.raw }

// ThresholdResult is a threshold evaluated on a summary.
type ThresholdResult struct {
	Threshold string `json:"threshold"`
	Actual    string `json:"actual"`
	Pass      bool   `json:"pass"`
}

// latencyMetrics maps the latency metrics to their figure in milliseconds.
func latencyMetrics() map[string]func(LatencyFigures) float64 {
	return map[string]func(LatencyFigures) float64{
		"p50": func(l LatencyFigures) float64 { return l.P50MS },
		"p90": func(l LatencyFigures) float64 { return l.P90MS },
		"p95": func(l LatencyFigures) float64 { return l.P95MS },
		"p99": func(l LatencyFigures) float64 { return l.P99MS },
		"max": func(l LatencyFigures) float64 { return l.MaxMS },
	}
}

// ParseThreshold reads METRIC OP VALUE: p50|p90|p95|p99|max with a Go
// duration (p99<50ms), success with a ratio or a percentage
// (success>0.99, success>=99.5%), rate with requests per second (rate>1000).
func ParseThreshold(s string) (Threshold, error) {
	raw := strings.TrimSpace(s)
	if m, v, ok := strings.Cut(raw, "=="); ok {
		return parseCount(s, Threshold{Metric: strings.TrimSpace(m), Op: "==", raw: raw}, strings.TrimSpace(v))
	}
	i := strings.IndexAny(raw, "<>")
	if i < 1 {
		return Threshold{}, fmt.Errorf("threshold %q: want METRIC<VALUE or METRIC>VALUE, e.g. p99<50ms, success>0.99, rate>1000", s)
	}
	t := Threshold{Metric: strings.TrimSpace(raw[:i]), Op: raw[i : i+1], raw: raw}
	val := raw[i+1:]
	if strings.HasPrefix(val, "=") {
		t.Op += "="
		val = val[1:]
	}
	val = strings.TrimSpace(val)
	if _, ok := latencyMetrics()[t.Metric]; ok {
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return Threshold{}, fmt.Errorf("threshold %q: %s needs a duration such as 50ms", s, t.Metric)
		}
		t.Limit = d.Seconds()
		return t, nil
	}
	switch t.Metric {
	case "success":
		pct := strings.HasSuffix(val, "%")
		v, err := strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
		if pct {
			v /= 100
		}
		if err != nil || v < 0 || v > 1 {
			return Threshold{}, fmt.Errorf("threshold %q: success needs a ratio from 0 to 1 or a percentage", s)
		}
		t.Limit = v
	case "rate":
		v, err := strconv.ParseFloat(strings.TrimSuffix(val, "/s"), 64)
		if err != nil || v < 0 {
			return Threshold{}, fmt.Errorf("threshold %q: rate needs requests per second", s)
		}
		t.Limit = v
	case "messages":
		v, err := strconv.ParseFloat(strings.TrimSuffix(val, "/s"), 64)
		if err != nil || v < 0 {
			return Threshold{}, fmt.Errorf("threshold %q: messages needs messages per second", s)
		}
		t.Limit = v
	case "gaps", "disconnects":
		return parseCount(s, t, val)
	default:
		return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q (want p50, p90, p95, p99, max, success, rate; for stream scenarios also gaps, disconnects, messages)", s, t.Metric)
	}
	return t, nil
}

// parseCount reads the bound of a count metric (gaps, disconnects), the
// only metrics == applies to.
func parseCount(s string, t Threshold, val string) (Threshold, error) {
	if t.Metric != "gaps" && t.Metric != "disconnects" {
		return Threshold{}, fmt.Errorf("threshold %q: == applies to gaps and disconnects (counts), not %q", s, t.Metric)
	}
	v, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: %s needs a whole number, e.g. %s==0", s, t.Metric, t.Metric)
	}
	t.Limit = float64(v)
	return t, nil
}

// StreamOnly tells whether the threshold's metric is measured by stream
// scenarios only.
func (t Threshold) StreamOnly() bool {
	return t.Metric == "gaps" || t.Metric == "disconnects" || t.Metric == "messages"
}

// holds compares actual with the limit.
func (t Threshold) holds(actual float64) bool {
	switch t.Op {
	case "<":
		return actual < t.Limit
	case "<=":
		return actual <= t.Limit
	case ">":
		return actual > t.Limit
	case ">=":
		return actual >= t.Limit
	case "==":
		return actual == t.Limit
	}
	return false
}

// Evaluate checks the threshold against a summary's overall figures.
func (t Threshold) Evaluate(s *Summary) ThresholdResult {
	var actual float64
	var shown string
	if fig, ok := latencyMetrics()[t.Metric]; ok {
		v := fig(s.Latency)
		actual, shown = v/1000, fmtMS(v)
	} else if t.Metric == "success" {
		actual, shown = s.Success, fmt.Sprintf("%.4f", s.Success)
	} else {
		actual, shown = s.AchievedRate, fmt.Sprintf("%.1f/s", s.AchievedRate)
	}
	pass := t.holds(actual)
	if t.StreamOnly() {
		pass, shown = false, "not measured by REST scenarios"
	}
	if s.Requests == 0 {
		pass, shown = false, "no results"
	}
	return ThresholdResult{Threshold: t.raw, Actual: shown, Pass: pass}
}
