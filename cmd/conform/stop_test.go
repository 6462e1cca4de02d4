package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conform-harness/conform/progress"
	"github.com/conform-harness/conform/reporters/results"
)

// The watcher prints one progress line per progressEvery, however many
// specs end, and stops a run in which no spec ended for the stall limit,
// once, naming what was in flight.
func TestWatcherProgressAndStall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.jsonl")
	pw, err := progress.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	var out bytes.Buffer
	var causes []error
	w := &watcher{tail: progress.NewTail(path), tracker: progress.NewTracker(), out: &out, stall: time.Minute, start: start,
		stop: func(err error) { causes = append(causes, err) }}
	write := func(e progress.Event) {
		if err := pw.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	write(progress.Event{Kind: progress.KindTotal, Total: 40, At: at(0)})
	for s := 1; s <= 20; s++ {
		write(progress.Event{Kind: progress.KindStart, Proc: 1, Spec: "quick", At: at(s)})
		write(progress.Event{Kind: progress.KindEnd, Proc: 1, Spec: "quick", State: "passed", At: at(s)})
		w.step(at(s))
	}
	write(progress.Event{Kind: progress.KindStart, Proc: 2, Spec: "V3-X hangs", At: at(20)})
	for s := 21; s <= 90; s++ {
		w.step(at(s))
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var progressLines int
	for _, l := range lines {
		if strings.Contains(l, "specs done") {
			progressLines++
		}
	}
	if progressLines != 9 { // at 10 s, 20 s, ..., 90 s
		t.Errorf("%d progress lines in 90 s, want 9:\n%s", progressLines, out.String())
	}
	if !strings.Contains(out.String(), "conform: 20/40 specs done, 1 in flight, 1m9s elapsed, about 1m9s left") {
		t.Errorf("progress lines:\n%s", out.String())
	}
	var st stalled
	if len(causes) != 1 || !errors.As(causes[0], &st) {
		t.Fatalf("stops: %v", causes)
	}
	msg := causes[0].Error()
	if !strings.Contains(msg, "no spec ended for 1m0s (--stall-timeout)") || !strings.Contains(msg, `"V3-X hangs" (process 2, running 1m0s)`) {
		t.Errorf("stall cause: %s", msg)
	}
	if !strings.Contains(out.String(), "conform: stopping the run: "+msg) {
		t.Errorf("the console does not say why the run stops:\n%s", out.String())
	}
}

// Without a stall limit a quiet run goes on.
func TestWatcherWithoutStallLimit(t *testing.T) {
	start := time.Now()
	w := &watcher{tail: progress.NewTail(filepath.Join(t.TempDir(), "none")), tracker: progress.NewTracker(), out: &bytes.Buffer{}, start: start,
		stop: func(err error) { t.Errorf("stopped: %v", err) }}
	w.step(start.Add(time.Hour))
}

func TestInterruptionOfAChild(t *testing.T) {
	at := time.Now()
	cases := []struct {
		name  string
		x     childExit
		cause string
		code  int
	}{
		{"SIGINT", childExit{signal: os.Interrupt, stopAt: at}, results.CauseSIGINT, exitInterrupted},
		{"SIGTERM", childExit{signal: syscall.SIGTERM, stopAt: at}, results.CauseSIGTERM, exitTerminated},
		{"time limit", childExit{cause: limitReached{time.Minute}, stopAt: at}, results.CauseTimeLimit, exitStopped},
		{"stall", childExit{cause: stalled{quiet: time.Minute, inFlight: "in flight: x"}, stopAt: at}, results.CauseStalled, exitStopped},
		{"cancelled", childExit{cause: context.Canceled, stopAt: at}, "stopped", exitStopped},
	}
	for _, c := range cases {
		i := interruption(c.x)
		if i == nil || i.Cause != c.cause || !i.At.Equal(at) || i.Reason == "" || stopCode(i) != c.code {
			t.Errorf("%s: %+v", c.name, i)
		}
	}
	if interruption(childExit{status: 1}) != nil {
		t.Error("a child that ended by itself was not interrupted")
	}
}

// conform interrupts the run at its time limit; Ginkgo's own timeout only
// backs it up, after the grace period, and is never the default hour.
func TestGinkgoTimeout(t *testing.T) {
	if got := ginkgoTimeout(time.Minute); got != time.Minute+2*killGrace {
		t.Errorf("ginkgoTimeout(1m) = %s", got)
	}
	if got := ginkgoTimeout(0); got < 10*365*24*time.Hour {
		t.Errorf("no limit: %s", got)
	}
}
