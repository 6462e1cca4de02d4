package load

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"
)

// Source is one results file and the runs known to have written it (from
// the summary.json beside it; none for a bare Vegeta results file).
type Source struct {
	Path string
	Runs []RunInfo
}

// AnalyzeOptions tune Analyze.
type AnalyzeOptions struct {
	// Title heads the reports.
	Title string
	// Out, when set, receives every result read (as merged, with attack
	// names made unique across sources).
	Out vegeta.Encoder
	// RequestedRate states the total requested rate for results whose runs
	// are unknown (bare Vegeta files); 0: the runs' own.
	RequestedRate float64
	// Thresholds are evaluated on the overall figures.
	Thresholds []Threshold
	// PlotPoints bounds the points per series of the latency plot
	// (default 4000).
	PlotPoints int
}

// Analysis is what the reports are made of.
type Analysis struct {
	Summary *Summary
	// Plot is the latency-over-time plot (Vegeta's lib/plot).
	Plot *plot.Plot
	// PlotNote says why the plot is incomplete, if it is.
	PlotNote string
}

// aggregate accumulates the figures of one run, or of all.
type aggregate struct {
	metrics    figures
	lat        Histogram
	lag        Histogram
	noResponse uint64
	errors     map[string]uint64
	// offsets are sent-time minus scheduled-time (ns) per result, for the
	// schedule lag, taken relative to the first request's once all are read.
	offsets   []int64
	minSeq    uint64
	minOffset int64
	pacing    *Pacing
	duration  time.Duration
	// perSecond counts results by the second they were sent in, for the
	// throughput-over-time chart (only the total aggregate keeps it).
	perSecond map[int64]*SecondCount
	second    *SecondCount // perSecond[secondAt], the last one counted
	secondAt  int64
}

func newAggregate() *aggregate { return &aggregate{errors: map[string]uint64{}} }

func (a *aggregate) add(r *vegeta.Result) {
	a.metrics.add(r)
	a.lat.Record(r.Latency)
	if r.Code == 0 {
		a.noResponse++
	}
	if r.Error != "" {
		a.errors[r.Error]++
	}
	if a.pacing != nil && !a.pacing.IsUnlimited() {
		off := r.Timestamp.UnixNano() - int64(a.pacing.ScheduledAt(r.Seq, a.duration))
		if len(a.offsets) == 0 || r.Seq < a.minSeq {
			a.minSeq, a.minOffset = r.Seq, off
		}
		a.offsets = append(a.offsets, off)
	}
}

// countSecond counts r in the second it was sent in (the total aggregate's
// per-result work: the rest of its figures are merged from the runs').
func (a *aggregate) countSecond(r *vegeta.Result) {
	sec := r.Timestamp.Unix()
	c := a.second
	if c == nil || sec != a.secondAt {
		if c = a.perSecond[sec]; c == nil {
			c = &SecondCount{}
			a.perSecond[sec] = c
		}
		a.second, a.secondAt = c, sec
	}
	c.Sent++
	if r.Code >= 200 && r.Code < 400 {
		c.OK++
	}
}

// merge adds the figures of o (a run's) to a (the total), but for the
// schedule lag and the per-second counts.
func (a *aggregate) merge(o *aggregate) {
	a.metrics.merge(&o.metrics)
	a.lat.Merge(&o.lat)
	a.noResponse += o.noResponse
	for e, n := range o.errors {
		a.errors[e] += n
	}
}

// finish computes the derived metrics and the schedule lag.
func (a *aggregate) finish() {
	a.metrics.close()
	for _, off := range a.offsets {
		a.lag.Record(time.Duration(max(off-a.minOffset, 0)))
	}
	a.offsets = nil
}

// Analyze reads the results files and computes the summary and the plot.
// Results of different sources that carry the same attack name (the same
// worker's file given twice is refused) are told apart by a suffix @N, N
// being the source's position from 1.
func Analyze(sources []Source, opt AnalyzeOptions) (*Analysis, error) {
	if len(sources) == 0 {
		return nil, errors.New("analyze: no results files")
	}
	seen := map[string]bool{}
	for _, src := range sources {
		abs, err := filepath.Abs(src.Path)
		if err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		if seen[abs] {
			return nil, fmt.Errorf("analyze: %s given twice", src.Path)
		}
		seen[abs] = true
	}

	z := newAnalyzer(opt)
	for i, src := range sources {
		if err := decodeFile(src.Path, z.source(i, src.Runs)); err != nil {
			return nil, err
		}
	}
	return z.finish(), nil
}

// analyzer accumulates the results of one or more sources, in the order
// read, for Analyze; Execute feeds it a run's results as they are recorded.
type analyzer struct {
	opt    AnalyzeOptions
	total  *aggregate
	runs   map[string]*aggregate
	infos  map[string]*RunInfo
	order  []string
	owner  map[string]int
	plot   *plot.Plot
	points *plotBuckets // the plot's points, until finish
}

func newAnalyzer(opt AnalyzeOptions) *analyzer {
	if opt.PlotPoints <= 0 {
		opt.PlotPoints = 4000
	}
	z := &analyzer{opt: opt, total: newAggregate(), runs: map[string]*aggregate{}, infos: map[string]*RunInfo{},
		owner: map[string]int{}, plot: plot.New(plot.Title(opt.Title), plot.Downsample(opt.PlotPoints)),
		points: newPlotBuckets(opt.PlotPoints / 2)} // at most two points per bucket and series
	z.total.perSecond = map[int64]*SecondCount{}
	return z
}

// source returns what takes the results of source i (from 0), whose runs
// are known to be runs.
func (z *analyzer) source(i int, runs []RunInfo) func(*vegeta.Result) error {
	known := map[string]RunInfo{}
	for _, ri := range runs {
		known[ri.Attack] = ri
	}
	rename := map[string]string{}
	var last struct { // the previous result's attack: most often this one's
		attack, name string
		agg          *aggregate
	}
	return func(r *vegeta.Result) error {
		if last.agg != nil && r.Attack == last.attack {
			r.Attack = last.name
			return z.add(last.agg, r)
		}
		attack := r.Attack
		name, ok := rename[r.Attack]
		if !ok {
			name = r.Attack
			if _, taken := z.owner[name]; taken {
				name = r.Attack + "@" + strconv.Itoa(i+1)
			}
			z.owner[name] = i
			rename[r.Attack] = name
			agg := newAggregate()
			if ri, ok := known[r.Attack]; ok {
				ri.Attack = name
				z.infos[name] = &ri
				pc := ri.pacing()
				agg.pacing, agg.duration = &pc, ri.duration()
			}
			z.runs[name] = agg
			z.order = append(z.order, name)
		}
		r.Attack = name
		last.attack, last.name, last.agg = attack, name, z.runs[name]
		return z.add(last.agg, r)
	}
}

// add takes result r of the run that agg aggregates.
func (z *analyzer) add(agg *aggregate, r *vegeta.Result) error {
	agg.add(r)
	z.total.countSecond(r)
	z.points.add(r)
	if z.opt.Out != nil {
		if err := z.opt.Out.Encode(r); err != nil {
			return fmt.Errorf("write merged results: %w", err)
		}
	}
	return nil
}

// finish computes the summary and closes the plot.
func (z *analyzer) finish() *Analysis {
	plotErr := z.points.each(z.plot.Add) // a plot that cannot take a point is incomplete, not fatal
	z.plot.Close()
	s := summarize(z.total, z.runs, z.infos, z.order, z.opt)
	a := &Analysis{Summary: s, Plot: z.plot}
	if plotErr != nil {
		a.PlotNote = "the latency plot is incomplete: " + plotErr.Error()
	}
	return a
}

// decodeFile calls fn with every result in a results file (gob, JSON or
// CSV, detected as Vegeta does).
func decodeFile(path string, fn func(*vegeta.Result) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	defer f.Close()
	dec := vegeta.DecoderFor(f)
	if dec == nil {
		if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
			return nil // a run that sent nothing
		}
		return fmt.Errorf("analyze: %s: not a Vegeta results file (gob, JSON or CSV)", path)
	}
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("analyze: %s: %w", path, err)
		}
		if err := fn(&r); err != nil {
			return fmt.Errorf("analyze: %s: %w", path, err)
		}
	}
}

// summarize turns the aggregates into a summary with its verdict.
func summarize(total *aggregate, runs map[string]*aggregate, infos map[string]*RunInfo, order []string, opt AnalyzeOptions) *Summary {
	for _, name := range order {
		a := runs[name]
		a.finish()
		total.merge(a)
		total.lag.Merge(&a.lag)
	}
	total.metrics.close()
	m := &total.metrics
	s := &Summary{
		Title: opt.Title, Earliest: m.Earliest, Latest: m.Latest, SpanS: m.Duration.Seconds(),
		Requests: m.Requests, NoResponse: total.noResponse, WallRate: m.Rate, Throughput: m.Throughput, Success: m.Success,
		StatusCodes: m.StatusCodes(), Latency: latencyFigures(&total.lat), ScheduleLag: lagFigures(&total.lag),
		BytesOut: m.BytesOut, latency: &total.lat, perSecond: secondsSeries(total.perSecond),
	}
	if s.Requests > 0 {
		s.Share429 = float64(s.StatusCodes["429"]) / float64(s.Requests)
	}
	s.Errors = topErrors(total.errors, 10)

	scenarios, targets, versions := map[string]bool{}, map[string]bool{}, map[string]bool{}
	allKnown := len(order) > 0
	var problems []string
	for _, name := range order {
		a := runs[name]
		rs := RunSummary{Attack: name, Run: infos[name], Requests: a.metrics.Requests, AchievedRate: a.metrics.Rate,
			Success: a.metrics.Success, P99MS: ms(a.lat.Quantile(0.99)), ScheduleLag: lagFigures(&a.lag)}
		s.AchievedRate += rs.AchievedRate
		if ri := rs.Run; ri != nil {
			scenarios[ri.Scenario], targets[ri.Target], versions[ri.HTTPVersion] = true, true, true
			s.RequestedRate += ri.RequestedRate
			s.Expected += ri.Expected
			s.Workers += ri.Workers
			s.MaxWorkers += ri.MaxWorkers
			s.Connections += ri.Connections
			rs.Problems = runProblems(rs, ri)
			if ri.Interrupted {
				s.Interrupted = append(s.Interrupted, fmt.Sprintf("%s: interrupted after %.1fs of %s", name, a.metrics.Duration.Seconds(), ri.duration()))
			}
		} else {
			allKnown = false
			if opt.RequestedRate == 0 {
				rs.Problems = []string{"requested rate unknown: no summary.json naming this attack beside its results file (give the total with --requested-rate)"}
			}
		}
		for _, pr := range rs.Problems {
			problems = append(problems, name+": "+pr)
		}
		s.Runs = append(s.Runs, rs)
	}
	s.Scenarios, s.Targets = keys(scenarios), keys(targets)
	s.HTTPVersion = strings.Join(keys(versions), ", ")
	if s.Expected > s.Requests {
		s.Unsent = s.Expected - s.Requests
	}

	switch {
	case opt.RequestedRate > 0:
		s.RequestedRate, s.RequestedKnown = opt.RequestedRate, true
	case allKnown:
		s.RequestedKnown = true
	}
	if s.RequestedKnown && s.RequestedRate > 0 {
		s.Shortfall = 1 - s.AchievedRate/s.RequestedRate
		// A run stopped on purpose has nothing to fall short of (as in
		// runProblems): a loaded machine's slow first 300 ms made an
		// interrupted run INVALID.
		if s.Shortfall > MaxShortfall && len(problems) == 0 && len(s.Interrupted) == 0 {
			problems = append(problems, fmt.Sprintf("achieved %.1f/s of %.1f/s requested (%.2f%% short, more than %.0f%%)",
				s.AchievedRate, s.RequestedRate, 100*s.Shortfall, 100*MaxShortfall))
		}
	}
	if s.Requests == 0 {
		problems = append(problems, "no results")
	}
	s.Verdict = judge(s, problems, opt.Thresholds)
	if len(s.Interrupted) > 0 && s.Verdict.Status != StatusInvalid {
		s.Verdict.Status = StatusInterrupted
	}
	if l := s.ScheduleLag; l != nil && l.P99MS > ms(MaxScheduleLag) {
		s.Verdict.Warnings = append(s.Verdict.Warnings, fmt.Sprintf(
			"requests went out up to %s behind schedule (p99 %s): the rate was offered in bursts; the target or the generating machine was saturated",
			fmtMS(l.MaxMS), fmtMS(l.P99MS)))
	}
	return s
}

// runProblems lists what makes one run invalid.
func runProblems(rs RunSummary, ri *RunInfo) []string {
	var ps []string
	if rs.Requests < ri.Sent {
		ps = append(ps, fmt.Sprintf("results file holds %d of the %d results the run recorded", rs.Requests, ri.Sent))
	}
	if ri.RequestedRate == 0 || ri.Interrupted {
		return ps // unlimited, or stopped on purpose: nothing to fall short of
	}
	if short := 1 - rs.AchievedRate/ri.RequestedRate; short > MaxShortfall {
		ps = append(ps, fmt.Sprintf("achieved %.1f/s of %.1f/s requested (%.2f%% short, more than %.0f%%)",
			rs.AchievedRate, ri.RequestedRate, 100*short, 100*MaxShortfall))
	}
	if float64(rs.Requests) < (1-MaxShortfall)*float64(ri.Expected) {
		ps = append(ps, fmt.Sprintf("sent %d of the %d requests asked for", rs.Requests, ri.Expected))
	}
	return ps
}

// judge sets the verdict: invalid runs are not judged by thresholds'
// outcome, but the thresholds are still shown.
func judge(s *Summary, problems []string, ts []Threshold) Verdict {
	v := Verdict{Status: StatusPass, Problems: problems}
	for _, t := range ts {
		r := t.Evaluate(s)
		v.Thresholds = append(v.Thresholds, r)
		if !r.Pass {
			v.Status = StatusBreached
		}
	}
	if len(problems) > 0 {
		v.Status = StatusInvalid
	}
	return v
}

func topErrors(errs map[string]uint64, n int) []ErrorCount {
	out := make([]ErrorCount, 0, len(errs))
	for e, c := range errs {
		out = append(out, ErrorCount{Error: e, Count: c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Error < out[j].Error
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// SecondCount is what was sent in one second of a run, and how much of it
// succeeded (HTTP 2xx or 3xx).
type SecondCount struct {
	// Second counts from the run's first second.
	Second   int64
	Sent, OK uint64
}

// secondsSeries orders the per-second counts from the first second to the
// last, with the seconds in which nothing was sent as zeros.
func secondsSeries(m map[int64]*SecondCount) []SecondCount {
	if len(m) == 0 {
		return nil
	}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for sec := range m {
		first, last = min(first, sec), max(last, sec)
	}
	out := make([]SecondCount, 0, last-first+1)
	for sec := first; sec <= last; sec++ {
		c := SecondCount{Second: sec - first}
		if got := m[sec]; got != nil {
			c.Sent, c.OK = got.Sent, got.OK
		}
		out = append(out, c)
	}
	return out
}
