package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/bundle"
)

// openOut claims --out for one command (package outdir): conform writes,
// moves and removes only the files it wrote there. A file, a directory
// that cannot be created, one holding anything conform did not write, or
// one another conform is writing to is a usage error, in one line. The
// stale names (reports of an earlier run, which a crashed run could leave
// to be mistaken for its own) are removed: they are conform's, or Open
// would have refused the directory.
func openOut(cmd, dir string, args []string, e *env, stale ...string) (*outdir.Dir, error) {
	out, err := outdir.Open(dir, outdir.Me(holderCommand(cmd, args)))
	if err != nil {
		return nil, usageErrorf("%s: --out %s: %v", cmd, dir, err)
	}
	if h := out.StaleLock(); h != nil {
		fmt.Fprintf(e.stderr, "conform: %s: --out %s: took over the lock of conform %s, which is no longer running\n", cmd, dir, h)
	}
	if err := out.Remove(stale...); err != nil {
		out.Close()
		return nil, outError(cmd, dir, err)
	}
	return out, nil
}

// outError maps a refusal of the output directory (something in it is not
// conform's) to a usage error and any other failure to a harness error.
func outError(cmd, dir string, err error) error {
	if errors.As(err, new(*outdir.ForeignError)) {
		return usageErrorf("%s: --out %s: %v", cmd, dir, err)
	}
	return harnessErrorf("%s: --out %s: %w", cmd, dir, err)
}

// holderCommand is the command line a lock names: the subcommand and its
// flags, with no user information, query or fragment in a URL (where a
// credential could hide).
func holderCommand(cmd string, args []string) string {
	words := []string{"conform", cmd}
	for _, a := range args {
		if name, v, ok := strings.Cut(a, "="); ok && strings.Contains(v, "://") {
			a = name + "=" + bundle.PublicURL(v)
		} else if strings.Contains(a, "://") {
			a = bundle.PublicURL(a)
		}
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}
