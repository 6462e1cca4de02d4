//go:build !linux

package load

// useLoops: event loops are Linux's (see evloop_linux.go); elsewhere every
// run has a goroutine per connection.
func (e *engine) useLoops() bool { return false }

// loopPolicy is the event loops' (see evloop_balance_linux.go).
type loopPolicy struct{}

func defaultLoopPolicy() loopPolicy { return loopPolicy{} }
