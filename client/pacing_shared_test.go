package client

import (
	"path/filepath"
	"testing"
	"time"
)

// Pacers of several processes on one file keep every row together, under
// either reading of rate and burst, however their bursts interleave; and
// one of them alone may use the whole row, not a fixed share of it.
func TestSharedPacersKeepOneBudget(t *testing.T) {
	classes := []PathClass{{Prefixes: []string{"/"}, Rate: 20, Burst: 30}, {Prefixes: []string{"/public/"}, Rate: 30, Burst: 50}}
	for _, c := range classes {
		path := filepath.Join(t.TempDir(), "pace")
		start := time.Unix(1000, 0)
		const procs = 3
		clocks := make([]time.Time, procs)
		pacers := make([]*Pacer, procs)
		for i := range procs {
			p, err := NewSharedPacer(classes, path, 1.0/procs)
			if err != nil {
				t.Fatal(err)
			}
			i := i
			clocks[i] = start
			p.now = func() time.Time { return clocks[i] }
			pacers[i] = p
		}
		var sent []time.Time
		steps := make([]int, procs)
		for {
			// The process whose clock is earliest acts next: a burst of 1 to
			// 40 requests, each sent when its wait is over, then a pause of
			// 0 to 1.5 s.
			i := 0
			for j := range procs {
				if clocks[j].Before(clocks[i]) {
					i = j
				}
			}
			if !clocks[i].Before(start.Add(time.Minute)) {
				break
			}
			n := steps[i]
			steps[i]++
			for range 1 + (n*7+i*3)%40 {
				clocks[i] = clocks[i].Add(pacers[i].reserve(c.Prefixes[0] + "x"))
				sent = append(sent, clocks[i])
			}
			clocks[i] = clocks[i].Add(time.Duration((n*37+i*11)%16) * 100 * time.Millisecond)
		}
		if len(sent) < c.Rate*50 {
			t.Errorf("%s: %d requests in a minute, want most of the row's %d", c.Prefixes[0], len(sent), c.Rate*60)
		}
		expectWithinRow(t, c, start, sent)
	}

	// Alone, a process has the whole burst (30 * 0.9); the next process on
	// the file finds it spent.
	path := filepath.Join(t.TempDir(), "pace")
	a, err := NewSharedPacer(classes, path, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSharedPacer(classes, path, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(2000, 0)
	a.now, b.now = func() time.Time { return clock }, func() time.Time { return clock }
	for i := range 27 {
		if d := a.reserve("/spot/balance"); d > 0 {
			t.Fatalf("request %d of a burst of 27 waits %s", i+1, d)
		}
	}
	if d := b.reserve("/spot/balance"); d <= 0 {
		t.Error("another process's request goes at once after the whole burst was spent")
	}
	// A 429 seen by one process holds every process back for the window.
	clock = clock.Add(10 * time.Second)
	a.Backoff("/public/x")
	if d := b.reserve("/public/x"); d < 900*time.Millisecond {
		t.Errorf("after another process's 429, a request waits %s, want the window", d)
	}
}
