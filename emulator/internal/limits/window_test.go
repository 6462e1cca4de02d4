package limits

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
)

// newManual is the test clock, stopped at a fixed instant.
func newManual() *clock.Manual { return clock.NewManual(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)) }

// spend offers n events for key and returns how many were accepted.
func spend(w *Window, key Key, lim Limit, n int) int {
	got := 0
	for range n {
		if ok, _ := w.Allow(key, lim); ok {
			got++
		}
	}
	return got
}

var testLimits = []Limit{{1, 0}, {5, 0}, {2, 10}, {10, 10}, {20, 30}, {30, 50}, {300, 450}}

func TestWindowAcceptsExactlyRatePlusBurst(t *testing.T) {
	for _, lim := range testLimits {
		t.Run(fmt.Sprintf("%d+%d", lim.Rate, lim.Burst), func(t *testing.T) {
			clk := newManual()
			w := NewWindow(clk)
			k := Key{"c", "127.0.0.1"}
			if got := spend(w, k, lim, lim.Max()+7); got != lim.Max() {
				t.Fatalf("accepted %d of %d offered at once, want %d", got, lim.Max()+7, lim.Max())
			}
			clk.Advance(time.Second - time.Nanosecond)
			if got := spend(w, k, lim, 3); got != 0 {
				t.Fatalf("1 ns before the window ends: accepted %d, want 0", got)
			}
			clk.Advance(time.Nanosecond)
			if got := spend(w, k, lim, lim.Max()+7); got != lim.Max() {
				t.Fatalf("once the window has passed: accepted %d, want %d", got, lim.Max())
			}
		})
	}
}

// The window slides: half the budget spent at 0 and the rest at 600 ms;
// at 1 s exactly the first half is free again, at 1.6 s the second.
func TestWindowSlides(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fixed bool
		// accepted at 1 s and at 1.6 s
		at1s, at16s int
	}{
		{"sliding", false, 40, 40},
		{"fixed (the V3-LIMIT-WINDOW fault)", true, 80, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newManual()
			var opts []WindowOption
			if tc.fixed {
				opts = append(opts, WithFixedWindow())
			}
			w := NewWindow(clk, opts...)
			lim, k := Limit{30, 50}, Key{"c", "a"}
			if got := spend(w, k, lim, 40); got != 40 {
				t.Fatalf("first half: %d", got)
			}
			clk.Advance(600 * time.Millisecond)
			if got := spend(w, k, lim, 60); got != 40 {
				t.Fatalf("second half at 600 ms: accepted %d, want 40", got)
			}
			clk.Advance(400 * time.Millisecond)
			if got := spend(w, k, lim, 100); got != tc.at1s {
				t.Fatalf("at 1 s: accepted %d, want %d", got, tc.at1s)
			}
			clk.Advance(600 * time.Millisecond)
			if got := spend(w, k, lim, 100); got != tc.at16s {
				t.Fatalf("at 1.6 s: accepted %d, want %d", got, tc.at16s)
			}
		})
	}
}

// A steady stream at exactly Max per second is accepted forever; one more
// per second is not.
func TestWindowSteadyRate(t *testing.T) {
	clk := newManual()
	w := NewWindow(clk)
	lim, k := Limit{10, 10}, Key{"c", "a"}
	step := time.Second / time.Duration(lim.Max())
	for i := range 10 * lim.Max() {
		if ok, _ := w.Allow(k, lim); !ok {
			t.Fatalf("event %d at the documented rate refused", i)
		}
		clk.Advance(step)
	}
	refused := 0
	step = time.Second / time.Duration(lim.Max()+1)
	for range 10 * (lim.Max() + 1) {
		if ok, _ := w.Allow(k, lim); !ok {
			refused++
		}
		clk.Advance(step)
	}
	if refused == 0 {
		t.Fatal("a rate above Max per second was never refused")
	}
}

func TestWindowRefusalsDoNotCountAndSayHowLong(t *testing.T) {
	clk := newManual()
	w := NewWindow(clk)
	lim, k := Limit{2, 0}, Key{"c", "a"}
	spend(w, k, lim, 2)
	clk.Advance(300 * time.Millisecond)
	ok, wait := w.Allow(k, lim)
	if ok || wait != 700*time.Millisecond {
		t.Fatalf("third event: ok=%v wait=%s, want refused with 700ms", ok, wait)
	}
	spend(w, k, lim, 50) // refused; must not push the window out
	clk.Advance(700 * time.Millisecond)
	if got := spend(w, k, lim, 3); got != 2 {
		t.Fatalf("after the window: accepted %d, want 2 (refusals must not count)", got)
	}
}

func TestWindowKeysAreIndependent(t *testing.T) {
	w := NewWindow(newManual())
	lim := Limit{3, 2}
	for _, k := range []Key{{"a", "1"}, {"a", "2"}, {"b", "1"}} {
		if got := spend(w, k, lim, 9); got != 5 {
			t.Errorf("%v: accepted %d, want 5", k, got)
		}
	}
}

func TestWindowClockGoingBackStartsAfresh(t *testing.T) {
	clk := newManual()
	w := NewWindow(clk)
	lim, k := Limit{1, 0}, Key{"c", "a"}
	clk.Advance(24 * time.Hour)
	spend(w, k, lim, 1)
	clk.Advance(-24 * time.Hour)
	if got := spend(w, k, lim, 2); got != 1 {
		t.Fatalf("after the clock went back a day: accepted %d, want 1 (not refused for a day)", got)
	}
}

// A clock stepping back less than a window (a wall clock corrected by NTP)
// must not refill the budget.
func TestWindowSmallStepBackKeepsTheCount(t *testing.T) {
	clk := newManual()
	w := NewWindow(clk)
	lim, k := Limit{3, 0}, Key{"c", "a"}
	spend(w, k, lim, 3)
	clk.Advance(-10 * time.Millisecond)
	if got := spend(w, k, lim, 3); got != 0 {
		t.Fatalf("after a 10 ms step back: accepted %d, want 0", got)
	}
}

func TestWindowZeroLimitRefuses(t *testing.T) {
	w := NewWindow(newManual())
	if ok, _ := w.Allow(Key{"c", "a"}, Limit{}); ok {
		t.Fatal("a limit of 0 accepted an event")
	}
}

func TestWindowEvictsIdleKeys(t *testing.T) {
	clk := newManual()
	w := NewWindow(clk)
	for i := range 5000 {
		w.Allow(Key{"c", fmt.Sprint(i)}, Limit{1, 1})
	}
	if w.Len() != 5000 {
		t.Fatalf("held %d keys, want 5000", w.Len())
	}
	clk.Advance(time.Second)
	w.Allow(Key{"c", "fresh"}, Limit{1, 1})
	if n := w.Len(); n != 1 {
		t.Fatalf("one window later: %d keys held, want 1", n)
	}
}

// Under contention the count is still exact.
func TestWindowConcurrentExact(t *testing.T) {
	for _, lim := range testLimits {
		w := NewWindow(newManual())
		var accepted atomic.Int64
		var wg sync.WaitGroup
		for range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				accepted.Add(int64(spend(w, Key{"c", "a"}, lim, lim.Max())))
			}()
		}
		wg.Wait()
		if got := accepted.Load(); got != int64(lim.Max()) {
			t.Errorf("%d+%d: 32 goroutines got %d accepted, want %d", lim.Rate, lim.Burst, got, lim.Max())
		}
	}
}

// With the wall clock, goroutines read the time and then queue for the
// lock in any order; the count must stay exact (it once reset the ring
// when a slightly older time arrived second).
func TestWindowConcurrentExactRealClock(t *testing.T) {
	for _, lim := range testLimits {
		w := NewWindow(nil)
		var accepted atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				accepted.Add(int64(spend(w, Key{"c", "a"}, lim, lim.Max())))
			}()
		}
		wg.Wait()
		if time.Since(start) >= time.Second {
			t.Skipf("%d+%d: the offer took %s, longer than the window", lim.Rate, lim.Burst, time.Since(start))
		}
		if got := accepted.Load(); got != int64(lim.Max()) {
			t.Errorf("%d+%d: 32 goroutines got %d accepted, want %d", lim.Rate, lim.Burst, got, lim.Max())
		}
	}
}

// BenchmarkAllow measures Allow under contention: every goroutine on one
// key (the worst case: one lock), on a key of its own, and across many
// keys as a loaded emulator sees them.
func BenchmarkAllow(b *testing.B) {
	lim := Limit{300, 450}
	for _, bc := range []struct {
		name string
		key  func(g, i int) Key
	}{
		{"one-key", func(int, int) Key { return Key{"ip /spot/order/*", "127.0.0.1"} }},
		{"key-per-goroutine", func(g, _ int) Key { return Key{"ip /spot/order/*", fmt.Sprint("127.0.1.", g)} }},
		{"1000-keys", func(g, i int) Key { return Key{"ip /public/*", fmt.Sprint("127.0.", (g*7919+i)%1000)} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := NewWindow(nil)
			var gid atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				g := int(gid.Add(1))
				keys := make([]Key, 1000)
				for i := range keys {
					keys[i] = bc.key(g, i)
				}
				i := 0
				for pb.Next() {
					w.Allow(keys[i%len(keys)], lim)
					i++
				}
			})
		})
	}
}
