package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/conform-harness/conform/internal/registration"
)

// killGrace is how long a child has to write its reports after being
// interrupted before it is killed.
const killGrace = 30 * time.Second

// child describes a process conform runs and waits for.
type child struct {
	path   string
	args   []string
	dir    string
	stdout io.Writer
	stderr io.Writer
	// env is added to conform's own environment.
	env []string
}

// run starts the child and waits for it (see stoppable), and returns its
// exit status, -1 when it died of a signal, and an error only when it could
// not be started.
func (c child) run(ctx context.Context) (int, error) {
	x, err := c.stoppable(ctx)
	return x.status, err
}

// childExit is how a child ended.
type childExit struct {
	status int
	// signal is the first SIGINT or SIGTERM conform received while the
	// child ran; nil when none came.
	signal os.Signal
	// cause is context.Cause of ctx when ctx ended before the child (and
	// before any signal); nil otherwise.
	cause error
	// stopAt is when the child was first asked to stop (zero: never).
	stopAt time.Time
}

// stopped reports whether conform asked the child to stop.
func (x childExit) stopped() bool { return !x.stopAt.IsZero() }

// stoppable starts the child in its own process group and waits for it.
// The first SIGINT or SIGTERM conform receives, or ctx ending, interrupts
// the child (Ginkgo then stops and still writes its reports); a second
// signal, or the grace period passing, kills the child's group. The child's
// own group keeps a terminal's Ctrl-C from reaching it twice (once from the
// terminal, once forwarded), which Ginkgo would take as "abort without
// reports". It returns an error only when the child could not be started
// or waited for.
func (c child) stoppable(ctx context.Context) (childExit, error) {
	var x childExit
	cmd := exec.Command(c.path, c.args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = c.dir, c.stdout, c.stderr
	// Every suite process builds the whole tree unless the child's own
	// env (conform mutate's) names containers (registration.Env): never
	// from conform's environment.
	cmd.Env = append(append(os.Environ(), registration.Env+"="), c.env...)
	setOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return x, fmt.Errorf("start %s: %w", c.path, err)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var grace <-chan time.Time
	stop := func() {
		x.stopAt = time.Now()
		interruptGroup(cmd)
		grace = time.After(killGrace)
	}
	for {
		select {
		case err := <-done:
			var ee *exec.ExitError
			switch {
			case err == nil:
				return x, nil
			case errors.As(err, &ee):
				x.status = ee.ExitCode()
				return x, nil
			}
			return x, fmt.Errorf("wait for %s: %w", c.path, err)
		case sig := <-sigs:
			if x.stopped() {
				killGroup(cmd)
				continue
			}
			x.signal = sig
			stop()
		case <-ctx.Done():
			if !x.stopped() {
				x.cause = context.Cause(ctx)
				stop()
			}
			ctx = context.Background() // fire once
		case <-grace:
			killGroup(cmd)
		}
	}
}
