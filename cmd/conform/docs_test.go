package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/rules"
)

// The documents (README.md, docs/*.md) state a count of the catalogue or of
// the emulator's faults only in one of these marked forms, which this test
// holds to the code, so a count cannot go stale. Any other count of rules,
// specs, faults, areas or mutations must sit in a paragraph that carries a
// date (a dated measurement, "measured on 2026-11-28: ...").
//
// The checked counts move with the catalogue: `make rules.yaml` (run after
// every catalogue change) rewrites them in place with -update-docs.
var updateDocs = flag.Bool("update-docs", false, "rewrite the checked counts of README.md and docs/*.md to the code's")

var docCounts = []struct {
	marker string // the words after the number
	want   func() int
}{
	{"catalogued rules", func() int { return len(rules.Default().All()) }},
	{"testable rules", func() int { return countStatus(rules.Testable) }},
	{"emulator faults", func() int { return len(faults.Catalogue()) }},
	{"areas", func() int { return len(rules.Areas()) }},
}

func countStatus(s rules.Status) int {
	n := 0
	for _, r := range rules.Default().All() {
		if r.Status == s {
			n++
		}
	}
	return n
}

var (
	// docCount finds a number followed by at most two words and a counted noun.
	docCount = regexp.MustCompile(`\b(\d[\d,]*)((?: [a-z0-9-]+){0,2}) (rules|specs|faults|areas|mutations)\b`)
	docDate  = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	// Code is quoted output or commands, not a claim of the prose.
	docFence  = regexp.MustCompile("(?s)```.*?```")
	docInline = regexp.MustCompile("`[^`\n]*`")
)

func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, files...)
}

func TestDocsCounts(t *testing.T) {
	markers := 0
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if *updateDocs {
			if b, err = rewriteCounts(path, b); err != nil {
				t.Fatal(err)
			}
		}
		text := docInline.ReplaceAllString(docFence.ReplaceAllString(string(b), ""), "")
		for _, para := range strings.Split(text, "\n\n") {
			dated := docDate.MatchString(para)
			for _, m := range docCount.FindAllStringSubmatch(para, -1) {
				n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
				if err != nil {
					t.Fatalf("%s: %q: %v", path, m[0], err)
				}
				words := strings.TrimSpace(m[2] + " " + m[3])
				checked := false
				for _, c := range docCounts {
					if words == c.marker {
						checked = true
						markers++
						if want := c.want(); n != want {
							t.Errorf("%s: %q, but the code has %d %s (make rules.yaml rewrites it)", path, m[0], want, c.marker)
						}
					}
				}
				if !checked && !dated {
					t.Errorf("%s: %q: a count that no test checks, in a paragraph without a date: "+
						"write it as one of the checked forms (%s) or as a dated measurement", path, m[0], docMarkers())
				}
			}
		}
	}
	if markers == 0 {
		t.Error("no checked count found in README.md or docs/: the marker forms changed?")
	}
}

// rewriteCounts sets each checked count of the file at path to the code's
// and writes the file back if that changed it.
func rewriteCounts(path string, b []byte) ([]byte, error) {
	text := string(b)
	for _, c := range docCounts {
		re := regexp.MustCompile(`\b\d[\d,]* ` + regexp.QuoteMeta(c.marker) + `\b`)
		text = re.ReplaceAllString(text, strconv.Itoa(c.want())+" "+c.marker)
	}
	if text == string(b) {
		return b, nil
	}
	return []byte(text), os.WriteFile(path, []byte(text), 0o644)
}

func docMarkers() string {
	var s []string
	for _, c := range docCounts {
		s = append(s, "N "+c.marker)
	}
	return strings.Join(s, ", ")
}

// TestDocsLinks checks that the README's first screen holds both commands and
// that every relative link of the documents names a file that exists.
func TestDocsLinks(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, cmd := range []string{"make conform", "make test"} {
		if !strings.Contains(first, cmd) {
			t.Errorf("README.md: %q is not in the first 40 lines", cmd)
		}
	}
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, path := range docFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := filepath.Join(filepath.Dir(path), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q: %v", path, m[0], err)
			}
		}
	}
}
