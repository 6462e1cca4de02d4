package load

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
)

// Output file names in a run's directory.
const (
	ResultsFile = "results.bin"  // Vegeta's gob encoding: vegeta report results.bin
	SummaryFile = "summary.json" // the Summary
	ReportFile  = "report.html"  // summary table, latency histogram and latency-over-time plot
)

// WriteReports writes summary.json and report.html into dir.
func (a *Analysis) WriteReports(dir string) error {
	return writeReports(dir, a.Summary.WriteJSON, a.WriteHTML)
}

// writeReports writes a run's summary.json (with writeJSON) and
// report.html (with writeHTML) into dir, REST and stream runs alike.
func writeReports(dir string, writeJSON func(path string) error, writeHTML func(io.Writer) error) error {
	if err := writeJSON(filepath.Join(dir, SummaryFile)); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, ReportFile))
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := writeHTML(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// WriteHTML writes the self-contained HTML report: verdict, summary table,
// thresholds, runs, status mix, throughput over time and latency histogram
// (inline SVG) and Vegeta's latency-over-time plot (embedded as the
// document of an iframe tall enough for the whole plot).
func (a *Analysis) WriteHTML(w io.Writer) error {
	var plotHTML bytes.Buffer
	if _, err := a.Plot.WriteTo(&plotHTML); err != nil {
		return fmt.Errorf("report: plot: %w", err)
	}
	s := a.Summary
	data := struct {
		S          *Summary
		Rows       [][2]string
		Histogram  template.HTML
		Throughput template.HTML
		StatusMix  template.HTML
		Plot       string
		PlotNote   string
	}{S: s, Rows: s.Rows(), Histogram: template.HTML(histogramSVG(s.latency)), Throughput: template.HTML(throughputSVG(s.perSecond)),
		StatusMix: template.HTML(statusMixHTML(s)), Plot: plotHTML.String(), PlotNote: a.PlotNote}
	if err := reportTemplate().Execute(w, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func reportTemplate() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"requested": runRequested,
		"ms":        fmtMS,
	}).Parse(reportHTML + summaryHTML))
}

// summaryHTML is the summary table and the thresholds' outcomes, the same in
// a REST run's report and a stream run's: data with Rows and S.Verdict.
const summaryHTML = `{{define "summary"}}<h2>Summary</h2>
<table>{{range .Rows}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table>
{{with .S.Verdict.Thresholds}}<h2>Thresholds</h2>
<table><tr><th>threshold</th><th>actual</th><th>outcome</th></tr>
{{range .}}<tr><td>{{.Threshold}}</td><td>{{.Actual}}</td><td{{if not .Pass}} class="bad"{{end}}>{{if .Pass}}holds{{else}}breached{{end}}</td></tr>{{end}}
</table>{{end}}
{{end}}`

const reportHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.S.Title}}</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1.5em 2em;color:#222;max-width:1240px}
h2{border-bottom:2px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0 1.5em;max-width:100%}
th,td{text-align:left;padding:.25em .8em;border-bottom:1px solid #e4e4e4;vertical-align:top;overflow-wrap:anywhere}
svg{max-width:100%;height:auto}
.mix{display:flex;height:18px;border:1px solid #ccc;border-radius:3px;overflow:hidden}.mix span{display:block;height:100%}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1em}.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
th{font-weight:600}
.verdict{font-size:1.4em;font-weight:700;padding:.3em .6em;display:inline-block;border-radius:4px}
.PASS{background:#dff0d8;color:#2b542c}.BREACHED{background:#f2dede;color:#843534}.INVALID{background:#fcf8e3;color:#8a6d3b}
.bad{color:#843534;font-weight:600}
/* Vegeta's plot is a 600px chart, a button and the body's margins: the
   frame is made taller than all of them so nothing is cut off. */
iframe{width:100%;height:700px;border:1px solid #ddd}
</style></head><body>
<h1>{{.S.Title}}</h1>
<p class="verdict {{.S.Verdict.Status}}">{{.S.Verdict.Status}}</p>
{{with .S.Verdict.Problems}}<p>The run is invalid: the generator did not offer the load asked for, so its figures are no capacity verdict.</p>
<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .S.Verdict.Warnings}}<ul>{{range .}}<li class="bad">Warning: {{.}}</li>{{end}}</ul>{{end}}
{{template "summary" .}}
<h2>Runs</h2>
<table><tr><th>attack</th><th>worker</th><th>source address</th><th>requested</th><th>achieved</th><th>requests</th><th>success</th><th>p99</th><th>schedule lag p99 / max</th><th>cleanup</th><th>problems</th></tr>
{{range .S.Runs}}<tr><td>{{.Attack}}</td><td>{{with .Run}}{{.WorkerID}}{{end}}</td><td>{{with .Run}}{{.LocalAddr}}{{end}}</td><td>{{requested .}}</td>
<td>{{printf "%.1f/s" .AchievedRate}}</td><td>{{.Requests}}</td><td>{{printf "%.4f" .Success}}</td><td>{{ms .P99MS}}</td>
<td>{{with .ScheduleLag}}{{ms .P99MS}} / {{ms .MaxMS}}{{end}}</td>
<td>{{with .Run}}{{with .Cleanup}}{{.Left}} left, {{.Removed}} removed, {{.Gone}} gone, {{.Failures}} failed{{end}} {{.CleanupError}}{{end}}</td>
<td>{{range .Problems}}<div class="bad">{{.}}</div>{{end}}</td></tr>{{end}}
</table>
<h2>Status mix</h2>
{{.StatusMix}}
<h2>Throughput over time</h2>
{{.Throughput}}
<h2>Latency histogram</h2>
{{.Histogram}}
<h2>Latency over time</h2>
{{with .PlotNote}}<p class="bad">{{.}}</p>{{end}}
<iframe title="latency over time" srcdoc="{{.Plot}}"></iframe>
<p>Raw results: <code>results.bin</code> in Vegeta's encoding (<code>vegeta report results.bin</code>, <code>vegeta plot results.bin</code>); figures: <code>summary.json</code>.</p>
</body></html>
`
