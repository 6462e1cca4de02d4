package htmlreport

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Documents are the API documents a report links into (api-v3.md,
// api-v2.md), read so that a rule links to the heading of its section as a
// Markdown renderer anchors it and, within it, to the sentence the rule
// was written from, which the report also quotes.
type Documents struct {
	docs map[string]*document
}

type document struct {
	headings []heading
	lines    []string
}

type heading struct {
	level      int
	text       string
	anchor     string
	start, end int // body lines [start, end)
}

var headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)

// LoadDocuments reads the named Markdown documents from dir; a document
// that is not there is left out (its rules then link to their heading by
// name only).
func LoadDocuments(dir string, names ...string) (*Documents, error) {
	d := &Documents{docs: map[string]*document{}}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("documents: %w", err)
		}
		d.docs[name] = parseDocument(string(b))
	}
	return d, nil
}

// Names lists the documents read.
func (d *Documents) Names() []string {
	var out []string
	for name := range d.docs {
		out = append(out, name)
	}
	return out
}

func parseDocument(text string) *document {
	doc := &document{lines: strings.Split(text, "\n")}
	seen := map[string]int{}
	for i, line := range doc.lines {
		m := headingLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := Anchor(m[2])
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n) // GitHub numbers repeated headings
		} else {
			seen[a] = 1
		}
		doc.headings = append(doc.headings, heading{level: len(m[1]), text: m[2], anchor: a, start: i + 1, end: len(doc.lines)})
	}
	for i := range doc.headings {
		for j := i + 1; j < len(doc.headings); j++ {
			if doc.headings[j].level <= doc.headings[i].level {
				doc.headings[i].end = doc.headings[j].start - 1
				break
			}
		}
	}
	return doc
}

// sectionParts turns "v3 Endpoints: Spot trading, Create order parameters"
// into the names to look for, innermost first: "Spot trading",
// "Endpoints".
func sectionParts(section string) []string {
	s := section
	if f := strings.Fields(s); len(f) > 1 && len(f[0]) <= 3 && strings.HasPrefix(f[0], "v") {
		s = strings.TrimSpace(strings.TrimPrefix(s, f[0]))
	}
	parts := strings.Split(s, ": ")
	var out []string
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		if j := strings.Index(p, ", "); j >= 0 {
			p = p[:j]
		}
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// find returns the heading of a section: the first heading equal to its
// innermost name, else the first that starts with it, else the same for
// the outer names.
func (doc *document) find(section string) *heading {
	for _, part := range sectionParts(section) {
		p := strings.ToLower(part)
		for i := range doc.headings {
			if strings.ToLower(doc.headings[i].text) == p {
				return &doc.headings[i]
			}
		}
		for i := range doc.headings {
			if strings.HasPrefix(strings.ToLower(doc.headings[i].text), p) {
				return &doc.headings[i]
			}
		}
	}
	return nil
}

var (
	markup   = strings.NewReplacer("`", "", "**", "", "*", "", "|", " ")
	listMark = regexp.MustCompile(`^\s*(\d+\.|[-*+])\s+`)
	wordRe   = regexp.MustCompile(`[a-z0-9_{}<>/.]+`)
	sentEnd  = regexp.MustCompile(`[.;]\s+`)
)

// sentences splits a section's body into sentences, as a reader sees them
// (Markdown marks removed).
func (doc *document) sentences(h *heading) []string {
	var out []string
	for _, line := range doc.lines[h.start:min(h.end, len(doc.lines))] {
		if row := strings.TrimSpace(line); strings.HasPrefix(row, "|") {
			// A table row is one statement: its cells joined.
			var cells []string
			for _, c := range strings.Split(strings.Trim(row, "|"), "|") {
				if c = strings.TrimSpace(markup.Replace(c)); c != "" && strings.Trim(c, "-: ") != "" {
					cells = append(cells, c)
				}
			}
			if len(cells) > 0 {
				out = append(out, strings.Join(cells, " · "))
			}
			continue
		}
		line = strings.TrimSpace(markup.Replace(listMark.ReplaceAllString(line, "")))
		if line == "" || headingLine.MatchString(line) || strings.Trim(line, "- :") == "" {
			continue
		}
		rest := line
		for {
			loc := sentEnd.FindStringIndex(rest)
			if loc == nil {
				break
			}
			out = append(out, strings.TrimSpace(rest[:loc[0]+1]))
			rest = rest[loc[1]:]
		}
		if rest = strings.TrimSpace(rest); rest != "" {
			out = append(out, rest)
		}
	}
	return out
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordRe.FindAllString(strings.ToLower(s), -1) {
		if w = strings.Trim(w, "."); len(w) >= 3 {
			out[w] = true
		}
	}
	return out
}

// minOverlap is the share of a statement's words a sentence must hold to
// be taken as the one the rule was written from.
const minOverlap = 0.35

// Locate finds a rule's place in its document: the anchor of its section's
// heading and the sentence sharing most words with its statement (empty
// when none shares enough).
func (d *Documents) Locate(document, section, statement string) (anchor, sentence string, ok bool) {
	if d == nil {
		return "", "", false
	}
	doc := d.docs[document]
	if doc == nil {
		return "", "", false
	}
	h := doc.find(section)
	if h == nil {
		return "", "", false
	}
	want := words(statement)
	best, bestScore := "", 0.0
	for _, s := range doc.sentences(h) {
		got := words(s)
		common := 0
		for w := range want {
			if got[w] {
				common++
			}
		}
		if len(want) == 0 {
			break
		}
		score := float64(common) / float64(len(want))
		if score > bestScore {
			best, bestScore = s, score
		}
	}
	if bestScore < minOverlap {
		best = ""
	}
	return h.anchor, best, true
}

// textFragment is a text directive (#anchor:~:text=…) that browsers use to
// scroll to and mark the sentence: its first words, up to a clause mark.
func textFragment(sentence string) string {
	if strings.Contains(sentence, " · ") {
		return "" // a table row: its cells are not one run of text
	}
	f := strings.Fields(sentence)
	var kept []string
	for _, w := range f {
		if len(kept) == 8 || strings.ContainsAny(w, "<>{}()[]") {
			break
		}
		kept = append(kept, w)
	}
	if len(kept) < 3 {
		return ""
	}
	// Per the text fragments syntax, - & , must be escaped too.
	return ":~:text=" + strings.NewReplacer("-", "%2D", "&", "%26", ",", "%2C").Replace(url.PathEscape(strings.Join(kept, " ")))
}
