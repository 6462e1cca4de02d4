package scenarios

import (
	"fmt"
	"sort"
	"strings"
)

// Verdict is what the results say about one rule: problems for a testable
// rule (none: it holds), an observation for an ambiguous one, or why the
// rule could not be checked.
type Verdict struct {
	Rule     string
	Skipped  string
	Problems []string
	Observed string
	// Inconclusive says why outcomes of the rule could not tell (the
	// harness's own timing), when they show no problem either.
	Inconclusive []string
}

// Judge returns the verdict on rule from the results.
func (r *Results) Judge(rule string) Verdict {
	v := Verdict{Rule: rule}
	switch rule {
	case ruleWindow:
		n := 0
		for _, rr := range r.sortedRows() {
			for _, o := range rr.Full {
				v.Problems = append(v.Problems, o.SlideProblems()...)
				v.Inconclusive = append(v.Inconclusive, o.Inconclusive()...)
				n++
			}
		}
		if n == 0 {
			v.Inconclusive = r.rowsUndecided(nil)
			if len(v.Inconclusive) == 0 {
				v.Skipped = "no row ran"
			}
		}
	case rule429:
		refusals, bursts := 0, r.bursts(REST)
		for _, b := range bursts {
			refusals += b.Refused
			v.Problems = append(v.Problems, b.BadRefusals...)
		}
		rest := REST
		switch {
		case len(bursts) == 0 && len(r.rowsUndecided(&rest)) > 0:
			v.Inconclusive = r.rowsUndecided(&rest)
		case refusals == 0:
			v.Problems = append(v.Problems, "no request was refused at all, so there is no 429 to check (see the rows' own specs)")
		}
		v.Problems = limit(dedupe(v.Problems), 10)
	case rule429Code:
		v.Observed = r.refusals(REST)
	case ruleMsgRefusal:
		v.Observed = r.refusals(Stream)
	case rulePerIP:
		v.Skipped = r.IdentitySkipped
		v.Problems = identityProblems(r.Identity)
		for _, o := range r.Identity {
			v.Inconclusive = append(v.Inconclusive, o.Inconclusive()...)
		}
		if r.IdentityInconclusive != "" {
			v.Inconclusive = append(v.Inconclusive, r.IdentityInconclusive)
		}
		if r.OneAddress && len(r.Identity) == 2 && v.Skipped == "" && len(v.Problems) == 0 && len(v.Inconclusive) == 0 {
			v.Inconclusive = []string{"from one source address: requests with no key and with keys of different accounts shared one budget " +
				"(" + r.Identity[0].Exact.String() + "; anonymous only: " + r.Identity[1].Exact.String() + "), " +
				"but whether each address has a budget of its own needs a second address"}
		}
	case rulePerAccount:
		// The per-account rows offer one account's requests with two keys
		// over several addresses: exactly the row's budget accepted in all
		// is the account counted as one, whatever the key or address.
		ran := 0
		for _, rr := range r.sortedRows() {
			if rr.Row.Scope != PerAccount || rr.Skipped != "" {
				continue
			}
			if rr.Inconclusive != "" {
				v.Inconclusive = append(v.Inconclusive, rr.Row.Rule+": "+rr.Inconclusive)
				continue
			}
			ran++
			for _, o := range rr.Outcomes() {
				v.Problems = append(v.Problems, o.ExactProblems()...)
				v.Inconclusive = append(v.Inconclusive, o.Inconclusive()...)
			}
		}
		switch {
		case ran == 0 && len(v.Inconclusive) == 0:
			v.Skipped = "no per-account row ran (the target serves none of their paths)"
		case r.OneAddress && ran > 0 && len(v.Problems) == 0:
			v.Inconclusive = append(v.Inconclusive, fmt.Sprintf("from one source address: %d per-account rows counted two keys of one account as one, "+
				"but whether the count holds whatever the IP address needs a second address", ran))
		}
	case ruleConn:
		for _, c := range r.Caps {
			v.Problems = append(v.Problems, c.Problems()...)
		}
		if r.OneAddress && len(r.Caps) > 0 && len(v.Problems) == 0 {
			v.Inconclusive = []string{fmt.Sprintf("from one source address: %d connections to each stream were accepted, connection %d refused and a closed one's slot freed, "+
				"but whether another address is still accepted (a cap per address, not for everyone) needs a second address", ConnCap, ConnCap+1)}
		}
	case ruleConnHow:
		var hows []string
		for _, c := range r.Caps {
			hows = append(hows, fmt.Sprintf("%s: connection %d %s", c.Stream, ConnCap+1, c.Extra))
		}
		v.Observed = strings.Join(hows, "; ")
	case ruleConnScope:
		if s := r.Scope; s != nil {
			v.Observed = fmt.Sprintf("with %d connections open to /ws/public from one address, a connection to /ws/trading from it was %s", s.Opened, s.How)
		}
	case ruleRowShared:
		if s := r.Shared; s != nil {
			v.Observed = fmt.Sprintf("after %s: %s", s.Spent.Exact, s.Then)
			// The observation needs the first path's budget spent, whatever
			// its size (that is V3-LIMIT-IP-MARGIN's business).
			switch e := s.Spent.Exact; {
			case s.Spent.Err != nil:
				v.Problems = []string{fmt.Sprintf("%s: %v", s.Spent.Who, s.Spent.Err)}
			case len(e.Failed) == 0 && e.Refused+e.Closed == 0 && len(s.Spent.Inconclusive()) > 0:
				// The harness offered too slowly for one window (a slow
				// link, a proxy adding latency): no reading, not a failure.
				v.Inconclusive = s.Spent.Inconclusive()
			case len(e.Failed) > 0 || e.Refused+e.Closed == 0:
				v.Problems = []string{fmt.Sprintf("%s: %s; the budget was not spent", s.Spent.Who, e)}
			}
		}
	default:
		if rd, ok := readingOf(rule); ok {
			r.judgeReading(&v, rd)
			break
		}
		rr, ok := r.Rows[rule]
		if !ok {
			v.Skipped = "not run"
			break
		}
		v.Skipped = rr.Skipped
		if rr.Inconclusive != "" {
			v.Inconclusive = append(v.Inconclusive, rr.Inconclusive)
		}
		for _, o := range rr.Outcomes() {
			v.Problems = append(v.Problems, o.ExactProblems()...)
			v.Inconclusive = append(v.Inconclusive, o.Inconclusive()...)
		}
	}
	return v
}

func (r *Results) sortedRows() []*RowResult {
	var out []*RowResult
	for _, rr := range r.Rows {
		out = append(out, rr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Row.Rule < out[j].Row.Rule })
	return out
}

// rowsUndecided lists why rows (of kind k; nil: any) were not offered
// where they could not be judged.
func (r *Results) rowsUndecided(k *Kind) []string {
	var out []string
	for _, rr := range r.sortedRows() {
		if rr.Inconclusive != "" && (k == nil || rr.Row.Kind == *k) {
			out = append(out, rr.Row.Rule+": "+rr.Inconclusive)
		}
	}
	return dedupe(out)
}

func (r *Results) bursts(k Kind) []*Burst {
	var out []*Burst
	for _, rr := range r.sortedRows() {
		if rr.Row.Kind != k {
			continue
		}
		for _, o := range rr.Outcomes() {
			out = append(out, o.Bursts()...)
		}
	}
	return out
}

// refusals summarises what the refusals of every row of a kind looked like.
func (r *Results) refusals(k Kind) string {
	all := map[string]int{}
	for _, b := range r.bursts(k) {
		for d, n := range b.Refusals {
			all[d] += n
		}
	}
	if len(all) == 0 {
		return "no refusal seen"
	}
	return "refusals seen:" + refusalSummary(all)
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func limit(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:n], fmt.Sprintf("... and %d more", len(xs)-n))
}
