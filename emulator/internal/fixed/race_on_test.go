//go:build race

package fixed

// raceEnabled: the race detector slows the randomized property tests about
// tenfold; under it they run a quarter of their steps (they are single
// goroutine, so it has little to find there), and make test runs them at full
// depth without it (unit-deep).
const raceEnabled = true
