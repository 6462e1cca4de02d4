package limits

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/call"
)

// Options configure a Guard.
type Options struct {
	// Clock is the time source of the windows; default the wall clock. The
	// emulator passes its base clock, not the control plane's movable one:
	// moving business time (to expire orders) must not refill the budgets
	// of specs running meanwhile.
	Clock clock.Clock
	// Faults switch on the limit faults (burst off by one per row, fixed
	// window, per-key instead of per-IP, 400 instead of 429, 101st
	// connection).
	Faults *faults.Set
	// Off disables every limit and cap, for capacity runs of the emulator.
	Off bool
}

// Guard enforces the v3 Limits section for the REST router (it implements
// api.Limiter) and for the streams.
type Guard struct {
	table  *Table
	window *Window
	faults *faults.Set
	off    bool

	mu    sync.Mutex
	conns map[Key]int // stream and IP -> open connections
}

// NewGuard builds a guard.
func NewGuard(o Options) *Guard {
	var wopts []WindowOption
	if o.Faults.On("V3-LIMIT-WINDOW") {
		wopts = append(wopts, WithFixedWindow())
	}
	return &Guard{table: NewTable(o.Faults), window: NewWindow(o.Clock, wopts...), faults: o.Faults, off: o.Off, conns: map[Key]int{}}
}

// Table returns the classification in force.
func (g *Guard) Table() *Table { return g.table }

// ClientIP is the address a request is counted under: the TCP peer
// address, so that clients bound to different loopback addresses count as
// different IPs. One exception keeps that true through a proxy on this
// machine (which re-originates every connection from one address): a
// loopback peer's X-Forwarded-For naming a loopback address counts as that
// address. It lets no client choose whom it is counted as beyond what it
// could already choose, since a loopback client can bind any 127.0.0.0/8
// address itself; any other header value or peer is ignored. A peer address
// without a port (a request built in-process) is used as is.
func ClientIP(r *http.Request) string {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		host = h
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if fwd := net.ParseIP(strings.TrimSpace(first)); fwd != nil && fwd.IsLoopback() {
				return fwd.String()
			}
		}
	}
	return host
}

// AllowIP implements api.Limiter: it counts every request under the API
// prefix by its client IP, before routing and authentication, so an unknown
// path or a failed credential spends the budget too.
func (g *Guard) AllowIP(r *http.Request, path string) *call.Error {
	if g.off {
		return nil
	}
	c := g.table.IPClass(path)
	who := ClientIP(r)
	if g.faults.On("V3-LIMIT-PER-IP") {
		// The fault counts by the key a request names, as if the limit were
		// per account, falling back to the IP for anonymous requests.
		if k := claimedKey(r.Header.Get("Authorization")); k != "" {
			who = "key " + k
		}
	}
	if ok, wait := g.window.Allow(Key{"ip " + c.Name, who}, c.Limit); !ok {
		return g.tooMany(c, who, wait)
	}
	return nil
}

// AllowAccount implements api.Limiter: it counts an authenticated request
// against its account when its path has a per-account class.
func (g *Guard) AllowAccount(r *http.Request, path string, p *call.Principal) *call.Error {
	if g.off || p == nil {
		return nil
	}
	c, ok := g.table.AccountClass(path)
	if !ok {
		return nil
	}
	who := "account " + p.Account
	if g.faults.On("V3-LIMIT-PER-ACCOUNT") {
		who = "key " + p.APIKey
	}
	if ok, wait := g.window.Allow(Key{c.Name, who}, c.Limit); !ok {
		return g.tooMany(c, who, wait)
	}
	return nil
}

// AllowMessage counts a stream message by the client IP; on refusal it
// returns the documented error to send back.
func (g *Guard) AllowMessage(stream, ip string) *call.Error {
	if g.off {
		return nil
	}
	c, ok := g.table.StreamClass(stream)
	if !ok {
		return nil
	}
	if ok, wait := g.window.Allow(Key{c.Name, ip}, c.Limit); !ok {
		return g.tooMany(c, ip, wait)
	}
	return nil
}

// AllowMethod counts a stream method of a logged-in account when the method
// has a per-account class. No stream has a login yet (its shape is not
// shown in the spec), so nothing calls it with an account today.
func (g *Guard) AllowMethod(stream, method, account string) *call.Error {
	if g.off || account == "" {
		return nil
	}
	c, ok := g.table.MethodClass(stream, method)
	if !ok {
		return nil
	}
	who := "account " + account
	if ok, wait := g.window.Allow(Key{c.Name, who}, c.Limit); !ok {
		return g.tooMany(c, who, wait)
	}
	return nil
}

// Connect reserves a connection slot of ip on stream. When ok, release
// must be called once the connection is gone.
func (g *Guard) Connect(stream, ip string) (release func(), ok bool) {
	if g.off {
		return func() {}, true
	}
	k := Key{stream, ip}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conns[k] >= g.table.ConnCap() {
		return nil, false
	}
	g.conns[k]++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.conns[k]--; g.conns[k] <= 0 {
				delete(g.conns, k) // keeps the map as small as the open connections
			}
		})
	}, true
}

// TooManyConnections is the answer to a handshake over the cap: HTTP 429
// with the documented error body, the same as an excess REST request.
func (g *Guard) TooManyConnections(stream, ip string) *call.Error {
	return &call.Error{Status: http.StatusTooManyRequests, Code: http.StatusTooManyRequests, Message: "Too many requests",
		Description: fmt.Sprintf("%s already holds %d connections to %s (at most %d per IP address)", ip, g.table.ConnCap(), stream, ConnCap)}
}

// tooMany is the documented error of an excess request. The spec gives
// only the HTTP status (V3-LIMIT-429-CODE); the emulator uses code 429 and
// says which limit was hit and when the budget frees up.
func (g *Guard) tooMany(c Class, who string, wait time.Duration) *call.Error {
	status := http.StatusTooManyRequests
	if g.faults.On("V3-LIMIT-429") {
		status = http.StatusBadRequest
	}
	return &call.Error{Status: status, Code: http.StatusTooManyRequests, Message: "Too many requests",
		Description: fmt.Sprintf("rate limit of %s (%d per second, burst %d) exceeded for %s; retry in %s",
			c.Name, c.Limit.Rate, c.Limit.Burst, who, wait.Round(time.Millisecond))}
}

// claimedKey extracts the API key a Basic or HS256 Authorization header
// names, without verifying it (only the V3-LIMIT-PER-IP fault uses it).
func claimedKey(h string) string {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || (scheme != "Basic" && scheme != "HS256") {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return ""
	}
	key, _, _ := strings.Cut(string(raw), ":")
	return key
}
