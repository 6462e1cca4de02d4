// Command conform runs the conformance suites against an exchange API target
// (or the embedded reference emulator), runs the emulator standalone, lists
// the rule catalogue with its coverage and runs mutation tests.
//
// See `conform help` for the subcommands and exit codes.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	os.Exit(realMain(os.Args[1:], newEnv()))
}

// newEnv captures the process's surroundings once, so that subcommands take
// them as values and tests can substitute them.
func newEnv() *env {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, lookPath: exec.LookPath, self: os.Args[0]}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		e.exeDir = filepath.Dir(exe)
	}
	if wd, err := os.Getwd(); err == nil {
		e.cwd = wd
	}
	return e
}

// env is what a subcommand may use of the outside world.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	exeDir         string // directory of the conform executable
	cwd            string
	lookPath       func(string) (string, error) // exec.LookPath
	// self is how conform was invoked (argv[0]), for the command lines it
	// prints to replay a rule; empty: "conform".
	self string
}

// realMain dispatches to a subcommand and maps its error to an exit code.
func realMain(args []string, e *env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, "conform: no subcommand (see conform help)\n")
		return exitUsage
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			return realMain([]string{"help"}, e)
		}
		fmt.Fprintf(e.stderr, "conform: unknown subcommand %q (see conform help)\n", args[0])
		return exitUsage
	}
	err := cmd.run(args[1:], e)
	code := exitCode(err)
	var ce *cliError
	switch {
	case err == nil, errors.Is(err, errHelp):
	case errors.As(err, &ce) && ce.quiet:
	default:
		fmt.Fprintf(e.stderr, "conform: %v\n", err)
	}
	return code
}
