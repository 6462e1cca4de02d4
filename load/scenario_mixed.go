package load

import (
	"context"
	"net/http"
	"sync/atomic"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// mixedPeriod: one request in every mixedPeriod is market data, the rest
// are order placements and cancels.
const mixedPeriod = 5

// mixed interleaves the public and orders scenarios, one market-data
// request for every four order requests.
type mixed struct {
	public *public
	orders *orders
	n      atomic.Uint64
}

func (*mixed) Name() string { return ScenarioMixed }

func (m *mixed) Targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		if (m.n.Add(1)-1)%mixedPeriod == 0 {
			m.public.next(t)
		} else {
			m.orders.next(t)
		}
		return nil
	}
}

// Observe implements Observer.
func (m *mixed) Observe(r *vegeta.Result) { m.orders.Observe(r) }

// Cleanup implements Cleaner.
func (m *mixed) Cleanup(ctx context.Context, c *http.Client) (CleanupReport, error) {
	return m.orders.Cleanup(ctx, c)
}
