package stages

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	st, err := Parse([]string{"vet unit-race build", "conform-check+coverage remote+REMOTE_DELAY=5ms -j3+check+trust"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || len(st[0].Steps) != 3 || st[1].Steps[0].Name != "conform-check+coverage" ||
		strings.Join(st[1].Steps[0].Args, " ") != "conform-check coverage" || strings.Join(st[1].Steps[1].Args, " ") != "remote REMOTE_DELAY=5ms" || st[1].Steps[1].Name != "remote" || st[1].Steps[2].Name != "check+trust" {
		t.Errorf("parsed %+v", st)
	}
	st, err = Parse([]string{"build ~unit-race conform-check+@build+coverage ~trust+@coverage+@build"})
	if err != nil {
		t.Fatal(err)
	}
	if s := st[0].Steps; len(s) != 4 || s[1].Name != "unit-race" || !s[1].Nice || s[0].Nice || s[2].Name != "conform-check+coverage" ||
		strings.Join(s[2].Args, " ") != "conform-check coverage" || strings.Join(s[2].After, " ") != "build" ||
		strings.Join(s[3].After, " ") != "conform-check+coverage build" || !s[3].Nice ||
		strings.Join(s[3].Made, " ") != "build conform-check coverage build" {
		t.Errorf("parsed %+v", st)
	}
	for _, bad := range [][]string{nil, {"  "}, {"a+"}, {"+b"}, {"-j3+X=1"}, {"a+@b b"}, {"a+@a"}, {"a+@"}, {"a", "b+@a"}, {"~"}} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// fakeMake plays make: each step prints its name and its lines, sleeps, and
// fails when named in fail.
type fakeMake struct {
	mu    sync.Mutex
	ran   []string
	sleep map[string]time.Duration
	fail  map[string]bool
}

func (f *fakeMake) start(ctx context.Context, s Step, log io.Writer) (func() error, error) {
	f.mu.Lock()
	f.ran = append(f.ran, s.Name)
	f.mu.Unlock()
	for i := range 100 {
		fmt.Fprintf(log, "%s line %d\n", s.Name, i)
	}
	return func() error {
		time.Sleep(f.sleep[s.Name])
		if f.fail[s.Name] {
			fmt.Fprintf(log, "--- FAIL: %s broke\n", s.Name)
			return errors.New("exit status 2")
		}
		return nil
	}, nil
}

// A green run: one line per stage with each step's time, progress lines
// while a step runs longer than Every, naming it and its log's last line,
// and a closing line; no step's output.
func TestRunGreen(t *testing.T) {
	f := &fakeMake{sleep: map[string]time.Duration{"slow": 120 * time.Millisecond}}
	var out bytes.Buffer
	r := Runner{Out: &out, LogDir: t.TempDir(), Every: 40 * time.Millisecond, Tail: 5, Start: f.start}
	st, _ := Parse([]string{"a b", "slow"})
	if err := r.Run(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"ok   [1/2] a 0s · b 0s", "ok   [2/2] slow 0s", "[2/2] 0s: running slow (slow line 99)", "make test: ok in"} {
		if !strings.Contains(s, want) {
			t.Errorf("console lacks %q:\n%s", want, s)
		}
	}
	// Besides the progress lines (as many as the ticks while slow ran: more
	// on a busy machine), the header, a line per stage and the verdict.
	other := 0
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if !strings.Contains(l, ": running ") {
			other++
		}
	}
	if strings.Contains(s, "line 5\n") || other > 4 {
		t.Errorf("a green run printed a step's output or too much:\n%s", s)
	}
}

// A failed step: its stage runs to its end, the stage line says FAIL, the
// step's error and its log's last lines follow, and no later stage starts.
func TestRunFailure(t *testing.T) {
	f := &fakeMake{fail: map[string]bool{"b": true}, sleep: map[string]time.Duration{"a": 20 * time.Millisecond}}
	var out bytes.Buffer
	r := Runner{Out: &out, LogDir: t.TempDir(), Every: time.Minute, Tail: 3, Start: f.start}
	st, _ := Parse([]string{"a b", "c"})
	err := r.Run(context.Background(), st)
	if err == nil || !strings.Contains(err.Error(), "stage 1 failed: b") {
		t.Fatalf("err %v", err)
	}
	s := out.String()
	for _, want := range []string{"FAIL [1/2] a 0s · b 0s FAILED", "--- b: exit status 2; the last 3 lines of", "    b line 98\n    b line 99\n    --- FAIL: b broke", "make test: FAILED in stage 1 (b)"} {
		if !strings.Contains(s, want) {
			t.Errorf("console lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(strings.Join(f.ran, " "), "c") || len(f.ran) != 2 {
		t.Errorf("ran %v: the stage after a failure started, or a step of the failed stage did not", f.ran)
	}
}

func TestShort(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 45 * time.Second: "45s", 185 * time.Second: "3m05s", 59600 * time.Millisecond: "1m00s"} {
		if got := short(d); got != want {
			t.Errorf("short(%s) = %s, want %s", d, got, want)
		}
	}
}

// A log whose last lines are Ginkgo's progress glyphs shows the line before
// them.
func TestLastLineSkipsGlyphs(t *testing.T) {
	path := t.TempDir() + "/step.log"
	if err := os.WriteFile(path, []byte("conform: 241/1789 specs done\n••••S••\n•••"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lastLine(path); got != " (conform: 241/1789 specs done)" {
		t.Errorf("lastLine = %q", got)
	}
}

// A step waiting for others starts when they ended: never while they run,
// and not at all when one of them failed (the stage fails, naming both).
func TestRunAfter(t *testing.T) {
	f := &fakeMake{sleep: map[string]time.Duration{"build": 60 * time.Millisecond}, fail: map[string]bool{"bad": true}}
	var out bytes.Buffer
	r := Runner{Out: &out, LogDir: t.TempDir(), Every: time.Minute, Tail: 3, Start: f.start}
	st, err := Parse([]string{"build bad check+@build free late+@bad+@check"})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(context.Background(), st)
	if err == nil || !strings.Contains(err.Error(), "stage 1 failed: bad, late") {
		t.Fatalf("err %v", err)
	}
	ran := strings.Join(f.ran, " ")
	if strings.Index(ran, "check") < strings.Index(ran, "build") || strings.Contains(ran, "late") || !strings.Contains(ran, "free") {
		t.Errorf("ran %q: want check after build, free run, late not started", ran)
	}
	if !strings.Contains(out.String(), "--- late: not started: bad failed") {
		t.Errorf("console does not say why late did not start:\n%s", out.String())
	}
	// check started after build ended: its time counts from the stage's start.
	if !strings.Contains(out.String(), "check 0s") {
		t.Errorf("console:\n%s", out.String())
	}
}
