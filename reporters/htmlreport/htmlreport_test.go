package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conform-harness/conform/reporters/results"
)

func TestDocLink(t *testing.T) {
	cases := []struct {
		base, doc, section, want string
	}{
		{"", "api-v3.md", "v3 Authentication: HS256 (HMAC signature)", "api-v3.md#hs256-hmac-signature"},
		{"", "api-v3.md", "v3 Endpoints: Spot trading, Create order parameters", "api-v3.md#spot-trading"},
		{"", "api-v3.md", "v3 Conventions", "api-v3.md#conventions"},
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
		"HS256 &lt;redacted&gt;", "observed: HTTP 200", `href="api-v3.md#spot-trading"`, `id="area-spot"`, `id="area-auth"`} {
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
