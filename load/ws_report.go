package load

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
)

// seriesLine is one line of a chart over the run's seconds.
type seriesLine struct {
	name, color string
	vals        []float64 // NaN: no value that second
}

// seriesSVG draws lines over the seconds of a run, unit labelling the
// vertical axis.
func seriesSVG(label, unit string, lines []seriesLine) string {
	n := 0
	peak := 0.0
	for _, l := range lines {
		n = max(n, len(l.vals))
		for _, v := range l.vals {
			if !math.IsNaN(v) {
				peak = max(peak, v)
			}
		}
	}
	if n == 0 {
		return "<p>No data.</p>"
	}
	if peak == 0 {
		peak = 1
	}
	pw, ph := float64(svgWidth-svgLeft-svgRight), float64(svgHeight-svgTop-svgBottom)
	xOf := func(i int) float64 {
		if n == 1 {
			return svgLeft + pw/2
		}
		return svgLeft + pw*float64(i)/float64(n-1)
	}
	yOf := func(v float64) float64 { return svgTop + ph - ph*v/peak }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="100%%" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11" role="img" aria-label="%s">`,
		svgWidth, svgHeight, template.HTMLEscapeString(label))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, svgLeft, svgTop, pw, ph)
	for k, l := range lines {
		var pts []string
		for i, v := range l.vals {
			if !math.IsNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", xOf(i), yOf(v)))
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"><title>%s</title></polyline>`, l.color, strings.Join(pts, " "), template.HTMLEscapeString(l.name))
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">— %s</text>`, svgLeft+8+k*140, svgTop+14, l.color, template.HTMLEscapeString(l.name))
	}
	step := max(1, n/8)
	for i := 0; i < n; i += step {
		x := xOf(i)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#999"/><text x="%.1f" y="%g" text-anchor="middle">%ds</text>`,
			x, svgTop+ph, x, svgTop+ph+5, x, svgTop+ph+18, i)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%d" text-anchor="middle">seconds into the run</text>`, svgLeft+pw/2, svgHeight-8)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%.4g %s</text><text x="%d" y="%g" text-anchor="end">0</text>`,
		svgLeft-6, svgTop+10, peak, template.HTMLEscapeString(unit), svgLeft-6, svgTop+ph)
	b.WriteString(`</svg>`)
	return b.String()
}

// charts are the stream report's three charts: latency, messages and
// connections over time.
func (s *StreamSummary) charts() (latency, messages, conns string) {
	n := len(s.seconds)
	p50, p99, pmax := make([]float64, n), make([]float64, n), make([]float64, n)
	msgs, ops, open, lost := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, sec := range s.seconds {
		p50[i], p99[i], pmax[i] = math.NaN(), math.NaN(), math.NaN()
		if v, ok := secondQuantile(sec.LatencyMS, 0.5); ok {
			p50[i] = float64(v)
			v99, _ := secondQuantile(sec.LatencyMS, 0.99)
			vmax, _ := secondQuantile(sec.LatencyMS, 1)
			p99[i], pmax[i] = float64(v99), float64(vmax)
		}
		msgs[i], ops[i] = float64(sec.Messages), float64(sec.Ops)
		open[i], lost[i] = float64(sec.Open), float64(sec.Disconnects)
	}
	latency = seriesSVG("latency over time", "ms", []seriesLine{{"p50", "#297373", p50}, {"p99", "#c0504d", p99}, {"max (≥1s capped)", "#999", pmax}})
	messages = seriesSVG("messages per second", "/s", []seriesLine{{"messages received", "#297373", msgs}, {"driver operations", "#999", ops}})
	conns = seriesSVG("connections over time", "", []seriesLine{{"open", "#297373", open}, {"lost", "#c0504d", lost}})
	return latency, messages, conns
}

// WriteReports writes summary.json and report.html into dir.
func (a *StreamAnalysis) WriteReports(dir string) error {
	return writeReports(dir, a.Summary.WriteJSON, a.WriteHTML)
}

// WriteHTML writes the self-contained stream report.
func (a *StreamAnalysis) WriteHTML(w io.Writer) error {
	s := a.Summary
	lat, msgs, conns := s.charts()
	data := struct {
		S                        *StreamSummary
		Rows                     [][2]string
		Histogram                template.HTML
		Latency, Messages, Conns template.HTML
	}{s, s.Rows(), template.HTML(histogramSVG(s.latency)), template.HTML(lat), template.HTML(msgs), template.HTML(conns)}
	if err := streamTemplate.Execute(w, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

var streamTemplate = template.Must(template.New("stream").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.S.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1.5em 2em;color:#222;max-width:1240px}
h2{border-bottom:2px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{text-align:left;padding:.25em .8em;border-bottom:1px solid #e4e4e4;vertical-align:top;overflow-wrap:anywhere}
svg{max-width:100%;height:auto}
.verdict{font-size:1.4em;font-weight:700;padding:.3em .6em;display:inline-block;border-radius:4px}
.PASS{background:#dff0d8;color:#2b542c}.BREACHED{background:#f2dede;color:#843534}.INVALID,.INTERRUPTED{background:#fcf8e3;color:#8a6d3b}
.bad{color:#843534;font-weight:600}
</style></head><body>
<h1>{{.S.Title}}</h1>
<p class="verdict {{.S.Verdict.Status}}">{{.S.Verdict.Status}}</p>
{{with .S.Verdict.Problems}}<p>The run is invalid: the driver did not offer the load asked for.</p><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .S.Verdict.Warnings}}<ul>{{range .}}<li class="bad">Warning: {{.}}</li>{{end}}</ul>{{end}}
{{with .S.Interrupted}}<ul>{{range .}}<li class="bad">Interrupted: {{.}}</li>{{end}}</ul>{{end}}
{{template "summary" .}}
<h2>Latency over time ({{.S.LatencyOf}})</h2>
{{.Latency}}
<h2>Messages per second</h2>
{{.Messages}}
<h2>Connections over time</h2>
{{.Conns}}
<h2>Latency histogram</h2>
{{.Histogram}}
<p>Raw figures: <code>stream.json</code> (one record per worker; <code>conform load merge</code> combines several); summary: <code>summary.json</code>.</p>
</body></html>
` + summaryHTML))
