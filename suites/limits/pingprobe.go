package limits

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/scenarios"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
)

// The ping spec waits up to pingWait for the server's first ping on a
// connection that only listens: half a minute of one process doing nothing
// (over a path 20 ms each way, an eighth of a remote certification). The
// wait runs beside the other specs instead: each process opens that
// connection when its first spec starts, if the run selected the ping
// spec, and the spec, whenever it runs, reads what the connection saw.

// pingRule is the rule of the ping spec.
const pingRule = "V3-LIMIT-WS-PING"

// pingLabels are the ping spec's labels.
func pingLabels() Labels {
	return append(Label(LabelLimits, LabelSlow), framework.Checks(pingRule)...)
}

// pingOptedOut reports whether the label filter leaves the slow ping spec
// out: no filter, or one that would select it without its slow and rule
// labels too (see requireOptIn).
func pingOptedOut() bool {
	filter := GinkgoLabelFilter()
	labels := pingLabels()
	bare := slices.DeleteFunc(slices.Clone(labels), func(l string) bool { return l == LabelSlow || l == rules.Label(pingRule) })
	return filter == "" || Labels(bare).MatchesLabelFilter(filter)
}

// pingProbe is this process's listening connection.
type pingProbe struct {
	once sync.Once
	done chan struct{}
	d    time.Duration
	err  error
}

var probe = &pingProbe{done: make(chan struct{})}

// start opens the connection in the background, once, when the run
// selected the ping spec.
func (p *pingProbe) start() {
	p.once.Do(func() {
		if pingOptedOut() || !pingLabels().MatchesLabelFilter(GinkgoLabelFilter()) {
			return
		}
		e := framework.Current()
		ctx, cancel := context.WithTimeout(scenarios.WithTLS(context.Background(), e.TLS()), pingWait+10*time.Second)
		url := e.Config.WS + "/api/3/ws/public"
		go func() {
			defer cancel()
			defer close(p.done)
			p.d, p.err = scenarios.WaitPing(ctx, url, nil, pingWait)
		}()
	})
}

// wait returns what the connection saw: its first ping's delay after the
// connection opened, or why none came. It starts the connection when no
// spec of this process has yet.
func (p *pingProbe) wait(ctx context.Context) (time.Duration, error) {
	p.start()
	select {
	case <-p.done:
		return p.d, p.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Every spec of the suite starts its process's probe (once).
var _ = BeforeEach(func() { probe.start() })
