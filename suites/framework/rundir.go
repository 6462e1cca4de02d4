package framework

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
)

// RunDir is a directory the Ginkgo processes of one run share, for kind
// (e.g. "lanes", "pacing"): named for the run's parallel server (every
// process of a run is told its address, and runs side by side, as conform
// mutate starts them, each have their own), or for the process itself
// when it runs alone. Process 1 removes it after the suite (RemoveRunDirs).
func RunDir(kind string) string {
	suite, _ := GinkgoConfiguration()
	name := fmt.Sprintf("pid-%d", os.Getpid())
	if suite.ParallelTotal > 1 && suite.ParallelHost != "" {
		h := fnv.New64a()
		_, _ = h.Write([]byte(suite.ParallelHost))
		name = fmt.Sprintf("run-%x", h.Sum64())
	}
	return filepath.Join(os.TempDir(), "conform-"+kind+"-"+name)
}

// runPacer paces this process's requests under per-IP rows together with
// the run's other processes, which share the source address: one budget
// in a file of the run's pacing directory, named for what it paces, so a
// process may use what the others leave. Where the file cannot be shared
// it paces alone at its 1/n share.
func runPacer(name string, classes []client.PathClass, n int) *client.Pacer {
	share := 1 / float64(n)
	if n <= 1 {
		return client.NewPacer(classes, share)
	}
	dir := RunDir("pacing")
	if err := os.MkdirAll(dir, 0o700); err == nil {
		file := strings.NewReplacer("/", "-").Replace(strings.Trim(name, "/"))
		if p, err := client.NewSharedPacer(classes, filepath.Join(dir, file), share); err == nil {
			return p
		}
	}
	return client.NewPacer(classes, share)
}

// RemovePacing removes the run's pacing directory (process 1, after the
// suite).
func RemovePacing() { _ = os.RemoveAll(RunDir("pacing")) }
