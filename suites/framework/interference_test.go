package framework

import (
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// The specs below run in this package's own Ginkgo suite: each counts its
// attempts, and a ReportAfterEach keeps how it ended.
var (
	interferenceMu       sync.Mutex
	interferenceAttempts = map[string]int{}
	interferenceStates   = map[string]types.SpecState{}
)

func attempted(name string) int {
	interferenceMu.Lock()
	defer interferenceMu.Unlock()
	interferenceAttempts[name]++
	return interferenceAttempts[name]
}

var _ = Describe("interference", Label("framework-self-test"), func() {
	It("runs once more after one interference and passes", func() {
		if attempted("once") == 1 {
			Interfered("a sell of someone else's was at the price")
		}
	})
	It("skips after two interferences", func(ctx SpecContext) {
		attempted("twice")
		Interfered("again")
	})
	DescribeTable("wraps table entries too",
		func(n int) {
			if attempted("table") == 1 {
				Interfered("in a table")
			}
		},
		Entry("one", 1),
	)
	It("lets an ordinary skip through on the first attempt", func() {
		attempted("skip")
		Skip("not applicable")
	})
	ReportAfterEach(func(r SpecReport) {
		interferenceMu.Lock()
		defer interferenceMu.Unlock()
		interferenceStates[r.LeafNodeText] = r.State
	})
})

func TestInterferedRetriesOnceThenSkips(t *testing.T) {
	env = &Env{}
	defer func() { env = nil }()
	if !RunSpecs(t, "framework") {
		t.Fatal("the self-test suite failed")
	}
	for _, c := range []struct {
		name, spec string
		attempts   int
		state      types.SpecState
	}{
		{"once", "runs once more after one interference and passes", 2, types.SpecStatePassed},
		{"twice", "skips after two interferences", 2, types.SpecStateSkipped},
		{"table", "one", 2, types.SpecStatePassed},
		{"skip", "lets an ordinary skip through on the first attempt", 1, types.SpecStateSkipped},
	} {
		if got := interferenceAttempts[c.name]; got != c.attempts {
			t.Errorf("%s: %d attempts, want %d", c.spec, got, c.attempts)
		}
		if got := interferenceStates[c.spec]; got != c.state {
			t.Errorf("%s: ended %s, want %s", c.spec, got, c.state)
		}
	}
}
