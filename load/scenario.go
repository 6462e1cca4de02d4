package load

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Scenario names.
const (
	ScenarioPublic = "public" // market data: symbols, currencies, futures candles
	ScenarioOrders = "orders" // place a resting limit order far from the market, then cancel it
	ScenarioMixed  = "mixed"  // one market-data request for every four order requests
)

// A Scenario builds the requests of a capacity run.
type Scenario interface {
	// Name is the scenario's name (ScenarioPublic, ...).
	Name() string
	// Targeter builds each request fresh when Vegeta is about to send it.
	Targeter() vegeta.Targeter
}

// An Observer sees every result as it arrives, from one goroutine; a
// scenario whose next requests depend on earlier responses implements it.
type Observer interface {
	Observe(r *vegeta.Result)
}

// A Cleaner undoes what a scenario left on the target after the run (such
// as resting orders); its requests are not part of the results.
type Cleaner interface {
	Cleanup(ctx context.Context, c *http.Client) (CleanupReport, error)
}

// CleanupReport says what a Cleaner found and did.
type CleanupReport struct {
	Left     int `json:"left"`     // objects the run left behind (orders still resting, or unknown after a failed cancel)
	Removed  int `json:"removed"`  // removed by the cleanup
	Gone     int `json:"gone"`     // already gone (e.g. order not found)
	Failures int `json:"failures"` // could not be removed
}

// OrderParams are the order a trading scenario places and cancels; the
// default is a buy far below any plausible market so that it rests.
type OrderParams struct {
	Symbol, Side, Quantity, Price string
}

// DefaultOrderParams is a 0.001 BTCUSDT buy at 1.00 USDT: it rests on any
// market and reserves a thousandth of a USDT.
func DefaultOrderParams() OrderParams {
	return OrderParams{Symbol: "BTCUSDT", Side: "buy", Quantity: "0.001", Price: "1.00"}
}

// ScenarioConfig is what scenarios are built from.
type ScenarioConfig struct {
	// Base is the target's REST base URL (before /api/3), from ParseBase.
	Base *url.URL
	// Key signs private requests (trading scenarios only).
	Key client.Credential
	// Order is the order the trading scenarios place; zero means DefaultOrderParams.
	Order OrderParams
	// WorkerID goes into every client_order_id, so that workers sharing
	// an account never collide.
	WorkerID int
	// Now gives the signature timestamps; nil means time.Now.
	Now func() time.Time
}

// ScenarioNames lists the named scenarios, the stream ones (IsStream,
// RunStream) included.
func ScenarioNames() []string {
	names := append([]string{ScenarioPublic, ScenarioOrders, ScenarioMixed}, StreamScenarioNames()...)
	sort.Strings(names)
	return names
}

// Trades reports whether a named scenario places orders, which needs a key
// with the right to trade and a target that may be traded on.
func Trades(name string) bool {
	return name == ScenarioOrders || name == ScenarioMixed || IsMarket(name) || IsTrading(name)
}

// NewScenario builds a named scenario.
func NewScenario(name string, cfg ScenarioConfig) (Scenario, error) {
	if cfg.Base == nil {
		return nil, fmt.Errorf("scenario %s: no target", name)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Order == (OrderParams{}) {
		cfg.Order = DefaultOrderParams()
	}
	if Trades(name) && (cfg.Key.Key == "" || cfg.Key.Secret == "") {
		return nil, fmt.Errorf("scenario %s places orders: it needs an API key and secret", name)
	}
	switch name {
	case ScenarioPublic:
		return newPublic(cfg), nil
	case ScenarioOrders:
		return newOrders(cfg)
	case ScenarioMixed:
		o, err := newOrders(cfg)
		if err != nil {
			return nil, err
		}
		return &mixed{public: newPublic(cfg), orders: o}, nil
	}
	return nil, fmt.Errorf("unknown scenario %q (want one of %s)", name, strings.Join(ScenarioNames(), ", "))
}

// apiBase is the URL every v3 path is appended to.
func apiBase(base *url.URL) string { return strings.TrimRight(base.String(), "/") + "/api/3" }

// apiPath is the path part of apiBase, which signatures cover.
func apiPath(base *url.URL) string { return strings.TrimRight(base.Path, "/") + "/api/3" }

// nonce returns n random base-36 characters, to tell runs apart.
func nonce(n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		v, err := rand.Int(rand.Reader, big.NewInt(int64(len(digits))))
		if err != nil { // crypto/rand does not fail on supported platforms
			panic(fmt.Sprintf("load: crypto/rand: %v", err))
		}
		b[i] = digits[v.Int64()]
	}
	return string(b)
}
