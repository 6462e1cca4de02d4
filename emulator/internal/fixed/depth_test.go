package fixed

// depth is a property test's number of steps: n, a quarter of it under the race
// detector (see raceEnabled), at least 1.
func depth(n int) int {
	if raceEnabled {
		return max(1, n/4)
	}
	return n
}
