package results

import (
	"cmp"
	"slices"

	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/rules"
)

// NotSelected is the skip reason of a spec that the run's --label-filter or
// --focus left out (Ginkgo gives it no message).
const NotSelected = "not selected by the run's --label-filter/--focus"

// SkipReasonOf is the one-line reason a skipped or pending spec gives.
func SkipReasonOf(s Spec) string {
	switch {
	case s.Outcome == Pending:
		return "pending spec"
	case s.SkipReason == "":
		return NotSelected
	}
	return ginkgojson.FirstLine(s.SkipReason)
}

// AreaSummary counts the rules of one area by verdict and the area's specs
// by outcome.
type AreaSummary struct {
	Name string `json:"name"`
	// Title and Document come from the area list (rules.Areas); empty for an
	// area the list lacks.
	Title    string `json:"title,omitempty"`
	Document string `json:"document,omitempty"`
	// Rules counts the area's rules by verdict.
	Rules map[Verdict]int `json:"rules"`
	// Specs counts the specs naming a rule of the area by outcome (a spec
	// naming rules of two areas counts in both).
	Specs map[Outcome]int `json:"specs"`
	// Total is the number of catalogued rules of the area.
	Total int `json:"total"`
}

// Covered is the number of the area's rules with a verdict of passed or
// failed: what the run actually checked.
func (a AreaSummary) Covered() int { return a.Rules[VerdictPassed] + a.Rules[VerdictFailed] }

// Areas groups the run by the rules' areas, in the order of rules.Areas,
// then any area the list lacks in order of first appearance. The groups are
// derived from the rules of the run, never from a fixed list, so new areas
// appear as soon as the catalogue has rules in them.
func (r *Results) Areas() []AreaSummary {
	idx := map[string]int{}
	var out []AreaSummary
	group := func(name string) *AreaSummary {
		i, ok := idx[name]
		if !ok {
			a := AreaSummary{Name: name, Rules: map[Verdict]int{}, Specs: map[Outcome]int{}}
			if known, ok := rules.LookupArea(name); ok {
				a.Title, a.Document = known.Title, known.Document
			}
			i, idx[name] = len(out), len(out)
			out = append(out, a)
		}
		return &out[i]
	}
	areaOf := map[string]string{}
	for _, rr := range r.Rules {
		area := cmp.Or(rr.Area, "unknown")
		areaOf[rr.ID] = area
		a := group(area)
		a.Total++
		a.Rules[rr.Verdict]++
	}
	for _, s := range r.Specs {
		var seen []string
		for _, id := range s.Rules {
			area := cmp.Or(areaOf[id], "unknown")
			if !slices.Contains(seen, area) {
				seen = append(seen, area)
				group(area).Specs[s.Outcome]++
			}
		}
	}
	order := map[string]int{}
	for i, a := range rules.Areas() {
		order[a.Name] = i
	}
	slices.SortStableFunc(out, func(a, b AreaSummary) int {
		oa, aok := order[a.Name]
		ob, bok := order[b.Name]
		switch {
		case aok && bok:
			return cmp.Compare(oa, ob)
		case aok:
			return -1
		case bok:
			return 1
		}
		return 0
	})
	return out
}

// ReasonCount is one skip reason with the number of specs that gave it.
type ReasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// SkipReasons counts the skipped and pending specs by reason, most frequent
// first (ties in order of first appearance).
func (r *Results) SkipReasons() []ReasonCount {
	idx := map[string]int{}
	var out []ReasonCount
	for _, s := range r.Specs {
		if s.Outcome != Skipped && s.Outcome != Pending {
			continue
		}
		reason := SkipReasonOf(s)
		i, ok := idx[reason]
		if !ok {
			i, idx[reason] = len(out), len(out)
			out = append(out, ReasonCount{Reason: reason})
		}
		out[i].Count++
	}
	slices.SortStableFunc(out, func(a, b ReasonCount) int { return cmp.Compare(b.Count, a.Count) })
	return out
}
