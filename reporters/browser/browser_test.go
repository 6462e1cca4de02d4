package browser

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/htmlreport"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/rules"
)

// run is a small run with every outcome, a long unbroken token (to catch
// sideways scrolling) and a failed rule with a redacted exchange.
func run(t *testing.T) *results.Results {
	t.Helper()
	r := func(id, area string, st rules.Status, reason string) rules.Rule {
		return rules.Rule{ID: id, Area: area, Section: "v3 Authentication: HS256 (HMAC signature)", Statement: "Statement of " + id, Status: st, Reason: reason}
	}
	cat, err := rules.New([]rules.Rule{
		r("V3-PASS", "spot", rules.Testable, ""),
		r("V3-FAIL", "spot", rules.Testable, ""),
		r("V3-AMB", "auth", rules.Ambiguous, "the spec is silent"),
		r("V3-SKIP", "auth", rules.Testable, ""),
		r("V3-INC", "auth", rules.Testable, ""),
		r("V3-OOS", "errors", rules.OutOfScope, "not shown"),
	})
	if err != nil {
		t.Fatal(err)
	}
	it := func(text string, state types.SpecState, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels, State: state, RunTime: time.Second}
	}
	fail := it("rejects a bad signature", types.SpecStateFailed, "rule:V3-FAIL")
	fail.Failure = types.Failure{Message: "expected: HTTP 401\nactual: HTTP 200 " + strings.Repeat("x", 400)}
	fail.ReportEntries = types.ReportEntries{{Name: results.ExchangesEntry,
		Value: types.WrapEntryValue("#1 GET http://127.0.0.1:1/api/3/spot/balance?" + strings.Repeat("q=1&", 80) + "\nAuthorization: HS256 <redacted>\n-> 200 {}")}}
	amb := it("records", types.SpecStatePassed, "rule:V3-AMB", results.InformationalLabel)
	amb.ReportEntries = types.ReportEntries{{Name: results.ObservationEntry, Value: types.WrapEntryValue("answered 200")}}
	skip := it("needs the control plane", types.SpecStateSkipped, "rule:V3-SKIP")
	skip.Failure.Message = "emulator-only on a foreign target"
	inc := it("limits", types.SpecStateSkipped, "rule:V3-INC")
	inc.ReportEntries = types.ReportEntries{{Name: results.InconclusiveEntry, Value: types.WrapEntryValue("offer took 1.4s")}}
	reps := []types.Report{{SuiteDescription: "conform", StartTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		SpecReports: types.SpecReports{it("serves", types.SpecStatePassed, "rule:V3-PASS"), fail, amb, skip, inc}}}
	res := results.Build(reps, cat)
	res.Rules[1].Replay = "bin/conform run --target http://127.0.0.1:1 --label-filter 'rule:V3-FAIL'"
	return res
}

// TestReportInChromium opens report.html in headless Chromium and checks
// what a person sees against results.json.
func TestReportInChromium(t *testing.T) {
	chromium, err := Find(os.Getenv)
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	dir := t.TempDir()
	res := run(t)
	if err := res.Write(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.html")
	if err := htmlreport.WriteFile(report, res, htmlreport.Options{Facts: [][2]string{{"REST", "http://127.0.0.1:1"}}}); err != nil {
		t.Fatal(err)
	}
	// What the page shows is compared with results.json as written, not
	// with the values in memory.
	var want results.Results
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	shot := filepath.Join(dir, "report.png")
	seen, err := Look(ctx, report, Options{Chromium: chromium, Screenshot: shot, FilterProbe: "V3-FAIL"})
	if err != nil {
		t.Fatal(err)
	}

	verdicts := map[string]int{}
	for _, rr := range want.Rules {
		verdicts[string(rr.Verdict)]++
	}
	for v, n := range verdicts {
		if seen.RuleCounts[v] != n || seen.Rows[v] != n {
			t.Errorf("verdict %s: page says %d, shows %d rows; results.json has %d", v, seen.RuleCounts[v], seen.Rows[v], n)
		}
	}
	specs := map[string]int{"passed": want.Summary.Passed, "failed": want.Summary.Failed, "skipped": want.Summary.Skipped,
		"informational": want.Summary.Informational, "inconclusive": want.Summary.Inconclusive, "pending": want.Summary.Pending}
	for o, n := range specs {
		if seen.SpecCounts[o] != n {
			t.Errorf("specs %s: page says %d, results.json %d", o, seen.SpecCounts[o], n)
		}
	}
	if !seen.TranscriptHidden || !seen.TranscriptShown || !strings.Contains(seen.TranscriptText, "HS256 <redacted>") {
		t.Errorf("transcript hidden before the click %v, shown after %v: %q", seen.TranscriptHidden, seen.TranscriptShown, seen.TranscriptText)
	}
	if len(seen.Clipped) > 0 {
		t.Errorf("clipped at 1280 px:\n%s", strings.Join(seen.Clipped, "\n"))
	}
	if seen.FilteredRows != 1 {
		t.Errorf("filter V3-FAIL shows %d rows, want 1", seen.FilteredRows)
	}
	if len(seen.Requests) > 0 {
		t.Errorf("the report asked the network for %q", seen.Requests)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 1000 {
		t.Errorf("screenshot: %v", err)
	}
}

// TestLookSeesClipping proves the clipping check can fail: a page wider
// than the window, and a box hiding the end of its content.
func TestLookSeesClipping(t *testing.T) {
	chromium, err := Find(os.Getenv)
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	page := filepath.Join(t.TempDir(), "wide.html")
	html := `<!doctype html><html><body><input id="filter"><div style="width:2000px">wide</div>` +
		`<pre style="width:200px;overflow:hidden">` + strings.Repeat("y", 300) + `</pre></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seen, err := Look(ctx, page, Options{Chromium: chromium, FilterProbe: "-"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(seen.Clipped, "\n")
	for _, want := range []string{"scrolls sideways", "div ends at", "pre clips its content"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// A look at a page leaves nothing of Chromium in the temporary directory:
// neither its profile nor the directory of its singleton socket nor a
// helper process that would make the profile again. A short $TMPDIR holds
// Chromium's own temporary files inside the profile's directory; under a
// longer one (the socket's path would be too long there) they are found
// through the profile.
func TestLookLeavesNothingInTMPDIR(t *testing.T) {
	chromium, err := Find(os.Getenv)
	if err != nil {
		t.Skipf("skipped: %v", err)
	}
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte("<!doctype html><title>t</title><p>hello</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	short, err := os.MkdirTemp("", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(short)
	for name, tmp := range map[string]string{"short": short, "long": t.TempDir()} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := Layout(ctx, page, Options{Chromium: chromium}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // a helper left running would make the profile again by now
			entries, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				t.Errorf("left in $TMPDIR: %s", e.Name())
			}
		})
	}
}
