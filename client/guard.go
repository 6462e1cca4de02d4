package client

import (
	"errors"
	"fmt"
	"net/http"
)

// Guard is the one live-trading guard: it decides whether an authenticated
// request that may change state (POST, PUT, PATCH, DELETE) may leave the
// harness. Every REST client and every load offer consults it before
// sending, so a spec, scenario or cleanup that forgets to ask cannot place,
// change or cancel anything on a target that is neither the emulator nor a
// declared sandbox. Unauthenticated requests and reads always pass: they
// cannot trade.
//
// The zero value and nil refuse, so that forgetting to configure the guard
// is safe. A Guard is immutable and safe for concurrent use.
type Guard struct {
	allow bool
	why   string
}

// PermitTrading returns a guard that lets authenticated mutating requests
// through: for the emulator, a declared sandbox, or --allow-live-trading.
func PermitTrading() *Guard { return &Guard{allow: true} }

// RefuseTrading returns a guard that refuses authenticated mutating
// requests, giving why (which should say how to allow them).
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

// Allows reports whether trading requests may be sent.
func (g *Guard) Allows() bool { return g != nil && g.allow }

// Check returns nil when a request with this method, authenticated or not,
// may be sent, and an error wrapping ErrLiveTrading that says why not.
func (g *Guard) Check(method, path string, authenticated bool) error {
	if !authenticated || !Mutating(method) || g.Allows() {
		return nil
	}
	why := "the target is neither the conform emulator nor a declared sandbox (declare it with --sandbox or \"sandbox\": true, or pass --allow-live-trading)"
	if g != nil && g.why != "" {
		why = g.why
	}
	return fmt.Errorf("%w: %s %s not sent: %s", ErrLiveTrading, method, path, why)
}

// CheckHeader is Check for a request about to be sent with header h: it is
// authenticated when it carries an Authorization header.
func (g *Guard) CheckHeader(method, path string, h http.Header) error {
	return g.Check(method, path, h.Get("Authorization") != "")
}
