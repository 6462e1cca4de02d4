package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/conform-harness/conform/reporters/rundiff"
)

const reportSynopsis = `usage: conform report diff [--json] OLD NEW

Compares two runs rule by rule. OLD and NEW are each a results.json, a
reports or bundle directory holding one, or a bundle's .tar.gz. Prints the
rules newly failing (regressions), fixed, newly covered, and whose outcome
changed otherwise; exits 1 when a rule newly fails, so CI can gate on it.
An interrupted run (SIGINT, SIGTERM, its time or stall limit) is incomplete:
the comparison says so and lists apart the rules it did not judge, which
are never a regression.`

type reportOptions struct {
	json bool
}

func reportFlagSet(o *reportOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.BoolVar(&o.json, "json", false, "print the comparison as JSON")
	return fs
}

func cmdReport(args []string, e *env) error {
	if len(args) == 0 || args[0] != "diff" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			printUsage(e.stdout, commands()["report"])
			return errHelp
		}
		return usageErrorf("report: want a subcommand: conform report diff OLD NEW")
	}
	o := &reportOptions{}
	fs := reportFlagSet(o)
	paths, err := parseInterspersed("report", fs, args[1:], e)
	if err != nil {
		return err
	}
	if len(paths) != 2 {
		return usageErrorf("report diff: want two runs, OLD and NEW, got %d arguments", len(paths))
	}
	old, err := rundiff.Load(paths[0])
	if err != nil {
		return usageError(err)
	}
	cur, err := rundiff.Load(paths[1])
	if err != nil {
		return usageError(err)
	}
	d := rundiff.Compare(old, cur)
	if o.json {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return harnessError(err)
		}
		fmt.Fprintln(e.stdout, string(b))
	} else if err := d.Print(e.stdout); err != nil {
		return harnessError(err)
	}
	if d.Regressed() {
		return failedf("report diff: %d rules newly fail", len(d.NewlyFailing))
	}
	return nil
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (conform report diff OLD NEW --json).
func parseInterspersed(name string, fs *flag.FlagSet, args []string, e *env) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage(e.stdout, commands()[name])
				return nil, errHelp
			}
			return nil, usageErrorf("%s: %v (see conform help %s)", name, err, name)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
