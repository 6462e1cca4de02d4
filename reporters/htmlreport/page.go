package htmlreport

// pageHTML is the report template: inline style and script only, so the
// file opens anywhere without a network. The layout wraps every long
// token (IDs, URLs, transcripts) instead of scrolling sideways.
const pageHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1.5em 2em;color:#222;max-width:1240px;line-height:1.4}
h1{margin:.2em 0}h2{margin:1.6em 0 .4em;border-bottom:2px solid #ddd;padding-bottom:.2em}h3{margin:1.1em 0 .3em;font-size:1em;color:#444}
table{border-collapse:collapse;width:100%;table-layout:fixed}
th,td{text-align:left;padding:.3em .5em;border-bottom:1px solid #eee;vertical-align:top;overflow-wrap:anywhere}
th{font-weight:600}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.86em}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f7;border:1px solid #e2e2e2;padding:.6em;margin:.4em 0;max-height:40em;overflow-y:auto}
.facts th{width:14em}
.badge{display:inline-block;padding:.05em .5em;border-radius:3px;font-size:.85em;font-weight:600;white-space:nowrap}
.passed{background:#dff0d8;color:#2b542c}.failed{background:#f2dede;color:#843534}.not-run{background:#843534;color:#fff}
.informational{background:#d9edf7;color:#245269}.inconclusive{background:#fcf8e3;color:#8a6d3b}
.skipped,.pending{background:#eee;color:#555}.not-covered{background:#f5f5f5;color:#888}.out-of-scope{background:#fff;color:#888;border:1px dashed #bbb}
.PASSED{background:#dff0d8;color:#2b542c}.FAILED,.BROKEN{background:#f2dede;color:#843534}.INTERRUPTED{background:#fcf8e3;color:#8a6d3b;border:1px solid #8a6d3b}
.interrupted{background:#fcf8e3;color:#8a6d3b;border:1px dashed #8a6d3b}.bar .interrupted{background:#e5c07b}
.verdict{font-size:1.3em;padding:.2em .6em}
.counts{display:flex;flex-wrap:wrap;gap:.4em;margin:.3em 0}
.counts .badge{font-size:.95em}
.bar{display:flex;height:14px;width:100%;border:1px solid #ccc;border-radius:3px;overflow:hidden;margin:.2em 0}
.bar span{display:block;height:100%}
.bar .passed{background:#5cb85c}.bar .failed{background:#d9534f}.bar .not-run{background:#843534}.bar .informational{background:#5bc0de}
.bar .inconclusive{background:#f0ad4e}.bar .skipped{background:#bbb}.bar .not-covered{background:#e4e4e4}.bar .out-of-scope{background:#f4f4f4}
.coverage{height:8px}.coverage span{background:#297373}
.areahead{display:flex;flex-wrap:wrap;gap:1em;align-items:baseline}
.rules td.id{width:17em}.rules td.v{width:8.5em}
.why{color:#555;font-size:.92em;margin-top:.2em}
.quote{color:#555;font-size:.9em;margin-top:.2em;padding-left:.6em;border-left:3px solid #ddd;font-style:italic}
.replay{font-size:.85em}
#filterbar{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ddd;display:flex;flex-wrap:wrap;gap:.6em;align-items:center;z-index:1}
#filter{flex:1;min-width:14em;padding:.3em .5em;font-size:1em}
details summary{cursor:pointer;color:#843534;font-weight:600}
.hidden{display:none}
</style></head><body>
<h1>{{.Title}}</h1>
<p><span class="badge verdict {{.Verdict}}" id="verdict">{{.Verdict}}</span>
{{if .Certification}}<span class="badge">certification run: a rule that cannot run is a failure</span>{{end}}</p>
{{with .Res.Interrupted}}<p id="interrupted"><b>{{.Status}}</b> at {{.At.UTC.Format "2006-01-02 15:04:05 UTC"}} ({{.Cause}}){{with .Reason}}: {{.}}{{end}}.
The run is incomplete: specs stopped in flight {{$.Res.Summary.Interrupted}}, never started {{$.Res.Summary.NotRun}}; neither is a failure, and the rules they name ({{$.Res.Summary.RulesInterrupted}}) are marked interrupted, not judged.</p>{{end}}
<table class="facts">
<tr><th>suite</th><td>{{.Res.Suite}}</td></tr>
<tr><th>started</th><td>{{.Res.StartTime.UTC.Format "2006-01-02 15:04:05 UTC"}}</td></tr>
<tr><th>duration</th><td>{{.Duration}}</td></tr>
{{range .Facts}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}
</table>

<h2>Outcomes</h2>
<p>Rules by verdict:</p>
<div class="counts" id="rule-counts">{{range .RuleCounts}}<span class="badge {{.Name}}" data-verdict="{{.Name}}">{{.Name}}: <b class="n">{{.N}}</b></span>{{end}}</div>
<p>Specs by outcome ({{.Res.Summary.Specs}} specs):</p>
<div class="counts" id="spec-counts">{{range .SpecCounts}}<span class="badge {{.Name}}" data-outcome="{{.Name}}">{{.Name}}: <b class="n">{{.N}}</b></span>{{end}}</div>
{{with .Skips}}<p>Why specs were skipped:</p><ul id="skip-reasons">{{range .}}<li><b>{{.Count}}</b> skipped: {{.Reason}}</li>{{end}}</ul>{{end}}
{{with .Res.SuiteFailures}}<h3>The run itself broke</h3><ul>{{range .}}<li><code>{{.Node}}</code>: <pre>{{.Message}}</pre></li>{{end}}</ul>{{end}}

<h2>Coverage by area</h2>
<table class="areas"><tr><th>area</th><th style="width:6em">rules</th><th style="width:9em">covered</th><th>verdicts</th></tr>
{{range .Areas}}<tr><td><a href="#area-{{.Name}}">{{.Title}}</a> <code>{{.Name}}</code></td><td>{{.Total}}</td>
<td>{{.Covered}}/{{.Testable}}<div class="bar coverage" title="{{.Covered}} of {{.Testable}} testable rules checked"><span style="width:{{pct .CoveredPct}}%"></span></div></td>
<td><div class="bar">{{range .Bars}}<span class="{{.Verdict}}" style="width:{{pct .Pct}}%" title="{{.Verdict}}: {{.N}}"></span>{{end}}</div></td></tr>{{end}}
</table>

<div id="filterbar"><input id="filter" type="search" placeholder="filter: rule ID, words of the statement, reason…" aria-label="filter rules">
<select id="verdict-filter" aria-label="verdict"><option value="">every verdict</option>{{range .Verdicts}}<option value="{{.}}">{{.}}</option>{{end}}</select>
<span id="shown"></span></div>

{{range .Areas}}<section class="area" id="area-{{.Name}}">
<h2 class="areahead">{{.Title}} <code>{{.Name}}</code> <small>{{.Document}}</small></h2>
{{range .Sections}}<div class="section"><h3>{{if .Link}}<a href="{{.Link}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</h3>
<table class="rules">
{{range .Rules}}<tr class="rule" id="{{.ID}}" data-verdict="{{.Verdict}}">
<td class="id"><a href="#{{.ID}}"><code>{{.ID}}</code></a></td>
<td class="v"><span class="badge {{.Verdict}}">{{.Verdict}}</span></td>
<td>{{.Statement}}{{if .Link}} <a href="{{.Link}}" title="its section of {{.Document}}">§</a>{{end}}
{{if .Sentence}}<div class="quote">{{.Document}}: “{{.Sentence}}”</div>{{end}}
{{if eq .Status "ambiguous"}}<div class="why">ambiguous: {{.Reason}}</div>{{end}}
{{if eq .Status "pending"}}<div class="why">pending: {{.Reason}}</div>{{end}}
{{if eq .Verdict "out-of-scope"}}<div class="why">out of scope: {{.Reason}}</div>{{end}}
{{if eq .Verdict "not-applicable"}}<div class="why">not applicable to this target: {{.Reason}}</div>{{end}}
{{range .Observations}}<div class="why">observed: {{.}}</div>{{end}}
{{range .Inconclusive}}<div class="why">inconclusive: {{.}}</div>{{end}}
{{if or (eq .Verdict "skipped") (eq .Verdict "not-run")}}{{range .SkipReasons}}<div class="why">skipped: {{.}}</div>{{end}}{{end}}
{{if eq .Verdict "not-covered"}}<div class="why">no spec of this run checks it</div>{{end}}
{{range .Failures}}<div class="why failure">{{.}}</div>{{end}}
{{with .Transcript}}<details class="transcript"><summary>exchange transcript</summary><pre>{{.}}</pre></details>{{end}}
{{with .Replay}}<div class="replay">replay: <code>{{.}}</code></div>{{end}}
</td></tr>
{{end}}</table></div>{{end}}
</section>{{end}}
<script>
(function(){
  var q=document.getElementById('filter'), sel=document.getElementById('verdict-filter'), shown=document.getElementById('shown');
  function apply(){
    var words=q.value.toLowerCase().split(/\s+/).filter(Boolean), v=sel.value, n=0;
    document.querySelectorAll('tr.rule').forEach(function(tr){
      var text=tr.textContent.toLowerCase();
      var ok=(!v||tr.dataset.verdict===v)&&words.every(function(w){return text.indexOf(w)>=0});
      tr.classList.toggle('hidden',!ok); if(ok){n++}
    });
    document.querySelectorAll('div.section').forEach(function(d){d.classList.toggle('hidden',!d.querySelector('tr.rule:not(.hidden)'))});
    document.querySelectorAll('section.area').forEach(function(s){s.classList.toggle('hidden',!s.querySelector('tr.rule:not(.hidden)'))});
    shown.textContent=n+' rules shown';
  }
  q.addEventListener('input',apply); sel.addEventListener('change',apply); apply();
})();
</script>
</body></html>
`
