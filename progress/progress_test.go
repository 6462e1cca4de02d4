package progress

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Lines written by parallel writers come out whole and once each, and a
// line still being written is read when it is complete.
func TestWriterAndTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "progress.jsonl")
	tail := NewTail(path)
	if evs, err := tail.Read(); err != nil || len(evs) != 0 {
		t.Fatalf("before the file exists: %v %v", evs, err)
	}
	var wg sync.WaitGroup
	for p := 1; p <= 4; p++ {
		w, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.Close()
			for range 50 {
				if err := w.Write(Event{Kind: KindStart, Proc: p, Spec: strings.Repeat("x", 150)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	evs, err := tail.Read()
	if err != nil || len(evs) != 200 {
		t.Fatalf("read %d events, want 200: %v", len(evs), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(`{"kind":"end","proc":1,"sta`)
	if evs, _ := tail.Read(); len(evs) != 0 {
		t.Fatalf("a partial line was read: %+v", evs)
	}
	f.WriteString("te\":\"passed\"}\nnot json\n")
	if evs, _ := tail.Read(); len(evs) != 1 || evs[0].State != "passed" || evs[0].Proc != 1 {
		t.Fatalf("the completed line: %+v", evs)
	}
}

func TestTracker(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	tr := NewTracker()
	if got := tr.Line(at(0)); got != "0 specs done, 0 in flight, setting up" {
		t.Errorf("before any event: %q", got)
	}
	tr.Add(Event{Kind: KindTotal, Total: 100, At: at(0)})
	steps := []struct {
		e    Event
		now  int
		line string
	}{
		{Event{Kind: KindStart, Proc: 1, Spec: "A", At: at(1)}, 1, "0/100 specs done, 1 in flight, 0s elapsed"},
		{Event{Kind: KindStart, Proc: 2, Spec: "B", At: at(2)}, 2, "0/100 specs done, 2 in flight, 1s elapsed"},
		{Event{Kind: KindEnd, Proc: 1, Spec: "A", State: "failed", At: at(6)}, 6, "1/100 specs done (1 failed), 1 in flight, 5s elapsed"},
	}
	for _, s := range steps {
		tr.Add(s.e)
		if got := tr.Line(at(s.now)); got != s.line {
			t.Errorf("after %s %s: %q, want %q", s.e.Kind, s.e.Spec, got, s.line)
		}
	}
	for i := range 9 {
		tr.Add(Event{Kind: KindStart, Proc: 1, Spec: "C", At: at(7 + i)})
		tr.Add(Event{Kind: KindEnd, Proc: 1, Spec: "C", State: "passed", At: at(8 + i)})
	}
	// 10 of 100 done 20 s after the first start: 2 s each, 180 s to go.
	if got := tr.Line(at(21)); got != "10/100 specs done (1 failed), 1 in flight, 20s elapsed, about 3m0s left" {
		t.Errorf("with an estimate: %q", got)
	}
	if got := tr.Quiet(at(100), at(0)); got != 84*time.Second {
		t.Errorf("quiet since the last end: %s", got)
	}
	if got := NewTracker().Quiet(at(100), at(40)); got != 60*time.Second {
		t.Errorf("quiet since the start when no spec ended: %s", got)
	}
	if got := tr.InFlightText(at(62)); got != `in flight: "B" (process 2, running 1m0s)` {
		t.Errorf("in flight: %q", got)
	}
	if got := NewTracker().InFlightText(at(0)); !strings.Contains(got, "no spec in flight") {
		t.Errorf("nothing in flight: %q", got)
	}
}
