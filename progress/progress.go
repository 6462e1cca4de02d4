// Package progress is the progress file of a conform run. Ginkgo's parallel
// output arrives only when a spec ends, and says nothing of the specs still
// running, so the suite processes append one line to a file that conform
// names whenever a spec starts or ends; conform tails it to print how far
// the run is and to notice a run that is stuck, and which specs it is
// stuck in.
package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Kinds of event.
const (
	// KindTotal gives the number of specs the run's filters select.
	KindTotal = "total"
	// KindStart: a process started a spec.
	KindStart = "start"
	// KindEnd: a process ended the spec it started, in State.
	KindEnd = "end"
)

// Event is one line of the progress file.
type Event struct {
	Kind string `json:"kind"`
	// Proc is the Ginkgo process (from 1); each runs one spec at a time.
	Proc int `json:"proc,omitempty"`
	// Spec is the spec's full text (start and end).
	Spec string `json:"spec,omitempty"`
	// State is Ginkgo's state of an ended spec (passed, failed, skipped, ...).
	State string `json:"state,omitempty"`
	// Total is the number of specs selected (KindTotal).
	Total int       `json:"total,omitempty"`
	At    time.Time `json:"at"`
}

// Writer appends events to a progress file shared by the suite processes.
// Each event is one write of one line to a file opened for appending, so
// the lines of parallel processes never interleave.
type Writer struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (creating it if need be) the progress file at path for appending.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("progress file: %w", err)
	}
	return &Writer{f: f}, nil
}

// Write appends e, stamped with the current time when it has none.
func (w *Writer) Write(e Event) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("progress: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("progress file: %w", err)
	}
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }

// Tail reads the events appended to a progress file since its last read.
type Tail struct {
	path    string
	off     int64
	partial []byte
}

// NewTail tails the file at path, which need not exist yet.
func NewTail(path string) *Tail { return &Tail{path: path} }

// Read returns the complete lines appended since the last Read, decoded; a
// line that is not an event is skipped. A file that does not exist yet
// holds no events.
func (t *Tail) Read() ([]Event, error) {
	f, err := os.Open(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("progress file: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return nil, fmt.Errorf("progress file: %w", err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("progress file: %w", err)
	}
	t.off += int64(len(b))
	b = append(t.partial, b...)
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		t.partial = b
		return nil, nil
	}
	t.partial = slices.Clone(b[end+1:])
	var out []Event
	for line := range bytes.SplitSeq(b[:end], []byte{'\n'}) {
		var e Event
		if json.Unmarshal(line, &e) == nil && e.Kind != "" {
			out = append(out, e)
		}
	}
	return out, nil
}

// Running is a spec in flight.
type Running struct {
	Spec  string
	Since time.Time
}

// Tracker folds the events of a run into where it stands.
type Tracker struct {
	// Total is the number of specs selected (0: not known yet).
	Total int
	// Done counts the specs that ended, Failed those of them that failed.
	Done, Failed int
	// InFlight holds the spec each process is running.
	InFlight map[int]Running
	// First is when the first spec started, LastEnd when the last ended.
	First, LastEnd time.Time
}

// NewTracker returns a tracker of a run that has seen no event yet.
func NewTracker() *Tracker { return &Tracker{InFlight: map[int]Running{}} }

// failedStates are the Ginkgo states of a spec that did not pass or skip.
var failedStates = []string{"failed", "panicked", "timedout", "aborted"}

// Add folds one event in.
func (t *Tracker) Add(e Event) {
	switch e.Kind {
	case KindTotal:
		t.Total = max(t.Total, e.Total)
	case KindStart:
		t.InFlight[e.Proc] = Running{Spec: e.Spec, Since: e.At}
		if t.First.IsZero() || e.At.Before(t.First) {
			t.First = e.At
		}
	case KindEnd:
		delete(t.InFlight, e.Proc)
		t.Done++
		if slices.Contains(failedStates, e.State) {
			t.Failed++
		}
		if e.At.After(t.LastEnd) {
			t.LastEnd = e.At
		}
	}
}

// Line is the progress line for a person at now: specs done of the total,
// failures so far, specs in flight, time since the first spec started, and
// an estimate of what remains at the pace so far.
func (t *Tracker) Line(now time.Time) string {
	var b strings.Builder
	if t.Total > 0 {
		fmt.Fprintf(&b, "%d/%d specs done", t.Done, t.Total)
	} else {
		fmt.Fprintf(&b, "%d specs done", t.Done)
	}
	if t.Failed > 0 {
		fmt.Fprintf(&b, " (%d failed)", t.Failed)
	}
	fmt.Fprintf(&b, ", %d in flight", len(t.InFlight))
	if t.First.IsZero() {
		b.WriteString(", setting up")
		return b.String()
	}
	elapsed := now.Sub(t.First)
	fmt.Fprintf(&b, ", %s elapsed", round(elapsed))
	if left, ok := t.Left(now); ok {
		fmt.Fprintf(&b, ", about %s left", round(left))
	}
	return b.String()
}

// minSample is the share of the specs that must have ended before the pace
// so far says anything about the rest.
const minSample = 0.05

// Left estimates the time the remaining specs take at the pace so far; ok
// is false while too few specs have ended to tell.
func (t *Tracker) Left(now time.Time) (time.Duration, bool) {
	if t.Total == 0 || t.First.IsZero() || t.Done == 0 || float64(t.Done) < minSample*float64(t.Total) {
		return 0, false
	}
	rest := max(t.Total-t.Done, 0)
	per := now.Sub(t.First) / time.Duration(t.Done)
	return per * time.Duration(rest), true
}

// Quiet is how long no spec has ended at now, counting from start (when
// the run began) until the first ends.
func (t *Tracker) Quiet(now, start time.Time) time.Duration {
	last := start
	if t.LastEnd.After(last) {
		last = t.LastEnd
	}
	return now.Sub(last)
}

// maxListed bounds the specs in flight that a stall names.
const maxListed = 8

// InFlightText names the specs in flight at now, longest running first,
// with their process and how long they have run.
func (t *Tracker) InFlightText(now time.Time) string {
	if len(t.InFlight) == 0 {
		return "no spec in flight (the suite was setting up or tearing down)"
	}
	procs := make([]int, 0, len(t.InFlight))
	for p := range t.InFlight {
		procs = append(procs, p)
	}
	slices.SortFunc(procs, func(a, b int) int { return t.InFlight[a].Since.Compare(t.InFlight[b].Since) })
	var parts []string
	for i, p := range procs {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("… %d more", len(procs)-i))
			break
		}
		r := t.InFlight[p]
		parts = append(parts, fmt.Sprintf("%q (process %d, running %s)", r.Spec, p, round(now.Sub(r.Since))))
	}
	return "in flight: " + strings.Join(parts, "; ")
}

func round(d time.Duration) time.Duration { return max(d, 0).Round(time.Second) }
