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
	default:
		return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q (want p50, p90, p95, p99, max, success or rate)", s, t.Metric)
	}
	return t, nil
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
	var pass bool
	switch t.Op {
	case "<":
		pass = actual < t.Limit
	case "<=":
		pass = actual <= t.Limit
	case ">":
		pass = actual > t.Limit
	case ">=":
		pass = actual >= t.Limit
	}
	if s.Requests == 0 {
		pass, shown = false, "no results"
	}
	return ThresholdResult{Threshold: t.raw, Actual: shown, Pass: pass}
}
