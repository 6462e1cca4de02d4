package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one subcommand.
type command struct {
	// summary is the one line shown by `conform help`.
	summary string
	// synopsis is the usage line and a short description for `conform help <name>`.
	synopsis string
	// flags builds the subcommand's flag set (bound to throwaway options), for help.
	flags func() *flag.FlagSet
	run   func(args []string, e *env) error
}

// commands is built on demand rather than held in a package variable, so
// that no mutable state lives outside main.
func commands() map[string]command {
	return map[string]command{
		"run": {summary: "run the conformance suite against a target or the embedded emulator",
			synopsis: runSynopsis, flags: func() *flag.FlagSet { return runFlagSet(&runOptions{}) }, run: cmdRun},
		"emulate": {summary: "serve the reference emulator until interrupted",
			synopsis: emulateSynopsis, flags: func() *flag.FlagSet { return emulateFlagSet(&emulateOptions{}) }, run: cmdEmulate},
		"rules": {summary: "list the rule catalogue with the specs that check each rule",
			synopsis: rulesSynopsis, flags: func() *flag.FlagSet { return rulesFlagSet(&rulesOptions{}) }, run: cmdRules},
		"mutate": {summary: "switch each emulator fault on and check that its rule's specs fail",
			synopsis: mutateSynopsis, flags: func() *flag.FlagSet { return mutateFlagSet(&mutateOptions{}) }, run: cmdMutate},
		"load": {summary: "capacity run of a scenario against a target with Vegeta; merge workers' results", synopsis: loadSynopsis, flags: func() *flag.FlagSet { return loadFlagSet(&loadOptions{}) }, run: cmdLoad},
		"report": {summary: "compare two runs: conform report diff OLD NEW (exit 1 when a rule newly fails)",
			synopsis: reportSynopsis, flags: func() *flag.FlagSet { return reportFlagSet(&reportOptions{}) }, run: cmdReport},
		"help": {summary: "show this help, or a subcommand's flags", synopsis: "usage: conform help [subcommand]", run: cmdHelp},
	}
}

const exitCodesHelp = `Exit codes:
  0  all passed (informational and skipped outcomes do not fail a run)
  1  a rule failed (for "run --certify" also a rule that could not run);
     for "rules --check" a coverage problem, for "mutate" a fault that
     survived or has no spec, for "report diff" a rule that newly fails
  2  bad flags, arguments or target config (one line on stderr)
  3  harness error: target unreachable, suite or ginkgo binary missing,
     ginkgo crashed, the suite could not start (BeforeSuite failed, e.g. the
     embedded emulator did not start), no report written
  4  load: a threshold was breached
  5  load: the run is invalid (achieved rate short of the requested by more
     than 1%)
  6  run: stopped by a bound of its own, the time limit (--timeout) or the
     stall limit (--stall-timeout); the reports say INTERRUPTED, when and why
  130, 143  run or load stopped by SIGINT or SIGTERM: the reports are still
     written and say INTERRUPTED (an incomplete run: specs stopped in flight
     are interrupted, not failed; those never started are not run)
`

func cmdHelp(args []string, e *env) error {
	cmds := commands()
	if len(args) > 1 {
		return usageErrorf("help: want at most one subcommand, got %d arguments", len(args))
	}
	if len(args) == 1 {
		c, ok := cmds[args[0]]
		if !ok {
			return usageErrorf("help: unknown subcommand %q", args[0])
		}
		printUsage(e.stdout, c)
		return nil
	}
	var b strings.Builder
	b.WriteString("conform: conformance harness for the exchange API\n\nUsage: conform <subcommand> [flags]\n\nSubcommands:\n")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-8s %s\n", n, cmds[n].summary)
	}
	b.WriteString("\nRun \"conform help <subcommand>\" or \"conform <subcommand> -h\" for its flags.\n\n")
	b.WriteString(exitCodesHelp)
	_, err := io.WriteString(e.stdout, b.String())
	return err
}

func printUsage(w io.Writer, c command) {
	fmt.Fprintln(w, c.synopsis)
	if c.flags == nil {
		return
	}
	fs := c.flags()
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parseFlags parses args into fs. -h prints the usage to stdout; any other
// problem, stray arguments included, is one line and exit code 2.
func parseFlags(name string, fs *flag.FlagSet, args []string, e *env) error {
	fs.SetOutput(io.Discard) // errors are reported once, by realMain, without a usage dump
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			printUsage(e.stdout, commands()[name])
			return errHelp
		}
		return usageErrorf("%s: %v (see conform help %s)", name, err, name)
	}
	if fs.NArg() > 0 {
		return usageErrorf("%s: unexpected argument %q (see conform help %s)", name, fs.Arg(0), name)
	}
	return nil
}
