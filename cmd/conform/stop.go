package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/conform-harness/conform/progress"
	"github.com/conform-harness/conform/reporters/ginkgojson"
	"github.com/conform-harness/conform/reporters/results"
)

// A run has two bounds of its own: a time limit for the whole run, a
// safety bound far above what a healthy remote target needs, and a stall
// limit, which stops a run in which no spec has ended for that long (the
// longest spec waits two minutes), naming the specs it is stuck in.
const (
	defaultTimeout = 60 * time.Minute
	defaultStall   = 5 * time.Minute
	// progressEvery is how often conform prints where a run stands.
	progressEvery = 10 * time.Second
	// pollEvery is how often it reads the progress file.
	pollEvery = time.Second
)

// nodeGrace is how long Ginkgo waits for a node in flight to return after
// an interrupt (its --grace-period; its default is killGrace itself), so
// that a spec stuck past its context still leaves Ginkgo the time to write
// its reports before conform kills the run.
const nodeGrace = killGrace / 3

// noLimit stands for "no time limit" on Ginkgo's command line, whose own
// default (one hour) would otherwise apply.
const noLimit = 100 * 365 * 24 * time.Hour

// ginkgoTimeout is Ginkgo's --timeout for a run whose time limit conform
// enforces: conform interrupts the run at the limit, so that the specs in
// flight end interrupted rather than failed by Ginkgo's suite timeout,
// which stays as a backstop after conform's grace period.
func ginkgoTimeout(limit time.Duration) time.Duration {
	if limit <= 0 {
		return noLimit
	}
	return limit + 2*killGrace
}

// limitReached is the cause of a run stopped by its time limit.
type limitReached struct{ limit time.Duration }

func (e limitReached) Error() string {
	return fmt.Sprintf("the run's time limit of %s (--timeout) was reached", e.limit)
}

// stalled is the cause of a run stopped because no spec ended for a while.
type stalled struct {
	quiet    time.Duration
	inFlight string
}

func (e stalled) Error() string {
	return fmt.Sprintf("no spec ended for %s (--stall-timeout); %s", e.quiet.Round(time.Second), e.inFlight)
}

// runSuite runs the Ginkgo child of conform run within the run's bounds:
// it hands the suite a progress file, prints where the run stands every
// progressEvery on the child's stderr, and stops the run at its time limit
// or when it stalls.
func runSuite(ctx context.Context, c child, limit, stall time.Duration) (childExit, error) {
	f, err := os.CreateTemp("", "conform-progress-*.jsonl")
	if err != nil {
		return childExit{}, fmt.Errorf("progress file: %w", err)
	}
	path := f.Name()
	_ = f.Close()
	defer os.Remove(path)
	c.args = append(c.args, "-conform.progress="+path) // a suite flag: after the --

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if limit > 0 {
		t := time.AfterFunc(limit, func() { cancel(limitReached{limit}) })
		defer t.Stop()
	}
	w := &watcher{tail: progress.NewTail(path), tracker: progress.NewTracker(), out: c.stderr,
		stall: stall, start: time.Now(), stop: cancel}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		w.loop(done)
	}()
	x, err := c.stoppable(ctx)
	close(done)
	<-stopped // no progress line after the run's own output
	return x, err
}

// watcher follows a run's progress file.
type watcher struct {
	tail    *progress.Tail
	tracker *progress.Tracker
	out     io.Writer
	// stall is the stall limit (0: none); start is when the run began.
	stall time.Duration
	start time.Time
	// stop ends the run with its cause.
	stop      context.CancelCauseFunc
	printed   time.Time
	stalledAt time.Time
}

func (w *watcher) loop(done <-chan struct{}) {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			w.step(now)
		}
	}
}

// step reads what the suite appended, prints a progress line when one is
// due, and stops a stalled run (once).
func (w *watcher) step(now time.Time) {
	evs, err := w.tail.Read()
	if err != nil {
		return // the next step tries again; progress never fails a run
	}
	for _, e := range evs {
		w.tracker.Add(e)
	}
	if now.Sub(cmpTime(w.printed, w.start)) >= progressEvery {
		w.printed = now
		// On a line of its own: Ginkgo's dots do not end theirs.
		fmt.Fprintf(w.out, "\nconform: %s\n", w.tracker.Line(now))
	}
	if quiet := w.tracker.Quiet(now, w.start); w.stall > 0 && quiet >= w.stall && w.stalledAt.IsZero() {
		w.stalledAt = now
		cause := stalled{quiet: quiet, inFlight: w.tracker.InFlightText(now)}
		fmt.Fprintf(w.out, "\nconform: stopping the run: %v\n", cause)
		w.stop(cause)
	}
}

func cmpTime(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}

// interruption is what the reports say of a run conform stopped: when and
// why; nil when conform did not stop it.
func interruption(x childExit) *results.Interruption {
	if !x.stopped() {
		return nil
	}
	i := &results.Interruption{At: x.stopAt}
	var limit limitReached
	var stall stalled
	switch {
	case x.signal == syscall.SIGTERM:
		i.Cause, i.Reason = results.CauseSIGTERM, "conform received SIGTERM"
	case x.signal != nil:
		i.Cause, i.Reason = results.CauseSIGINT, "conform received SIGINT"
	case errors.As(x.cause, &limit):
		i.Cause, i.Reason = results.CauseTimeLimit, limit.Error()
	case errors.As(x.cause, &stall):
		i.Cause, i.Reason = results.CauseStalled, stall.Error()
	default:
		i.Cause, i.Reason = "stopped", fmt.Sprint(x.cause)
	}
	return i
}

// stopCode is the exit status of an interrupted run: that of a process
// killed by the signal (128 + its number) for SIGINT and SIGTERM, as for
// conform load, and exitStopped for the run's own bounds.
func stopCode(i *results.Interruption) int {
	switch i.Cause {
	case results.CauseSIGTERM:
		return exitTerminated
	case results.CauseSIGINT, ginkgojson.InterruptedByUser, ginkgojson.InterruptedByOtherProcess:
		return exitInterrupted
	}
	return exitStopped
}

// stopError is the outcome of an interrupted run: incomplete, whatever it
// found before it was stopped.
func stopError(i *results.Interruption, outDir string) error {
	return &cliError{code: stopCode(i), err: fmt.Errorf("the run was interrupted (%s): it is incomplete; its reports in %s say what ran", cmp.Or(i.Reason, i.Cause), outDir)}
}
