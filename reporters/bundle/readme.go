package bundle

import (
	"fmt"
	"strings"
)

// readme is the bundle's README.md: what was certified, by what, what each
// file holds and how to run it again.
func readme(m Manifest) string {
	var b strings.Builder
	t := m.Target
	where := t.REST
	if t.Embedded {
		where = "the embedded emulator (started by the suite on 127.0.0.1, a free port)"
	}
	fmt.Fprintf(&b, "# Conformance certification bundle\n\n")
	fmt.Fprintf(&b, "Verdict: **%s**, %s, against %s.\n\n", m.Verdict, m.Created.UTC().Format("2006-01-02 15:04:05 UTC"), where)
	fmt.Fprintf(&b, "- tool: %s %s (revision %s%s, %s)\n", m.Tool.Module, m.Tool.Version, orUnknown(m.Tool.Revision), modified(m.Tool.Modified), m.Tool.GoVersion)
	fmt.Fprintf(&b, "- rule catalogue: version %s, %d rules, sha256 %s\n", m.Catalogue.Version, m.Catalogue.Rules, m.Catalogue.SHA256)
	fmt.Fprintf(&b, "- API versions: %s\n", strings.Join(t.APIVersions, ", "))
	fmt.Fprintf(&b, "- declared sandbox: %v\n", t.Sandbox)
	if t.WS != "" {
		fmt.Fprintf(&b, "- WebSocket base: %s\n", t.WS)
	}
	for _, r := range t.Roles {
		fmt.Fprintf(&b, "- role %s: rights %s\n", r.Name, orNone(strings.Join(r.Rights, ", ")))
	}
	b.WriteString(`
A certification run runs every spec that applies to the target (slow ones
too) and counts a testable rule that could not run (every spec skipped or
inconclusive, or no spec ran) as a failure with its reason.

## Files

| file | what it holds |
|---|---|
| report.html | the report to read: every rule by area and section with its outcome and why, coverage, failed rules' redacted exchanges, a filter box (one file, no network) |
| report.png | what report.html looked like in headless Chromium at 1280 px (when Chromium was available) |
| results.json | every spec and every rule with its outcome, reasons, observations and failures, the summary |
| junit.xml | one testcase per rule for CI (area as classname) |
| ginkgo.json | Ginkgo's own report, the source of the above |
| run.log | the console output of the run |
| target.json | the target: URLs, API versions, declared sandbox, each role's rights (no keys, no secrets) |
| bundle.json | this manifest: tool and catalogue versions, target, command, every file with its sha256 |

## Reproduce

With the same conform revision (see above) built (` + "`make build`" + `), the same
keys in the environment (CONFORM_KEY_<ROLE>) or the same config file:

` + "```sh\n" + m.Command + "\n```\n" + `
Compare the new run with this one (exit 1 when a rule newly fails):

` + "```sh\nbin/conform report diff <this bundle> <new out dir>\n```\n")
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func modified(m bool) string {
	if m {
		return ", with uncommitted changes"
	}
	return ""
}
