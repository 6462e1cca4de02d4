package client

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Guard is the one live-trading guard: it decides, per destination host,
// whether an authenticated request that may change state (POST, PUT,
// PATCH, DELETE) or a stream frame that trades or moves funds may leave the
// harness. Every REST client, stream connection and load offer consults it
// with the URL it actually sends to, so a spec, scenario or cleanup that
// forgets to ask cannot place, change or cancel anything on a host that is
// neither the emulator nor a declared sandbox, even when the REST and
// stream targets are different hosts. Unauthenticated requests, reads and
// stream methods that do not trade always pass.
//
// The zero value and nil refuse everywhere, so that forgetting to configure
// the guard is safe. A Guard is immutable and safe for concurrent use.
type Guard struct {
	all   bool
	hosts map[string]bool // destinations (host:port) that may trade
	why   string
}

// PermitTrading returns a guard that lets authenticated mutating requests
// through to every destination: --allow-live-trading.
func PermitTrading() *Guard { return &Guard{all: true} }

// PermitOnly returns a guard that lets authenticated mutating requests and
// trading stream frames through to the given destinations only (base URLs
// of any scheme, http, https, ws or wss, or host:port): the emulator and
// the declared sandboxes. A destination that cannot be read permits
// nothing. why, when not empty, replaces the default reason of a refusal
// (which names the destination and how to declare it).
func PermitOnly(why string, destinations ...string) *Guard {
	g := &Guard{hosts: map[string]bool{}, why: why}
	for _, d := range destinations {
		if h, err := Destination(d); err == nil {
			g.hosts[h] = true
		}
	}
	return g
}

// RefuseTrading returns a guard that refuses authenticated mutating
// requests everywhere, giving why (which should say how to allow them).
func RefuseTrading(why string) *Guard { return &Guard{why: why} }

// ErrLiveTrading is wrapped by every refusal of the guard.
var ErrLiveTrading = errors.New("live-trading guard: authenticated mutating request refused")

// Mutating reports whether method may change state on the target.
func Mutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// Destination is the host:port a URL connects to (the host in lower case,
// the scheme's default port filled in: 80 for http and ws, 443 for https
// and wss). A bare host:port is returned as it is, in lower case.
func Destination(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		host, port, err := net.SplitHostPort(raw)
		if err != nil || host == "" {
			return "", fmt.Errorf("destination %q: want a URL or host:port", raw)
		}
		return net.JoinHostPort(strings.ToLower(host), port), nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("destination %q: %w", raw, err)
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("destination %q: no host", raw)
	}
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http", "ws":
			port = "80"
		case "https", "wss":
			port = "443"
		default:
			return "", fmt.Errorf("destination %q: no port and an unknown scheme", raw)
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port), nil
}

// Allows reports whether trading requests may be sent to dest (a URL or
// host:port).
func (g *Guard) Allows(dest string) bool {
	if g == nil {
		return false
	}
	if g.all {
		return true
	}
	h, err := Destination(dest)
	return err == nil && g.hosts[h]
}

// Check returns nil when a request with this method, authenticated or not,
// may be sent to dest (the URL it goes to), and an error wrapping
// ErrLiveTrading that says why not.
func (g *Guard) Check(method, dest string, authenticated bool) error {
	if !authenticated || !Mutating(method) || g.Allows(dest) {
		return nil
	}
	return g.refusal(method+" "+withoutQuery(dest), dest)
}

// CheckHeader is Check for a request about to be sent to dest with header
// h: it is authenticated when it carries an Authorization header.
func (g *Guard) CheckHeader(method, dest string, h http.Header) error {
	return g.Check(method, dest, h.Get("Authorization") != "")
}

// CheckStream returns nil when a frame calling method may be sent on the
// stream at dest (the URL the connection was opened to), and an error
// wrapping ErrLiveTrading when the method trades or moves funds (see
// TradingStreamMethod) and dest may not trade.
func (g *Guard) CheckStream(dest, method string) error {
	if !TradingStreamMethod(method) || g.Allows(dest) {
		return nil
	}
	return g.refusal("stream method "+method+" on "+withoutQuery(dest), dest)
}

func (g *Guard) refusal(what, dest string) error {
	why := ""
	if g != nil {
		why = g.why
	}
	if why == "" {
		host, err := Destination(dest)
		if err != nil {
			host = fmt.Sprintf("%q", dest)
		}
		why = host + " is neither the conform emulator nor a declared sandbox (declare the REST and stream targets with --sandbox or \"sandbox\": true, " +
			"one of them with --rest-sandbox/--ws-sandbox or \"rest_sandbox\"/\"ws_sandbox\": true, or pass --allow-live-trading)"
	}
	return fmt.Errorf("%w: %s not sent: %s", ErrLiveTrading, what, why)
}

// withoutQuery drops a URL's query (which may carry credentials) for a
// message.
func withoutQuery(s string) string {
	s, _, _ = strings.Cut(s, "?")
	return s
}
