package scenarios

import (
	"context"
	"fmt"
	"time"
)

// Reading is an ambiguous limit rule whose scenario records what a target
// accepts of one offer, sent at once, beyond a documented rate: the excess
// shows a burst the document does not name (V2-LIMIT-BURST), or whether a
// target counts requests the document does not show under a rate
// (V2-LIMIT-TRADING). Nothing is asserted but that the offer was timed.
type Reading struct {
	Rule   string
	Target Target
	// Rate is the documented rate; Offer how many requests leave at once.
	Rate, Offer int
	// Keyed readings send the account's key (a per-user rate); the others
	// are anonymous.
	Keyed bool
}

// Readings are the readings of the batch.
func Readings() []Reading {
	get := func(p string) Target { return Target{Method: "GET", Path: p} }
	return []Reading{
		{Rule: "V2-LIMIT-BURST", Target: get("/api/2/public/symbol/{symbol}"), Rate: 100, Offer: 150},
		{Rule: "V2-LIMIT-TRADING", Target: get("/api/2/order"), Rate: 300, Offer: 330, Keyed: true},
	}
}

// reading makes one reading's offer with s.
func reading(ctx context.Context, who string, r Reading, s Sender, p Plan) Outcome {
	p.Budget, p.Extra, p.Slide = r.Rate, r.Offer-r.Rate, false
	return Check(ctx, who, s, p)
}

// judgeReading is the verdict on a reading: what was accepted, or why it
// could not tell.
func (r *Results) judgeReading(v *Verdict, rd Reading) {
	o, ok := r.Readings[rd.Rule]
	switch {
	case !ok && r.Undecidable != "":
		v.Inconclusive = []string{r.Undecidable}
	case !ok:
		v.Skipped = "not run"
	case o.Err != nil:
		v.Problems = []string{fmt.Sprintf("%s: %v", o.Who, o.Err)}
	case len(o.Exact.Failed) > 0:
		v.Problems = []string{fmt.Sprintf("%s: %d requests failed (e.g. %s)", o.Who, len(o.Exact.Failed), o.Exact.Failed[0])}
	case len(o.Timing) > 0:
		v.Inconclusive = o.Inconclusive()
	default:
		v.Observed = fmt.Sprintf("%s: %d of %d sent at once accepted in %s (documented rate %d per second)",
			o.Who, o.Exact.Accepted, o.Exact.Offered, o.Exact.Span().Round(time.Millisecond), rd.Rate)
	}
}

// readingOf returns the reading of a rule.
func readingOf(rule string) (Reading, bool) {
	for _, rd := range Readings() {
		if rd.Rule == rule {
			return rd, true
		}
	}
	return Reading{}, false
}
