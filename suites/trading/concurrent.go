package trading

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
)

// Workers is how many requests Each keeps in flight: over a path of tens of
// milliseconds each way, the hundred orders a history spec needs take
// seconds one after the other and a fraction of that sixteen at a time
// (eight left a 40 ms round trip at 200 requests a second, under the order
// paths' 270 of one address). The client's pacer keeps them under the
// documented rate of one address.
const Workers = 16

// Each calls f(i) for i in [0, n), Workers calls at a time, and returns
// when all have returned. f may assert (a failure fails the spec and stops
// the calls not yet started) but must not register cleanups (DeferCleanup
// belongs to the spec's goroutine): orders it places carry the spec's own
// client_order_id, so that the spec cancels them.
func Each(n int, f func(i int)) {
	GinkgoHelper()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		next   int
		failed bool
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if failed || next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range min(Workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer GinkgoRecover()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					failed = true
					mu.Unlock()
					panic(r) // to GinkgoRecover, which fails the spec
				}
			}()
			for {
				i, ok := take()
				if !ok {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if failed {
		// The first failure is the spec's; this one stops its goroutine.
		Fail("a concurrent call failed (see the failure above)")
	}
}
