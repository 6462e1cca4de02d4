package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// Names of the binaries `make build` puts in bin/ next to conform.
const (
	suiteBinary  = "suites.test"
	ginkgoBinary = "ginkgo"
)

// locator finds the binaries conform runs.
type locator struct {
	// dirs are searched in order after an explicit path: the directory of
	// the conform executable (bin/ after make build), then ./bin, for
	// `go run ./cmd/conform` from the repository root.
	dirs []string
	// lookPath searches PATH (exec.LookPath).
	lookPath func(string) (string, error)
}

func (e *env) locator() locator {
	var dirs []string
	if e.exeDir != "" {
		dirs = append(dirs, e.exeDir)
	}
	if e.cwd != "" {
		dirs = append(dirs, filepath.Join(e.cwd, "bin"))
	}
	return locator{dirs: dirs, lookPath: e.lookPath}
}

// find returns the path of the binary name: explicit if given (it must
// exist), else the first of l.dirs holding it, else from PATH. A missing
// binary is a harness error whose message says how to get it.
func (l locator) find(name, explicit, flagName string) (string, error) {
	if explicit != "" {
		if err := isExecutable(explicit); err != nil {
			return "", harnessErrorf("--%s %s: %v (run make build)", flagName, explicit, err)
		}
		return filepath.Abs(explicit)
	}
	for _, d := range l.dirs {
		p := filepath.Join(d, name)
		if isExecutable(p) == nil {
			return p, nil
		}
	}
	if l.lookPath != nil {
		if p, err := l.lookPath(name); err == nil {
			return filepath.Abs(p)
		}
	}
	return "", harnessErrorf("%s not found next to conform, in ./bin or on PATH (run make build, or pass --%s)", name, flagName)
}

func isExecutable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("not found: %w", err)
	case fi.IsDir():
		return fmt.Errorf("is a directory")
	case fi.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("not executable")
	}
	return nil
}
