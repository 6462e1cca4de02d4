package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// cpuProfile starts a CPU profile into path when it is set (the
// CONFORM_CPUPROFILE environment variable of conform load: a developer's
// tool for the generator's cost per request, not a documented flag) and
// returns what stops it.
func cpuProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
