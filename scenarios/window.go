package scenarios

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Window is the documented window of every limit.
const Window = time.Second

// Burst is what one offer of several requests (or messages), sent at once,
// got back.
type Burst struct {
	Offered int
	// Accepted answers look like the first answer a fresh budget gets
	// (same HTTP status; for streams, a result or the same error code).
	Accepted int
	// Refused answers look different: the limit's refusal, whatever its
	// form (V3-LIMIT-429 checks the form). Closed counts messages left
	// unanswered because the server closed the connection.
	Refused int
	Closed  int
	// Failed are requests that got no answer at all (transport errors,
	// time-outs), which make a scenario inconclusive.
	Failed []string
	// Start is when the first request left, End when the last answer came.
	Start, End time.Time
	// Refusals are what the refusals looked like ("HTTP 429 {...}"), with
	// how many of each.
	Refusals map[string]int
	// BadRefusals lists refusals that are not HTTP 429 with the documented
	// error body (REST only).
	BadRefusals []string
}

// Span is how long the burst took.
func (b Burst) Span() time.Duration { return b.End.Sub(b.Start) }

func (b Burst) String() string {
	return fmt.Sprintf("%d offered: %d accepted, %d refused%s in %s", b.Offered, b.Accepted, b.Refused+b.Closed,
		refusalSummary(b.Refusals), b.Span().Round(time.Millisecond))
}

func refusalSummary(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%d× %s", n, k))
	}
	sort.Strings(parts)
	return " (" + strings.Join(parts, "; ") + ")"
}

// merge adds o to b (for offers spread over several senders).
func (b *Burst) merge(o Burst) {
	if b.Offered == 0 || o.Start.Before(b.Start) {
		b.Start = o.Start
	}
	if o.End.After(b.End) {
		b.End = o.End
	}
	b.Offered += o.Offered
	b.Accepted += o.Accepted
	b.Refused += o.Refused
	b.Closed += o.Closed
	b.Failed = append(b.Failed, o.Failed...)
	b.BadRefusals = append(b.BadRefusals, o.BadRefusals...)
	for k, n := range o.Refusals {
		if b.Refusals == nil {
			b.Refusals = map[string]int{}
		}
		b.Refusals[k] += n
	}
}

// Sender offers n requests (or messages) at once, as fast as it can.
type Sender interface {
	Send(ctx context.Context, n int) (Burst, error)
}

// Plan is the sequence of offers that checks one budget.
type Plan struct {
	Budget, Extra int
	// Slide adds the slide: after the window, a quarter of the budget
	// (the first part); Gap later, the rest of it and Extra more; one
	// window after the first part, the first part again and Extra more. A
	// sliding window accepts exactly the first part then (the rest still
	// counts); a fixed one accepts a whole budget.
	Slide bool
	// Gap is the time between the first part and the rest (default
	// 300 ms). The rest must be answered before the first part is a
	// window old, and the last offer before the rest is: so the first
	// part is small (a quarter) and the last offer has Gap to complete in.
	Gap time.Duration
	// Attempts bounds the reruns when the harness misses its own timing
	// (a burst too slow for the window); default 3.
	Attempts int
	// Path, when set, is what the harness measured of the path (see
	// PathStats), added to every timing miss so that an inconclusive
	// verdict carries its numbers.
	Path string
}

// Outcome is how a budget fared.
type Outcome struct {
	Who           string
	Budget, Extra int
	// Exact is Budget+Extra offered at once.
	Exact Burst
	// After the window: Half (the first part of the budget), Rest (the
	// rest and Extra, Gap later) and Slid (the first part and Extra, one
	// window after Half). Nil without Slide.
	Half, Rest, Slid *Burst
	Attempts         int
	// Timing lists the harness's own timing misses of the last attempt;
	// when not empty the outcome is inconclusive. Retried keeps those of
	// the earlier attempts, which were run again.
	Timing, Retried []string
	// Err is a harness failure (a source address that cannot be bound,
	// a target that does not answer).
	Err error
}

// half is the first part of a budget in the slide: a quarter.
func (o Outcome) half() int { return max(1, o.Budget/4) }

// margin keeps the harness's notion of "one window later" safely past the
// target's, whose timestamps lie between our send and receive times.
const margin = 5 * time.Millisecond

func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Check checks one budget with s. Every wait is to a deadline computed from
// the previous answers (one window after the last one that must have aged
// out), never a fixed sleep.
func Check(ctx context.Context, who string, s Sender, p Plan) Outcome {
	if p.Gap <= 0 {
		p.Gap = 300 * time.Millisecond
	}
	if p.Attempts <= 0 {
		p.Attempts = 3
	}
	var o Outcome
	var last time.Time
	var retried []string
	for attempt := 1; attempt <= p.Attempts; attempt++ {
		if !last.IsZero() {
			// A retry waits out the window and then gives the machine a
			// little more time to settle at each attempt, since what made
			// the harness slow (a loaded machine) tends to pass.
			settle := time.Duration(attempt-1) * 250 * time.Millisecond
			if err := sleepUntil(ctx, last.Add(Window+margin+settle)); err != nil {
				o.Err = err
				return o
			}
		}
		retried = append(retried, o.Timing...)
		o = Outcome{Who: who, Budget: p.Budget, Extra: p.Extra, Attempts: attempt, Retried: retried}
		o.run(ctx, s, p)
		if o.Err != nil || len(o.Timing) == 0 {
			return o
		}
		last = o.Exact.End
		for _, b := range []*Burst{o.Half, o.Rest, o.Slid} {
			if b != nil && b.End.After(last) {
				last = b.End
			}
		}
	}
	return o
}

func (o *Outcome) run(ctx context.Context, s Sender, p Plan) {
	send := func(n int) *Burst {
		if o.Err != nil {
			return nil
		}
		b, err := s.Send(ctx, n)
		if err != nil {
			o.Err = err
			return nil
		}
		return &b
	}
	exact := send(p.Budget + p.Extra)
	if exact == nil {
		return
	}
	o.Exact = *exact
	// The target saw each request between its sending and its answer, so
	// the arrivals spread over at most the offer's span: under a window,
	// they all count in one.
	if exact.Span() >= Window-margin {
		o.Timing = append(o.Timing, fmt.Sprintf("the offer of %d took %s from the first request sent to the last answer, so its arrivals may spread over more than the window%s",
			exact.Offered, exact.Span().Round(time.Millisecond), pathNote(p.Path)))
	}
	if !p.Slide {
		return
	}
	if o.Err = sleepUntil(ctx, exact.End.Add(Window+margin)); o.Err != nil {
		return
	}
	h := o.half()
	if o.Half = send(h); o.Half == nil {
		return
	}
	if o.Err = sleepUntil(ctx, o.Half.End.Add(p.Gap)); o.Err != nil {
		return
	}
	if o.Rest = send(p.Budget - h + p.Extra); o.Rest == nil {
		return
	}
	if o.Rest.End.Sub(o.Half.Start) >= Window-margin {
		o.Timing = append(o.Timing, fmt.Sprintf("the rest ended %s after the first part began, not inside one window%s",
			o.Rest.End.Sub(o.Half.Start).Round(time.Millisecond), pathNote(p.Path)))
	}
	if o.Err = sleepUntil(ctx, o.Half.End.Add(Window+margin)); o.Err != nil {
		return
	}
	if o.Slid = send(h + p.Extra); o.Slid == nil {
		return
	}
	if o.Slid.End.Sub(o.Rest.Start) >= Window-margin {
		o.Timing = append(o.Timing, fmt.Sprintf("the last offer ended %s after the rest began, when it had aged out%s",
			o.Slid.End.Sub(o.Rest.Start).Round(time.Millisecond), pathNote(p.Path)))
	}
}

func pathNote(path string) string {
	if path == "" {
		return ""
	}
	return " (" + path + ")"
}

// expect appends a problem unless burst b accepted exactly want of its
// offer and refused the rest, with no failures.
func expect(problems []string, who, phase string, b *Burst, want int) []string {
	if b == nil {
		return append(problems, fmt.Sprintf("%s: %s: not run", who, phase))
	}
	switch {
	case len(b.Failed) > 0:
		return append(problems, fmt.Sprintf("%s: %s: %d requests failed (e.g. %s)", who, phase, len(b.Failed), b.Failed[0]))
	case b.Accepted != want || b.Refused+b.Closed != b.Offered-want:
		return append(problems, fmt.Sprintf("%s: %s: %s; want exactly %d accepted", who, phase, b, want))
	}
	return problems
}

// ExactProblems says how the outcome departs from its row's rule: exactly
// the budget accepted at once, the rest refused, and (with the slide) the
// whole budget back after the window: a first part of it, then the rest
// with the extra refused.
func (o Outcome) ExactProblems() []string {
	if o.Err != nil {
		return []string{fmt.Sprintf("%s: %v", o.Who, o.Err)}
	}
	if len(o.Timing) > 0 {
		return nil // inconclusive: see Inconclusive
	}
	var p []string
	p = expect(p, o.Who, "at once", &o.Exact, o.Budget)
	if o.Half != nil || o.Rest != nil {
		p = expect(p, o.Who, "after the window, a quarter of the budget", o.Half, o.half())
		p = expect(p, o.Who, "then the rest of it", o.Rest, o.Budget-o.half())
	}
	return p
}

// SlideProblems says how the outcome departs from a sliding window: one
// window after the first part, exactly the first part is free again.
func (o Outcome) SlideProblems() []string {
	if o.Err != nil {
		return []string{fmt.Sprintf("%s: %v", o.Who, o.Err)}
	}
	if len(o.Timing) > 0 {
		return nil // inconclusive: see Inconclusive
	}
	return expect(nil, o.Who, "one window after the first part (the rest still counting)", o.Slid, o.half())
}

// Inconclusive lists why the outcome cannot tell: the harness missed its
// own timing on the last of its attempts. Such an outcome has no problems.
func (o Outcome) Inconclusive() []string {
	if o.Err != nil {
		return nil
	}
	return o.timing()
}

func (o Outcome) timing() []string {
	var p []string
	for _, t := range o.Timing {
		p = append(p, fmt.Sprintf("%s: after %d attempts the harness was still too slow for the window: %s", o.Who, o.Attempts, t))
	}
	return p
}

// Bursts lists the offers of the outcome that ran.
func (o Outcome) Bursts() []*Burst {
	out := []*Burst{&o.Exact}
	for _, b := range []*Burst{o.Half, o.Rest, o.Slid} {
		if b != nil {
			out = append(out, b)
		}
	}
	return out
}
