package load

import (
	"net/url"
	"sync/atomic"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// publicPaths are the market-data requests of the public scenario, taken
// in turn (spec: Endpoints > Market data).
func publicPaths() []string {
	return []string{
		"/public/symbol",
		"/public/currency",
		"/public/futures/candles/open_interest",
		"/public/futures/candles/premium_index",
	}
}

// public spreads requests evenly over the public market-data endpoints.
type public struct {
	urls []string
	n    atomic.Uint64
}

func newPublic(cfg ScenarioConfig) *public {
	return &public{urls: publicURLs(cfg.Base)}
}

func publicURLs(base *url.URL) []string {
	paths := publicPaths()
	urls := make([]string, len(paths))
	for i, p := range paths {
		urls[i] = apiBase(base) + p
	}
	return urls
}

func (*public) Name() string { return ScenarioPublic }

func (p *public) Targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		p.next(t)
		return nil
	}
}

func (p *public) next(t *vegeta.Target) {
	i := (p.n.Add(1) - 1) % uint64(len(p.urls))
	t.Method, t.URL = "GET", p.urls[i]
}
