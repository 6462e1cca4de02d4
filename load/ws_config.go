package load

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
)

// Stream scenario names.
const (
	// ScenarioWSMarket: subscribers on the market data stream, spread over
	// symbols and channels, while a driver trades through the REST API.
	ScenarioWSMarket = "ws-market"
	// ScenarioWSConnect: a ramp of market data stream connections, held
	// open, to the per-address cap and beyond.
	ScenarioWSConnect = "ws-connect"
	// ScenarioWS2Market is ws-market on the v2 market data stream
	// (JSON-RPC 2.0, /api/2/ws/public).
	ScenarioWS2Market = "ws2-market"
	// ScenarioWS2Trading is ws-trading on the v2 trading stream
	// (/api/2/ws/trading). The v2 document states no stream limits, so
	// there is no v2 ws-connect: it would ramp to a cap nobody declared.
	ScenarioWS2Trading = "ws2-trading"
)

// StreamScenarioNames lists the stream scenarios.
func StreamScenarioNames() []string {
	return []string{ScenarioWSConnect, ScenarioWSMarket, ScenarioWSTrading, ScenarioWS2Market, ScenarioWS2Trading}
}

// IsStream tells whether a scenario is a stream scenario (RunStream).
func IsStream(name string) bool { return slicesHas(StreamScenarioNames(), name) }

// IsMarket tells whether a scenario is a market data fan-out (ws-market or
// its v2 counterpart): subscribers and a REST trade driver.
func IsMarket(name string) bool { return name == ScenarioWSMarket || name == ScenarioWS2Market }

// IsTrading tells whether a scenario trades over a trading stream.
func IsTrading(name string) bool { return name == ScenarioWSTrading || name == ScenarioWS2Trading }

// IsV2 tells whether a stream scenario speaks the v2 streams' JSON-RPC.
func IsV2(name string) bool { return name == ScenarioWS2Market || name == ScenarioWS2Trading }

// DefaultChannels are the market data channels ws-market spreads its
// subscribers over: the documented trades and candles, and the ticker and
// full order book the document names without their contents.
func DefaultChannels() []string {
	return []string{"trades", "candles/M1", "ticker/1s", "orderbook/full"}
}

// TradeSpec is a trade the ws-market driver makes over and over: one
// account rests a limit order of Quantity at Price, the other takes it
// with an immediate-or-cancel order at the same price (the roles swap every
// round, so balances stay put).
type TradeSpec struct{ Symbol, Quantity, Price string }

func (t TradeSpec) String() string { return t.Symbol + ":" + t.Quantity + "@" + t.Price }

// DefaultTrades are ws-market's default trades: tiny quantities at round
// prices on two symbols.
func DefaultTrades() []TradeSpec {
	return []TradeSpec{{"BTCUSDT", "0.0001", "1000.00"}, {"ETHUSDT", "0.001", "100.00"}}
}

// ParseTradeSpec reads SYMBOL:QUANTITY@PRICE.
func ParseTradeSpec(s string) (TradeSpec, error) {
	sym, rest, ok1 := strings.Cut(strings.TrimSpace(s), ":")
	q, p, ok2 := strings.Cut(rest, "@")
	if !ok1 || !ok2 || sym == "" || q == "" || p == "" || strings.ContainsAny(sym+q+p, " &=") {
		return TradeSpec{}, fmt.Errorf("trade %q: want SYMBOL:QUANTITY@PRICE, e.g. BTCUSDT:0.0001@1000.00", s)
	}
	return TradeSpec{sym, q, p}, nil
}

// StreamConfig configures one stream run (one worker).
type StreamConfig struct {
	Scenario string
	// Base is the target's REST base URL (from ParseBase); the market
	// data stream is Base + /api/3/ws/public (ws or wss), or
	// /api/2/ws/public for the v2 scenarios.
	Base *url.URL
	// Subscribers is the number of market data connections (ws-market,
	// ws2-market).
	Subscribers int
	// Channels the subscribers spread over (default DefaultChannels, or
	// DefaultV2Channels for ws2-market).
	Channels []string
	// Trades the driver makes, in turn (default DefaultTrades); their
	// symbols are the ones subscribed to.
	Trades []TradeSpec
	// Rate is trades per second (ws-market) or connection attempts per
	// second (ws-connect).
	Rate     float64
	Duration time.Duration
	// Drain is how long the subscribers keep reading after the driver
	// stopped (default 2s).
	Drain time.Duration
	// Side is the side of ws-trading's resting orders (default buy).
	Side string
	// Maker and Taker sign the driver's orders: two accounts (ws-trading:
	// the maker's key alone).
	Maker, Taker client.Credential
	// SourceAddrs are the source addresses connections are spread over
	// (none: the system's choice).
	SourceAddrs []net.IP
	// ConnectRate bounds the connections opened per second from each
	// source address (ws-market; default 8, under the documented 10
	// messages per second per address).
	ConnectRate float64
	// SlowConsumers are extra trades subscribers that pause SlowDelay
	// after every message.
	SlowConsumers int
	SlowDelay     time.Duration
	TLS           *tls.Config
	WorkerID      int
	// Timeout bounds a handshake, a subscription and a REST request.
	Timeout  time.Duration
	Progress io.Writer
	Now      func() time.Time
}

func (c *StreamConfig) check() error {
	switch {
	case c.Base == nil:
		return errors.New("stream: no target")
	case !IsStream(c.Scenario):
		return fmt.Errorf("stream: %q is not a stream scenario", c.Scenario)
	case c.Duration <= 0:
		return errors.New("stream: duration must be positive")
	case c.Rate <= 0:
		return errors.New("stream: rate must be positive")
	case IsMarket(c.Scenario) && c.Subscribers < 1:
		return fmt.Errorf("stream: %s needs at least one subscriber", c.Scenario)
	case IsTrading(c.Scenario) && c.Maker.Key == "":
		return fmt.Errorf("stream: %s needs an API key", c.Scenario)
	case IsMarket(c.Scenario) && (c.Maker.Key == "" || c.Taker.Key == "" || c.Maker.Key == c.Taker.Key):
		return fmt.Errorf("stream: %s trades between two accounts: it needs a maker and a taker key of different accounts", c.Scenario)
	}
	if len(c.Channels) == 0 {
		c.Channels = DefaultChannels()
		if IsV2(c.Scenario) {
			c.Channels = DefaultV2Channels()
		}
	}
	if c.Scenario == ScenarioWS2Market {
		for _, ch := range c.Channels {
			if err := CheckV2Channel(ch); err != nil {
				return err
			}
		}
	}
	if len(c.Trades) == 0 {
		c.Trades = DefaultTrades()
	}
	if c.Side == "" {
		c.Side = "buy"
	}
	if c.Drain <= 0 {
		c.Drain = 2 * time.Second
	}
	if c.ConnectRate <= 0 {
		c.ConnectRate = 8
	}
	if c.SlowDelay <= 0 {
		c.SlowDelay = 100 * time.Millisecond
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return nil
}

// symbols are the trades' symbols, each once.
func (c *StreamConfig) symbols() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range c.Trades {
		if !seen[t.Symbol] {
			seen[t.Symbol] = true
			out = append(out, t.Symbol)
		}
	}
	return out
}

// wsURL is the v3 market data stream's URL.
func wsURL(base *url.URL) string { return streamURL(base, "/api/3/ws/public") }

// streamURL is the URL of the stream at path below the target's base.
func streamURL(base *url.URL, path string) string {
	u := *base
	u.Scheme = map[string]string{"https": "wss"}[base.Scheme]
	if u.Scheme == "" {
		u.Scheme = "ws"
	}
	u.Path = strings.TrimRight(base.Path, "/") + path
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// url is the stream the scenario connects to: the market data stream of
// its API version, or the trading stream.
func (c *StreamConfig) url() string {
	switch {
	case c.Scenario == ScenarioWS2Trading:
		return streamURL(c.Base, "/api/2/ws/trading")
	case IsV2(c.Scenario):
		return streamURL(c.Base, "/api/2/ws/public")
	case c.Scenario == ScenarioWSTrading:
		return streamURL(c.Base, "/api/3/ws/trading")
	}
	return wsURL(c.Base)
}

// LoopbackSources returns n source addresses on loopback (127.1.x.y), so
// that a run's connections count as n client addresses on a loopback
// target.
func LoopbackSources(n int) []net.IP {
	out := make([]net.IP, n)
	for i := range out {
		out[i] = net.IPv4(127, 1, byte(i/250), byte(i%250+1))
	}
	return out
}
