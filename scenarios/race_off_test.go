//go:build !race

package scenarios

// raceEnabled says whether the race detector is on (it slows the harness
// too much for 1-second windows).
const raceEnabled = false
