package rundiff

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/reporters/results"
)

func rr(id string, v results.Verdict, extra ...string) results.RuleResult {
	r := results.RuleResult{ID: id, Area: "spot", Verdict: v}
	switch v {
	case results.VerdictFailed:
		r.Failures = extra
	case results.VerdictInformational:
		r.Observations = extra
	case results.VerdictSkipped:
		r.SkipReasons = extra
	}
	return r
}

func TestCompare(t *testing.T) {
	old := &results.Results{Rules: []results.RuleResult{
		rr("V3-STAYS", results.VerdictPassed),
		rr("V3-BREAKS", results.VerdictPassed),
		rr("V3-FIXED", results.VerdictFailed, "was 200"),
		rr("V3-COVERED", results.VerdictNotCovered),
		rr("V3-LOST", results.VerdictPassed),
		rr("V3-OBS", results.VerdictInformational, "200"),
		rr("V3-OBS-NOISE", results.VerdictInformational, "ws://127.0.0.1:4242/ws answered 429 in 61ms: 127.0.1.45 holds 100", "b\nc"),
		rr("V3-STILL-FAILS", results.VerdictFailed, "x"),
		rr("V3-GONE", results.VerdictPassed),
	}}
	cur := &results.Results{Rules: []results.RuleResult{
		rr("V3-STAYS", results.VerdictPassed),
		rr("V3-BREAKS", results.VerdictFailed, "expected 400\nactual 200"),
		rr("V3-FIXED", results.VerdictPassed),
		rr("V3-COVERED", results.VerdictPassed),
		rr("V3-LOST", results.VerdictSkipped, "emulator-only on a foreign target"),
		rr("V3-OBS", results.VerdictInformational, "404"),
		rr("V3-OBS-NOISE", results.VerdictInformational, "c\nb", "ws://127.0.0.1:5151/ws answered 429 in 1.5s: 127.0.1.43 holds 100"),
		rr("V3-STILL-FAILS", results.VerdictFailed, "x"),
		rr("V3-NEW-FAIL", results.VerdictFailed, "new rule fails"),
		{ID: "V3-NOT-RUN", Verdict: results.VerdictNotRun, Failures: []string{"cannot run: no key"}},
	}}
	d := Compare(old, cur)
	ids := func(cs []Change) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		name string
		got  []Change
		want string
	}{
		{"newly failing", d.NewlyFailing, "V3-BREAKS,V3-NEW-FAIL,V3-NOT-RUN"},
		{"fixed", d.Fixed, "V3-FIXED"},
		{"newly covered", d.NewlyCovered, "V3-COVERED"},
		{"changed", d.Changed, "V3-LOST,V3-OBS,V3-GONE"},
	}
	for _, c := range cases {
		if got := ids(c.got); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if !d.Regressed() || d.NewlyFailing[0].Why != "expected 400" || d.NewlyFailing[1].Old != absent {
		t.Errorf("regressions: %+v", d.NewlyFailing)
	}
	if Compare(old, old).Regressed() {
		t.Error("a run compared with itself regressed")
	}
	var b bytes.Buffer
	if err := d.Print(&b); err != nil || !strings.Contains(b.String(), "NEWLY FAILING (regressions) (3)\n  V3-BREAKS") ||
		!strings.Contains(b.String(), "diff: 3 newly failing, 1 fixed, 1 newly covered, 3 changed") {
		t.Errorf("print:\n%s %v", b.String(), err)
	}
}

func TestLoadFileDirAndBundle(t *testing.T) {
	dir := t.TempDir()
	res := &results.Results{Suite: "conform", Rules: []results.RuleResult{rr("V3-A", results.VerdictPassed)}}
	bundle := filepath.Join(dir, "bundle")
	if err := os.MkdirAll(bundle, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := res.Write(filepath.Join(bundle, ResultsFile)); err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(filepath.Join(bundle, ResultsFile))
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ name, body string }{{"bundle/mutation/results.json", "[]"}, {"bundle/results.json", string(body)}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(f.body))
	}
	tw.Close()
	gz.Close()
	tarPath := filepath.Join(dir, "bundle.tar.gz")
	if err := os.WriteFile(tarPath, tgz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(bundle, ResultsFile), bundle, tarPath} {
		got, err := Load(p)
		if err != nil || len(got.Rules) != 1 || got.Rules[0].ID != "V3-A" {
			t.Errorf("%s: %+v, %v", p, got, err)
		}
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte(`{"suite":"x"}`), 0o644)
	for _, p := range []string{filepath.Join(dir, "missing.json"), empty} {
		if _, err := Load(p); err == nil {
			t.Errorf("%s: loaded", p)
		}
	}
}

// An interrupted new run is incomplete: the rules it did not judge are set
// apart, never regressions, and the comparison says so; a rule that did
// fail before the stop is still one.
func TestCompareInterruptedRun(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := &results.Results{Rules: []results.RuleResult{
		rr("V3-PASSES", results.VerdictPassed),
		rr("V3-STOPPED", results.VerdictPassed),
		rr("V3-NEVER", results.VerdictPassed),
		rr("V3-CERT", results.VerdictPassed),
		rr("V3-BREAKS", results.VerdictPassed),
	}}
	cur := &results.Results{Interrupted: &results.Interruption{Status: results.StatusInterrupted, Cause: results.CauseSIGINT, At: at},
		Rules: []results.RuleResult{
			rr("V3-PASSES", results.VerdictPassed),
			rr("V3-STOPPED", results.VerdictInterrupted),
			rr("V3-NEVER", results.VerdictInterrupted),
			{ID: "V3-CERT", Verdict: results.VerdictNotRun, Failures: []string{"cannot run: no spec of this run checks it"}},
			rr("V3-BREAKS", results.VerdictFailed, "expected 400"),
		}}
	d := Compare(old, cur)
	if len(d.NotJudged) != 3 || len(d.NewlyFailing) != 1 || d.NewlyFailing[0].ID != "V3-BREAKS" || len(d.Changed) != 0 {
		t.Errorf("not judged %+v, newly failing %+v, changed %+v", d.NotJudged, d.NewlyFailing, d.Changed)
	}
	if !d.Incomplete() || d.NewInterrupted == nil {
		t.Error("the diff does not know the new run is incomplete")
	}
	var b bytes.Buffer
	if err := d.Print(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"the new run is incomplete: INTERRUPTED at 2026-01-02 03:04:05 UTC (SIGINT)",
		"3 rules it did not judge are not compared (a rule that did not run is no regression): V3-STOPPED, V3-NEVER, V3-CERT",
		"diff: 1 newly failing, 0 fixed, 0 newly covered, 0 changed, 3 not judged (the new run was interrupted: incomplete)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("print lacks %q:\n%s", want, b.String())
		}
	}
	cur.Rules[4] = rr("V3-BREAKS", results.VerdictInterrupted)
	if Compare(old, cur).Regressed() {
		t.Error("an interrupted run with no failure regressed")
	}
	// The other way round, the rules the old run did not judge are newly
	// covered when the new one judges them.
	back := Compare(cur, old)
	if back.Regressed() || len(back.NewlyCovered) != 4 || back.OldInterrupted == nil {
		t.Errorf("old run interrupted: %+v", back)
	}
}
