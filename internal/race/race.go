// Package race tells a test whether it runs under the race detector, which
// slows some tests about tenfold: randomized property tests shorten
// themselves there (Depth), timing checks widen their bounds.
package race

// Depth is a randomized property test's number of steps: n, a quarter of
// it under the race detector (at least 1). Such tests are single-goroutine,
// so the detector has little to find in them; make test runs them at full
// depth without it too (make unit-deep).
func Depth(n int) int {
	if Enabled {
		return max(1, n/4)
	}
	return n
}
