package main

import (
	"errors"
	"fmt"
)

// Exit codes, documented in `conform help`.
const (
	exitOK      = 0 // everything passed (informational and skipped outcomes included)
	exitFailed  = 1 // a rule failed (or, for rules --check and mutate, a problem was found)
	exitUsage   = 2 // bad flags, arguments or target config
	exitHarness = 3 // the harness could not do its job: target unreachable, binaries missing, suite crashed
	// exitStopped: conform run stopped by a bound of its own, the time
	// limit or the stall limit; the run is incomplete.
	exitStopped = 6
	// A run stopped by a signal exits as a shell reports a process killed
	// by it (128 + the signal's number), so that a job stopped on purpose
	// is not mistaken for a broken target.
	exitInterrupted = 130 // SIGINT
	exitTerminated  = 143 // SIGTERM
)

// errHelp is returned when -h was asked for and usage has been printed.
var errHelp = errors.New("help requested")

// cliError carries an exit code with an error.
type cliError struct {
	code int
	err  error
	// quiet errors have already been explained on the console.
	quiet bool
}

func (e *cliError) Error() string { return e.err.Error() }
func (e *cliError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &cliError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

func usageError(err error) error { return &cliError{code: exitUsage, err: err} }

func harnessErrorf(format string, args ...any) error {
	return &cliError{code: exitHarness, err: fmt.Errorf(format, args...)}
}

func harnessError(err error) error { return &cliError{code: exitHarness, err: err} }

// failed reports a failed outcome already printed in the summary.
func failed() error {
	return &cliError{code: exitFailed, err: errors.New("failed"), quiet: true}
}

// failedf reports a failed outcome with a closing line.
func failedf(format string, args ...any) error {
	return &cliError{code: exitFailed, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to the process exit code; an error without a code
// is a harness error, since every expected failure is given one.
func exitCode(err error) int {
	var ce *cliError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ce):
		return ce.code
	}
	return exitHarness
}
