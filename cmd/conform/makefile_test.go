package main

import (
	"os/exec"
	"strings"
	"testing"
)

// make bench-compare in a fresh clone builds bin/conform before the
// comparison that runs it (it used to skip the load comparison there).
func TestMakeBenchCompareBuildsTheCLIFirst(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("needs make")
	}
	out, err := exec.Command("make", "-n", "-C", "../..", "--no-print-directory", "bench-compare").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n bench-compare: %v\n%s", err, out)
	}
	build := strings.Index(string(out), "-o bin/conform ./cmd/conform")
	bench := strings.Index(string(out), "cd bench")
	if build < 0 || bench < 0 || build > bench {
		t.Errorf("make bench-compare does not build bin/conform before running bench/:\n%s", out)
	}
}
