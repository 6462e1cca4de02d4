package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/conform-harness/conform/load"
	"github.com/conform-harness/conform/target"
)

// streamOptions are the flags of the stream scenarios (ws-market,
// ws-connect, ws-trading and the v2 ws2-market, ws2-trading).
type streamOptions struct {
	subscribers   int
	channels      string
	trades        tradeList
	sourceAddrs   int
	connectRate   float64
	slowConsumers int
	slowDelay     time.Duration
	drain         time.Duration
}

// tradeList is a repeatable --trade flag.
type tradeList []load.TradeSpec

func (l *tradeList) String() string { return joinFlag(*l) }

func (l *tradeList) Set(s string) error {
	t, err := load.ParseTradeSpec(s)
	if err != nil {
		return err
	}
	*l = append(*l, t)
	return nil
}

// streamFlags adds the stream scenarios' flags to the load flag set.
func streamFlags(fs *flag.FlagSet, o *streamOptions) {
	fs.IntVar(&o.subscribers, "subscribers", 100, "ws-market, ws2-market: market data subscribers (connections), spread over --channels and the traded symbols")
	fs.StringVar(&o.channels, "channels", strings.Join(load.DefaultChannels(), ","), "ws-market, ws2-market: comma-separated market data `channels` the subscribers spread over (ws2-market: ticker, orderbook, trades, candles[/PERIOD]; default "+strings.Join(load.DefaultV2Channels(), ",")+")")
	fs.Var(&o.trades, "trade", "ws-market, ws2-market: a trade the driver makes, `SYMBOL:QUANTITY@PRICE` (repeatable; default "+fmt.Sprint(load.DefaultTrades())+")")
	fs.IntVar(&o.sourceAddrs, "source-addrs", 0, "stream scenarios: spread connections over `N` loopback source addresses 127.1.x.y (loopback targets only; 0: ws-market and ws2-market one per 20 connections, the others one)")
	fs.Float64Var(&o.connectRate, "connect-rate", 8, "ws-market, ws2-market: connections opened per second per source address (the documented v3 stream limit is 10 messages/s per address)")
	fs.IntVar(&o.slowConsumers, "slow-consumers", 0, "ws-market, ws2-market: extra trades subscribers that pause --slow-delay after every message")
	fs.DurationVar(&o.slowDelay, "slow-delay", 100*time.Millisecond, "ws-market, ws2-market: the slow consumers' pause per message")
	fs.DurationVar(&o.drain, "drain", 2*time.Second, "ws-market, ws2-market: how long subscribers keep reading after the driver stopped")
}

// checkStream checks the stream flags of a parsed load command line.
func checkStream(o *loadOptions) error {
	s := &o.stream
	if !load.IsStream(o.scenario) {
		for _, name := range []string{"subscribers", "channels", "trade", "source-addrs", "connect-rate", "slow-consumers", "slow-delay", "drain"} {
			if o.set[name] {
				return usageErrorf("load: --%s applies to the stream scenarios (%s), not to %s", name, strings.Join(load.StreamScenarioNames(), ", "), o.scenario)
			}
		}
		for _, t := range o.thresholds {
			if t.StreamOnly() {
				return usageErrorf("load: threshold %s applies to the stream scenarios, not to %s", t, o.scenario)
			}
		}
		return nil
	}
	switch {
	case o.pacing.IsRamp() || o.pacing.IsUnlimited():
		return usageErrorf("load: %s takes a constant --rate (trades or connections per second), not a ramp or max", o.scenario)
	case s.subscribers < 1 || s.subscribers > 100000:
		return usageErrorf("load: --subscribers %d: want 1 to 100000", s.subscribers)
	case s.sourceAddrs < 0 || s.sourceAddrs > 60000:
		return usageErrorf("load: --source-addrs %d: want 0 to 60000", s.sourceAddrs)
	case s.connectRate <= 0:
		return usageErrorf("load: --connect-rate must be positive")
	case s.slowConsumers < 0 || s.slowDelay <= 0 || s.drain < 0:
		return usageErrorf("load: --slow-consumers, --slow-delay and --drain must not be negative")
	case o.localAddr != "" && s.sourceAddrs > 0:
		return usageErrorf("load: give --local-addr or --source-addrs, not both")
	case o.set["workers"] || o.set["max-workers"] || o.set["connections"] || o.set["net-http"]:
		return usageErrorf("load: --workers, --max-workers, --connections and --net-http apply to the REST scenarios; %s takes --subscribers", o.scenario)
	}
	if o.scenario == load.ScenarioWS2Market && !o.set["channels"] {
		s.channels = strings.Join(load.DefaultV2Channels(), ",")
	}
	for _, ch := range strings.Split(s.channels, ",") {
		if strings.TrimSpace(ch) == "" {
			return usageErrorf("load: --channels %q: an empty channel name", s.channels)
		}
		if o.scenario == load.ScenarioWS2Market {
			if err := load.CheckV2Channel(strings.TrimSpace(ch)); err != nil {
				return usageErrorf("load: --channels: %v", strings.TrimPrefix(err.Error(), "stream: "))
			}
		}
	}
	return nil
}

// defaultStreamThresholds apply when no --threshold is given.
func defaultStreamThresholds(scenario string) []load.Threshold {
	exprs := []string{"success>=0.99", "gaps==0", "disconnects==0"}
	if scenario == load.ScenarioWSConnect {
		exprs = []string{"disconnects==0"} // failures past the cap are the finding, not a breach
	}
	var ts []load.Threshold
	for _, e := range exprs {
		t, err := load.ParseThreshold(e)
		if err != nil {
			panic(err) // constants
		}
		ts = append(ts, t)
	}
	return ts
}

// streamKeys are the maker and taker of ws-market and ws2-market: the key
// of role full (or trade-only) and the counterparty's.
func streamKeys(cfg target.Config) (maker, taker target.Account, err error) {
	k, err := tradingKey(cfg)
	if err != nil {
		return maker, taker, err
	}
	c, ok := cfg.Accounts[target.RoleCounterparty]
	if !ok {
		return maker, taker, fmt.Errorf("ws-market and ws2-market trade between two accounts: it needs a key of role %s beside %s", target.RoleCounterparty, target.RoleFull)
	}
	return target.Account{APIKey: k.Key, Secret: k.Secret}, c, nil
}

// sources picks the source addresses of a stream run.
func sources(o *loadOptions, base *url.URL, conns int) ([]net.IP, error) {
	if o.localIP != nil {
		return []net.IP{o.localIP}, nil
	}
	n := o.stream.sourceAddrs
	host := base.Hostname()
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	if n == 0 {
		if !loopback || !load.IsMarket(o.scenario) {
			return nil, nil
		}
		n = (conns + 19) / 20
	}
	if !loopback {
		return nil, usageErrorf("load: --source-addrs needs a loopback target (127.0.0.0/8), not %s: elsewhere, run more workers", host)
	}
	return load.LoopbackSources(n), nil
}

// runStream runs a stream scenario against cfg (already resolved, the
// embedded emulator started) and writes its reports into outDir.
func runStream(ctx context.Context, o *loadOptions, cfg target.Config, base *url.URL, where, outDir string, e *env) (*load.StreamAnalysis, error) {
	conf, err := cfg.TLS()
	if err != nil {
		return nil, usageErrorf("load: %v", err)
	}
	sc := load.StreamConfig{Scenario: o.scenario, Base: base, Subscribers: o.stream.subscribers, Trades: o.stream.trades,
		Rate: float64(o.pacing.Rate.Freq) / o.pacing.Rate.Per.Seconds(), Duration: o.duration, Drain: o.stream.drain, ConnectRate: o.stream.connectRate,
		SlowConsumers: o.stream.slowConsumers, SlowDelay: o.stream.slowDelay, TLS: conf, WorkerID: o.workerID,
		Timeout: o.timeout, Progress: e.stderr}
	for _, ch := range strings.Split(o.stream.channels, ",") {
		sc.Channels = append(sc.Channels, strings.TrimSpace(ch))
	}
	if load.IsTrading(o.scenario) {
		k, err := tradingKey(cfg)
		if err != nil {
			return nil, usageErrorf("load: %v", err)
		}
		sc.Maker, sc.Side = k, o.orderSide
		sc.Trades = []load.TradeSpec{{Symbol: o.orderSymbol, Quantity: o.orderQuantity, Price: o.orderPrice}}
	}
	if load.IsMarket(o.scenario) {
		maker, taker, err := streamKeys(cfg)
		if err != nil {
			return nil, usageErrorf("load: %v", err)
		}
		sc.Maker.Key, sc.Maker.Secret = maker.APIKey, maker.Secret
		sc.Taker.Key, sc.Taker.Secret = taker.APIKey, taker.Secret
	}
	if sc.SourceAddrs, err = sources(o, base, o.stream.subscribers+o.stream.slowConsumers); err != nil {
		return nil, err
	}
	ts := []load.Threshold(o.thresholds)
	if o.thresholds == nil {
		ts = defaultStreamThresholds(o.scenario)
	}
	what := fmt.Sprintf("%d subscribers, %s trades", o.stream.subscribers, o.pacing)
	switch o.scenario {
	case load.ScenarioWSConnect:
		what = fmt.Sprintf("%s connection attempts", o.pacing)
	case load.ScenarioWSTrading, load.ScenarioWS2Trading:
		what = fmt.Sprintf("%s orders and cancels", o.pacing)
	}
	title := fmt.Sprintf("conform load: %s (%s) for %s against %s", o.scenario, what, o.duration, where)
	fmt.Fprintln(e.stderr, title)
	a, err := load.ExecuteStream(ctx, outDir, sc, title, ts)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, harnessErrorf("load: interrupted before anything was measured")
		}
		return nil, harnessErrorf("%w", err)
	}
	return a, nil
}

// streamOutcome prints a stream run's summary and maps its verdict to the
// exit status, as loadOutcome does for a REST run.
func streamOutcome(a *load.StreamAnalysis, outDir string, w io.Writer, sig os.Signal) error {
	fmt.Fprintln(w)
	if err := a.Summary.WriteText(w); err != nil {
		return harnessError(err)
	}
	fmt.Fprintf(w, "reports: %s\n", outDir)
	return verdictExit(a.Summary.Verdict, outDir, sig)
}
