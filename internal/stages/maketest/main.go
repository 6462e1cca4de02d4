// Command maketest is make test's driver (see package stages): it runs the
// stages it is given, each step a make invocation of this Makefile.
//
//	go run ./internal/stages/maketest [-logs DIR] [-every 15s] [-tail 60] STAGE...
//
// A STAGE is one argument: its steps separated by spaces, a step's targets
// and variables joined with "+" ("conform-check+coverage"), "@TARGET" among
// them to start it after the earlier step of its stage that makes TARGET ended, a leading "~"
// to run it at the lowest CPU priority (nice 19).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/conform-harness/conform/internal/stages"
)

func main() {
	logs := flag.String("logs", "bin/test", "directory of the steps' logs")
	every := flag.Duration("every", 15*time.Second, "longest silence while a stage runs")
	tail := flag.Int("tail", 60, "lines of a failed step's log printed")
	flag.Parse()
	st, err := stages.Parse(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "maketest:", err)
		os.Exit(2)
	}
	makeCmd := os.Getenv("MAKE")
	if makeCmd == "" {
		makeCmd = "make"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := stages.Runner{Out: os.Stdout, LogDir: *logs, Every: *every, Tail: *tail,
		Start: func(ctx context.Context, s stages.Step, log io.Writer) (func() error, error) {
			args := []string{"--no-print-directory"}
			if !slices.Contains(s.Args, "build") {
				args = append(args, "-o", "build") // built by the first stage, or by a step it waits for
			}
			for _, t := range s.Made {
				if t != "build" {
					args = append(args, "-o", t) // made by a step it waited for
				}
			}
			name, args := makeCmd, append(args, s.Args...)
			if s.Nice {
				// nice(1) where there is one; without it the step runs at
				// the others' priority.
				if nice, err := exec.LookPath("nice"); err == nil {
					name, args = nice, append([]string{"-n", "19", makeCmd}, args...)
				}
			}
			c := exec.CommandContext(ctx, name, args...)
			if os.Getenv("GOGC") == "" {
				// make test is CPU-bound on two cores and its processes are
				// short-lived: collecting a quarter as often took 6% off a
				// conformance run's CPU for twice its peak memory (250 to
				// 500 MB), measured on 2026-11-28.
				c.Env = append(os.Environ(), "GOGC=400")
			}
			c.Stdout, c.Stderr = log, log
			c.Cancel = func() error { return c.Process.Signal(os.Interrupt) }
			c.WaitDelay = 30 * time.Second
			if err := c.Start(); err != nil {
				return nil, err
			}
			return func() error {
				err := c.Wait()
				// The step's CPU (its processes and theirs, as they were
				// waited for), the figure to weigh a step by on two cores.
				if ps := c.ProcessState; ps != nil {
					fmt.Fprintf(log, "maketest: %s used %s of CPU\n", s.Name, (ps.UserTime() + ps.SystemTime()).Round(100*time.Millisecond))
				}
				return err
			}, nil
		}}
	if err := r.Run(ctx, st); err != nil {
		os.Exit(1)
	}
}
