// Package stages runs make test: stages one after another, the steps of a
// stage side by side (a step may wait for others of its stage to end), each
// step one make invocation whose output goes to a log file of its own. The console gets one line per stage with each step's
// time, a progress line at least every so often while a stage runs, and a
// step's output only when it failed: a green make test reads in a screen.
package stages

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Step is one make invocation: its targets run in order (a target whose
// prerequisite is another target of the stage goes in the same step, so
// that make does not build that prerequisite twice), with make variables
// (NAME=value) among them.
type Step struct {
	// Name names the step on the console and its log file.
	Name string
	// Args are make's targets and variables.
	Args []string
	// After names steps of the same stage (declared before this one) that
	// must end, successfully, before this one starts.
	After []string
	// Made are the targets of the steps it waits for, theirs included:
	// made when it starts (make need not make them again).
	Made []string
	// Nice runs the step at a lower CPU priority: it only computes, and
	// takes what the steps that need a harness on time (rate windows,
	// generators at a measured rate) leave.
	Nice bool
}

// Stage is a set of steps that run side by side.
type Stage struct {
	Steps []Step
}

// Parse reads stages from their written form: one argument per stage, its
// steps separated by spaces, a step's targets and variables joined with "+"
// ("conform-check+coverage", "remote+REMOTE_DELAY=5ms"), make's flags among
// them ("-j3+conform-check+coverage+trust-parallel"); a step is named by its
// targets. A part "@TARGET" makes the step wait for the end of the earlier
// step of its stage that makes TARGET ("conform-check+@build"); a leading "~" runs it at
// a lower CPU priority ("~unit-race").
func Parse(args []string) ([]Stage, error) {
	var out []Stage
	for _, a := range args {
		var st Stage
		names := map[string]string{}  // a target of the stage's steps so far: its step's name
		made := map[string][]string{} // a step's targets and those of the steps it waits for
		for _, word := range strings.Fields(a) {
			step := Step{}
			if rest, ok := strings.CutPrefix(word, "~"); ok {
				step.Nice, word = true, rest
			}
			parts := strings.Split(word, "+")
			for _, p := range parts {
				if p == "" || p == "@" {
					return nil, fmt.Errorf("stage %q: step %q has an empty part", a, word)
				}
			}
			// The step's targets name it; make's flags (-j3), variables and
			// the steps it waits for do not.
			var targets []string
			for _, p := range parts {
				switch {
				case strings.HasPrefix(p, "@"):
					name, ok := names[p[1:]]
					if !ok {
						return nil, fmt.Errorf("stage %q: step %q waits for %q, not a target of a step before it in its stage", a, word, p[1:])
					}
					step.After = append(step.After, name)
					step.Made = append(step.Made, made[name]...)
				case !strings.HasPrefix(p, "-") && !strings.Contains(p, "="):
					targets = append(targets, p)
					step.Args = append(step.Args, p)
				default:
					step.Args = append(step.Args, p)
				}
			}
			if len(targets) == 0 {
				return nil, fmt.Errorf("stage %q: step %q names no target", a, word)
			}
			step.Name = strings.Join(targets, "+")
			for _, t := range targets {
				names[t] = step.Name
			}
			made[step.Name] = append(slices.Clone(step.Made), targets...)
			st.Steps = append(st.Steps, step)
		}
		if len(st.Steps) == 0 {
			return nil, fmt.Errorf("stage %d has no step", len(out)+1)
		}
		out = append(out, st)
	}
	if len(out) == 0 {
		return nil, errors.New("no stage given")
	}
	return out, nil
}

// Start starts a step, its output written to log, and returns a function
// that waits for its end (nil when it succeeded).
type Start func(ctx context.Context, s Step, log io.Writer) (wait func() error, err error)

// Runner runs stages.
type Runner struct {
	// Out is the console.
	Out io.Writer
	// LogDir receives one log per step, <name>.log.
	LogDir string
	// Every is the longest silence while a stage runs: a progress line is
	// printed at least this often.
	Every time.Duration
	// Tail is how many of a failed step's last log lines are printed.
	Tail int
	// Start starts a step.
	Start Start
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// result is a step's outcome.
type result struct {
	step Step
	took time.Duration
	err  error
	log  string
	// started: its steps to wait for ended and it runs (or ran).
	started bool
	done    bool
}

// Run runs the stages in order and stops after the first stage with a
// failed step (that stage's other steps run to their end). It returns an
// error naming the failed steps.
func (r Runner) Run(ctx context.Context, stages []Stage) error {
	now := r.Now
	if now == nil {
		now = time.Now
	}
	if err := os.MkdirAll(r.LogDir, 0o755); err != nil {
		return fmt.Errorf("stages: logs: %w", err)
	}
	begin := now()
	fmt.Fprintf(r.Out, "make test: %d stage(s); each step's output in %s/<step>.log, printed here only when it fails\n", len(stages), r.LogDir)
	for i, st := range stages {
		results := r.stage(ctx, i+1, len(stages), st, now)
		var failed []string
		var took time.Duration
		parts := make([]string, len(results))
		for j, res := range results {
			took = max(took, res.took)
			parts[j] = res.step.Name + " " + short(res.took)
			if res.err != nil {
				parts[j] += " FAILED"
				failed = append(failed, res.step.Name)
			}
		}
		verdict := "ok  "
		if len(failed) > 0 {
			verdict = "FAIL"
		}
		fmt.Fprintf(r.Out, "%s [%d/%d] %s  (%s)\n", verdict, i+1, len(stages), strings.Join(parts, " · "), short(took))
		if len(failed) > 0 {
			for _, res := range results {
				if res.err != nil {
					r.printFailure(res)
				}
			}
			fmt.Fprintf(r.Out, "make test: FAILED in stage %d (%s) after %s\n", i+1, strings.Join(failed, ", "), short(now().Sub(begin)))
			return fmt.Errorf("stage %d failed: %s", i+1, strings.Join(failed, ", "))
		}
	}
	fmt.Fprintf(r.Out, "make test: ok in %s\n", short(now().Sub(begin)))
	return nil
}

// stage runs one stage's steps side by side, printing progress while any
// runs.
func (r Runner) stage(ctx context.Context, n, of int, st Stage, now func() time.Time) []result {
	start := now()
	results := make([]result, len(st.Steps))
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Every result is in place before the first step starts: a step that
	// ends at once must not race the loop's writes.
	ended := map[string]chan struct{}{}
	for i, s := range st.Steps {
		results[i] = result{step: s, log: filepath.Join(r.LogDir, s.Name+".log")}
		ended[s.Name] = make(chan struct{})
	}
	failed := func(name string) error {
		mu.Lock()
		defer mu.Unlock()
		for _, res := range results {
			if res.step.Name == name && res.err != nil {
				return fmt.Errorf("not started: %s failed", name)
			}
		}
		return nil
	}
	for i, s := range st.Steps {
		log := results[i].log
		wg.Go(func() {
			defer close(ended[s.Name])
			var err error
			for _, a := range s.After {
				<-ended[a]
				if err == nil {
					err = failed(a)
				}
			}
			if err == nil {
				mu.Lock()
				results[i].started = true
				mu.Unlock()
				err = r.runStep(ctx, s, log)
			}
			mu.Lock()
			results[i].took, results[i].err, results[i].done = now().Sub(start), err, true
			mu.Unlock()
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(r.Every)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return results
		case <-tick.C:
			mu.Lock()
			var active []string
			for _, res := range results {
				if res.started && !res.done {
					active = append(active, res.step.Name+lastLine(res.log))
				}
			}
			mu.Unlock()
			if len(active) > 0 { // none: the last step ended this instant
				fmt.Fprintf(r.Out, "     [%d/%d] %s: running %s\n", n, of, short(now().Sub(start)), strings.Join(active, "; "))
			}
		}
	}
}

// runStep runs one step into its log.
func (r Runner) runStep(ctx context.Context, s Step, log string) error {
	f, err := os.Create(log)
	if err != nil {
		return fmt.Errorf("log: %w", err)
	}
	defer f.Close()
	wait, err := r.Start(ctx, s, f)
	if err != nil {
		fmt.Fprintf(f, "could not start: %v\n", err)
		return err
	}
	return wait()
}

// printFailure prints a failed step's error and the end of its log.
func (r Runner) printFailure(res result) {
	if !res.started {
		fmt.Fprintf(r.Out, "--- %s: %v\n", res.step.Name, res.err)
		return
	}
	lines := tailLines(res.log, r.Tail)
	fmt.Fprintf(r.Out, "--- %s: %v; the last %d lines of %s:\n", res.step.Name, res.err, len(lines), res.log)
	for _, l := range lines {
		fmt.Fprintf(r.Out, "    %s\n", l)
	}
}

// tailLines returns the last n lines of a file.
func tailLines(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return []string{err.Error()}
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > 4*n {
			lines = append(lines[:0], lines[len(lines)-n:]...)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// lastLine is ` (…the log's last line)`, shortened, or "" for an empty log:
// a step's own progress (mutate's [130/543], a run's spec count) shows
// through.
func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	const window = 4096
	off := max(0, fi.Size()-window)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	// The last line that says something: Ginkgo's rows of progress glyphs
	// (•, S) say only that specs end.
	lines := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' || r == '\r' })
	s := ""
	for i := len(lines) - 1; i >= 0 && s == ""; i-- {
		if l := strings.TrimSpace(lines[i]); strings.Trim(l, "•S") != "" {
			s = l
		}
	}
	if s == "" {
		return ""
	}
	if r := []rune(s); len(r) > 70 {
		s = string(r[:69]) + "…"
	}
	return " (" + s + ")"
}

// short writes a duration as 45s or 3m05s.
func short(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
