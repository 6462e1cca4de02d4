package htmlreport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/reporters/results"
)

func TestDocLink(t *testing.T) {
	cases := []struct {
		base, doc, section, want string
	}{
		{"", "api-v3.md", "v3 Authentication: HS256 (HMAC signature)", "./api-v3.md#hs256-hmac-signature"},
		{"", "api-v3.md", "v3 Endpoints: Spot trading, Create order parameters", "./api-v3.md#spot-trading"},
		{"", "api-v3.md", "v3 Conventions", "./api-v3.md#conventions"},
		{"https://docs.example.com/spec/", "api-v3.md", "v3 Resources: Order (time in force definitions)", "https://docs.example.com/spec/api-v3.md#order-time-in-force-definitions"},
		{"", "", "v3 Conventions", ""},
	}
	for _, c := range cases {
		if got := docLink(c.base, c.doc, c.section); got != c.want {
			t.Errorf("%q %q %q: %q, want %q", c.base, c.doc, c.section, got, c.want)
		}
	}
}

func TestWriteEscapesAndShowsEveryRule(t *testing.T) {
	res := &results.Results{
		Suite: "conform",
		Rules: []results.RuleResult{
			{ID: "V3-A", Area: "spot", Section: "v3 Endpoints: Spot trading", Statement: "<script>alert(1)</script>", Status: "testable", Verdict: results.VerdictFailed, Failures: []string{"expected 400"}},
			{ID: "V3-B", Area: "auth", Section: "v3 Authentication", Statement: "b", Status: "ambiguous", Reason: "silent", Verdict: results.VerdictInformational, Observations: []string{"HTTP 200"}},
		},
		Specs: []results.Spec{{Text: "t", Rules: []string{"V3-A"}, Outcome: results.Failed, Failure: &results.Failure{Message: "expected 400", Exchanges: "Authorization: HS256 <redacted>"}}},
	}
	var b bytes.Buffer
	if err := Write(&b, res, Options{Facts: [][2]string{{"target", "http://h"}}}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`id="V3-A" data-verdict="failed"`, `id="V3-B" data-verdict="informational"`, "&lt;script&gt;alert(1)&lt;/script&gt;",
		"HS256 &lt;redacted&gt;", "observed: HTTP 200", `href="./api-v3.md#spot-trading"`, `id="area-spot"`, `id="area-auth"`} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script>alert", "http://", "https://"} {
		if banned == "http://" {
			html = strings.ReplaceAll(html, "http://h", "") // the target fact itself
			html = strings.ReplaceAll(html, `xmlns="http://www.w3.org/2000/svg"`, "")
		}
		if strings.Contains(html, banned) {
			t.Errorf("report holds %q (it must be self-contained and escaped)", banned)
		}
	}
	if strings.Index(html, `id="area-auth"`) > strings.Index(html, `id="area-spot"`) {
		t.Error("areas not in the order of the area list (auth before spot)")
	}
}

const testDoc = "# API\n\n## Resources and their fields\n\n### Currency (value of the currency map)\n\n" +
	"Fields: `full_name`, `crypto`, `payin_enabled`.\n\n## Endpoints\n\n### Spot trading\n\n" +
	"1. A limit order needs a price.\n2. The `client_order_id` must be unique among active orders; a duplicate is refused.\n\n" +
	"### Spot trading\n\nA repeated heading.\n\n## Authentication\n\n### HS256 (HMAC signature)\n\n" +
	"Build the message as the concatenation of: HTTP method, URL path, then the body.\n"

func TestDocumentsLocateTheSentence(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "api-v3.md"), []byte(testDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := LoadDocuments(dir, "api-v3.md", "api-v2.md")
	if err != nil || len(docs.Names()) != 1 {
		t.Fatalf("%v %v", docs.Names(), err)
	}
	cases := []struct {
		section, statement, anchor, sentence string
		ok                                   bool
	}{
		{"v3 Endpoints: Spot trading, Create order parameters", "A client_order_id must be unique among the active orders: a duplicate is refused.",
			"spot-trading", "The client_order_id must be unique among active orders;", true},
		{"v3 Resources: Currency", "A Currency carries full_name, crypto and payin_enabled.", "currency-value-of-the-currency-map", "Fields: full_name, crypto, payin_enabled.", true},
		{"v3 Authentication: HS256 (HMAC signature)", "Something unrelated entirely here.", "hs256-hmac-signature", "", true},
		{"v3 Nowhere: Nothing", "x", "", "", false},
	}
	for _, c := range cases {
		anchor, sentence, ok := docs.Locate("api-v3.md", c.section, c.statement)
		if anchor != c.anchor || sentence != c.sentence || ok != c.ok {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.section, anchor, sentence, ok, c.anchor, c.sentence, c.ok)
		}
	}
	if _, _, ok := docs.Locate("api-v2.md", "v2 x", "y"); ok {
		t.Error("a document that is not there located something")
	}
	if got := textFragment("The client_order_id must be unique, among active orders; a duplicate is refused."); got != ":~:text=The%20client_order_id%20must%20be%20unique%2C%20among%20active%20orders%3B" {
		t.Errorf("fragment %q", got)
	}

	res := &results.Results{Rules: []results.RuleResult{{ID: "V3-X", Area: "spot", Section: "v3 Endpoints: Spot trading",
		Statement: "A client_order_id must be unique among the active orders: a duplicate is refused.", Status: "testable", Verdict: results.VerdictPassed}}}
	var b bytes.Buffer
	if err := Write(&b, res, Options{Docs: docs}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="./api-v3.md#spot-trading:~:text=The%20client_order_id`, "api-v3.md: “The client_order_id must be unique among active orders;”"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q in\n%s", want, b.String()[strings.Index(b.String(), `<tr class="rule"`):])
		}
	}
}

// An interrupted run's report says INTERRUPTED, when and why, before any
// verdict, and counts what was stopped and never started.
func TestInterruptedRunSaysSo(t *testing.T) {
	res := &results.Results{
		Suite:       "conform",
		Interrupted: &results.Interruption{Status: results.StatusInterrupted, Cause: results.CauseTimeLimit, At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Reason: "the time limit of 1m0s was reached"},
		Summary:     results.Summary{Interrupted: 2, NotRun: 7, RulesInterrupted: 3},
		Rules: []results.RuleResult{
			{ID: "V3-A", Area: "spot", Section: "v3 Endpoints: Spot trading", Statement: "a", Status: "testable", Verdict: results.VerdictInterrupted},
			{ID: "V3-B", Area: "spot", Section: "v3 Endpoints: Spot trading", Statement: "b", Status: "testable", Verdict: results.VerdictFailed, Failures: []string{"expected 400"}},
		},
		Specs: []results.Spec{{Text: "t", Rules: []string{"V3-A"}, Outcome: results.Interrupted}, {Text: "u", Rules: []string{"V3-A"}, Outcome: results.NotRun}},
	}
	var b bytes.Buffer
	if err := Write(&b, res, Options{}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`id="verdict">INTERRUPTED<`, "<b>INTERRUPTED</b> at 2026-01-02 03:04:05 UTC (time limit): the time limit of 1m0s was reached",
		"specs stopped in flight 2, never started 7; neither is a failure, and the rules they name (3)", `data-verdict="interrupted">interrupted: <b class="n">1</b>`,
		`data-outcome="not-run">not-run: <b class="n">1</b>`, `id="V3-A" data-verdict="interrupted"`} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	b.Reset()
	res.Interrupted = nil
	if err := Write(&b, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `id="verdict">INTERRUPTED`) || strings.Contains(b.String(), `id="interrupted"`) || strings.Contains(b.String(), `data-outcome="not-run"`) {
		t.Error("a complete run's report speaks of an interruption")
	}
}
