package scenarios

import (
	"fmt"
	"strings"
	"time"
)

// Summary lists every outcome, for the report of a failed run.
func (r *Results) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "all scenarios in %s\n", r.Elapsed.Round(time.Millisecond))
	if r.OneAddress {
		fmt.Fprintf(&b, "from one source address; %s\n", r.Path)
		for _, l := range r.Lanes {
			fmt.Fprintf(&b, "lane %s\n", l)
		}
	}
	for _, rr := range r.sortedRows() {
		if rr.Skipped != "" {
			fmt.Fprintf(&b, "%s: skipped: %s\n", rr.Row.Rule, rr.Skipped)
			continue
		}
		if rr.Inconclusive != "" {
			fmt.Fprintf(&b, "%s: not offered: %s\n", rr.Row.Rule, rr.Inconclusive)
			continue
		}
		for _, o := range rr.Outcomes() {
			fmt.Fprintf(&b, "%s %s (attempt %d):\n", rr.Row.Rule, o.Who, o.Attempts)
			for _, t := range o.Retried {
				fmt.Fprintf(&b, "    an earlier attempt: %s\n", t)
			}
			for _, t := range o.Timing {
				fmt.Fprintf(&b, "    inconclusive: %s\n", t)
			}
			for _, x := range o.Bursts() {
				fmt.Fprintf(&b, "    %s\n", x)
			}
		}
	}
	for _, o := range r.Identity {
		fmt.Fprintf(&b, "%s %s: %s\n", rulePerIP, o.Who, o.Exact)
	}
	for _, rd := range Readings() {
		if o, ok := r.Readings[rd.Rule]; ok {
			fmt.Fprintf(&b, "%s %s (attempt %d): %s\n", rd.Rule, o.Who, o.Attempts, o.Exact)
		}
	}
	for _, c := range r.Caps {
		fmt.Fprintf(&b, "%s %s from %s: %d opened, one more %s, another address %s\n", ruleConn, c.Stream, c.From, c.Opened, c.Extra, c.Other)
	}
	return b.String()
}
