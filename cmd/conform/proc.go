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

// run starts the child in its own process group and waits for it. The first
// SIGINT or SIGTERM conform receives, or ctx ending, interrupts the child
// (Ginkgo then stops and still writes its reports); a second signal, or the
// grace period passing, kills the child's group. The child's own group keeps
// a terminal's Ctrl-C from reaching it twice (once from the terminal, once
// forwarded), which Ginkgo would take as "abort without reports".
//
// run returns the child's exit status, -1 when it died of a signal, and an
// error only when it could not be started.
func (c child) run(ctx context.Context) (int, error) {
	cmd := exec.Command(c.path, c.args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = c.dir, c.stdout, c.stderr
	if len(c.env) > 0 {
		cmd.Env = append(os.Environ(), c.env...)
	}
	setOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", c.path, err)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	interrupted := false
	var grace <-chan time.Time
	for {
		select {
		case err := <-done:
			var ee *exec.ExitError
			switch {
			case err == nil:
				return 0, nil
			case errors.As(err, &ee):
				return ee.ExitCode(), nil
			}
			return 0, fmt.Errorf("wait for %s: %w", c.path, err)
		case <-sigs:
			if interrupted {
				killGroup(cmd)
				continue
			}
			interrupted = true
			interruptGroup(cmd)
			grace = time.After(killGrace)
		case <-ctx.Done():
			if !interrupted {
				interrupted = true
				interruptGroup(cmd)
				grace = time.After(killGrace)
			}
			ctx = context.Background() // fire once
		case <-grace:
			killGroup(cmd)
		}
	}
}
