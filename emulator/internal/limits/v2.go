package limits

import (
	"net/http"

	"github.com/conform-harness/conform/emulator/internal/call"
)

// The v2 Limits section: market data 100 requests per second per IP,
// trading 300 per second per user, everything else (trading history
// included) 10 per second per user. Version 2 names no burst; the emulator
// reads that as none: at most the rate in any one-second window.
func v2Classes() (public, trading, other Class) {
	return Class{"v2 market data /public/*", Limit{100, 0}, "V2-LIMIT-MARKETDATA"},
		Class{"v2 account trading /order, /trading/*", Limit{300, 0}, "V2-LIMIT-TRADING"},
		Class{"v2 account other", Limit{10, 0}, "V2-LIMIT-OTHER"}
}

// v2TradingPrefixes are the trading paths of version 2 (relative to
// /api/2): orders and the trading balance and fee, which the document does
// not show but its Trading row names as a class.
var v2TradingPrefixes = []string{"/order", "/trading"}

// V2Limiter enforces the v2 Limits section for the v2 router. It shares the
// guard's window (its keys are apart from v3's) and faults.
type V2Limiter struct {
	g                      *Guard
	public, trading, other Class
}

// V2 returns the limiter of the v2 router.
func (g *Guard) V2() *V2Limiter {
	skew := func(c Class) Class {
		if g.faults.On(c.Rule) {
			c.Limit.Rate++ // one request too many in every window
		}
		return c
	}
	p, t, o := v2Classes()
	return &V2Limiter{g: g, public: skew(p), trading: skew(t), other: skew(o)}
}

// V2Classes lists the v2 classes in force (for tests and docs).
func (l *V2Limiter) V2Classes() []Class { return []Class{l.public, l.trading, l.other} }

// AllowIP implements api.Limiter: only market data is counted per IP.
func (l *V2Limiter) AllowIP(r *http.Request, path string) *call.Error {
	if l.g.off || !under(path, "/public") {
		return nil
	}
	who := ClientIP(r)
	if ok, wait := l.g.window.Allow(Key{l.public.Name, who}, l.public.Limit); !ok {
		return l.g.tooMany(l.public, who, wait)
	}
	return nil
}

// AllowAccount implements api.Limiter: every authenticated request counts
// against its user, in the trading class or the class of all others.
func (l *V2Limiter) AllowAccount(r *http.Request, path string, p *call.Principal) *call.Error {
	if l.g.off || p == nil || under(path, "/public") {
		return nil
	}
	c := l.other
	for _, pre := range v2TradingPrefixes {
		if under(path, pre) {
			c = l.trading
		}
	}
	who := "account " + p.Account
	if ok, wait := l.g.window.Allow(Key{c.Name, who}, c.Limit); !ok {
		return l.g.tooMany(c, who, wait)
	}
	return nil
}
