package target

import "strings"

// Where the harness may trade. The live-trading guard decides per
// destination host: authenticated mutating REST requests and trading stream
// messages go only to a host:port that is the conform emulator (the REST
// target proven by its control plane; a stream target on the same host:port,
// or proven by its own) or is declared a sandbox. Sandbox declares the REST
// and the stream target; RESTSandbox and WSSandbox one of them. A
// declaration is of a host:port: a stream target on the REST target's
// host:port shares its verdict. AllowLiveTrading permits every host.

// TradingDestinations lists the base URLs (REST or stream) whose hosts may
// receive trading requests; all is set when every host may
// (--allow-live-trading).
func (c *Config) TradingDestinations() (dests []string, all bool) {
	if c.AllowLiveTrading {
		return nil, true
	}
	if c.REST != "" && (c.Emulator || c.Sandbox || c.RESTSandbox) {
		dests = append(dests, c.REST)
	}
	if ws := c.wsURL(); ws != "" && (c.WSEmulator || c.Sandbox || c.WSSandbox) {
		dests = append(dests, ws)
	}
	return dests, false
}

// mayTradeAt reports whether trading requests may go to base's host.
func (c *Config) mayTradeAt(base string) bool {
	dests, all := c.TradingDestinations()
	if all {
		return true
	}
	for _, d := range dests {
		if sameHost(d, base) {
			return true
		}
	}
	return false
}

// MayTrade says whether order-placing REST requests may be sent to the
// REST target, and if not, why.
func (c *Config) MayTrade() (bool, string) {
	if c.mayTradeAt(c.REST) {
		return true, ""
	}
	return false, "the target is neither the conform emulator nor declared a sandbox (set sandbox in the config, pass --sandbox or --rest-sandbox, or pass --allow-live-trading)"
}

// MayTradeStream says whether trading messages (orders, replacements,
// cancellations, transfers) may be sent on the stream target, and if not,
// why.
func (c *Config) MayTradeStream() (bool, string) {
	ws := c.wsURL()
	if ws != "" && c.mayTradeAt(ws) {
		return true, ""
	}
	return false, "the stream target " + ws + " is neither the conform emulator nor declared a sandbox (pass --ws-sandbox or set ws_sandbox in the config, --sandbox for both targets, or --allow-live-trading)"
}

// wsURL is the stream target, derived from REST when not given.
func (c *Config) wsURL() string {
	if c.WS != "" {
		return c.WS
	}
	if c.REST == "" {
		return ""
	}
	return DeriveWS(c.REST)
}

// sameHost reports whether two base URLs (http, https, ws or wss) connect
// to one host:port.
func sameHost(a, b string) bool {
	ha, errA := HostPort(a)
	hb, errB := HostPort(b)
	return errA == nil && errB == nil && strings.EqualFold(ha, hb)
}

// httpBase maps a stream base URL to the HTTP base URL of the same host
// and prefix (ws to http, wss to https), where a control plane would be.
func httpBase(ws string) string {
	switch {
	case strings.HasPrefix(ws, "wss://"):
		return "https://" + strings.TrimPrefix(ws, "wss://")
	case strings.HasPrefix(ws, "ws://"):
		return "http://" + strings.TrimPrefix(ws, "ws://")
	}
	return ws
}
