// Package control is the emulator's control plane: reset, fund an account,
// move the clock. It is served under /_conform/ only when the emulator runs
// as a test target, for specs labelled emulator-only; it is not part of the
// documented API.
package control

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/shopspring/decimal"
)

// Prefix is the control plane's path prefix.
const Prefix = "/_conform"

// Funder credits an account identified by one of its API keys.
type Funder interface {
	Fund(apiKey, currency string, amount decimal.Decimal) error
}

// Resetter puts the emulator back to its fixtures.
type Resetter interface {
	Reset() error
}

// Plane serves the control endpoints. Anyone who reaches it can reset the
// exchange, fund any account and move the clock, so it is local: without a
// Token it answers loopback peers only; with one it requires the token
// (Authorization: Bearer <token>, or X-Conform-Token: <token>) from every
// peer, loopback included.
type Plane struct {
	Clock  *clock.Offset
	Funder Funder
	Reset  Resetter
	Faults *faults.Set
	Token  string
}

// TokenHeader carries the control token, as Authorization: Bearer does.
const TokenHeader = "X-Conform-Token"

// admit returns nil when the request may use the control plane. The peer
// is the TCP peer (RemoteAddr): a forwarded address proves nothing.
func (p *Plane) admit(r *http.Request) *api.Error {
	if p.Token != "" {
		got := r.Header.Get(TokenHeader)
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && got == "" {
			got = strings.TrimSpace(bearer)
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(p.Token)) != 1 {
			return &api.Error{Status: http.StatusUnauthorized, Code: 1002, Message: "Authorization required",
				Description: "the control plane requires its token (Authorization: Bearer <token> or " + TokenHeader + ")"}
		}
		return nil
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return &api.Error{Status: http.StatusForbidden, Code: 403, Message: "Forbidden",
			Description: "the control plane answers loopback peers only; start the emulator with a control token (conform emulate --control-token or CONFORM_CONTROL_TOKEN) to reach it from elsewhere"}
	}
	return nil
}

type info struct {
	Emulator bool     `json:"emulator"`
	Now      string   `json:"now"`
	Faults   []string `json:"faults"`
	// RemoteAddr is the client address the emulator saw, so the harness
	// can tell whether a proxy between them merges its source addresses.
	RemoteAddr string `json:"remote_addr"`
}

// ServeHTTP implements http.Handler.
func (p *Plane) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out := &api.Writer{}
	fail := func(e *api.Error) { out.Error(w, r, e) }
	if e := p.admit(r); e != nil {
		fail(e)
		return
	}
	var req struct {
		APIKey   string `json:"api_key"`
		Currency string `json:"currency"`
		Amount   string `json:"amount"`
		Advance  string `json:"advance"`
	}
	if r.Method == http.MethodPost {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
			fail(api.Validation("control plane takes a JSON body: %v", err))
			return
		}
	}
	switch r.Method + " " + r.URL.Path {
	case "GET " + Prefix + "/info":
		out.JSON(w, r, http.StatusOK, info{Emulator: true, Now: p.Clock.Now().Format(time.RFC3339Nano), Faults: p.Faults.IDs(), RemoteAddr: r.RemoteAddr})
	case "POST " + Prefix + "/reset":
		if err := p.Reset.Reset(); err != nil {
			fail(api.Internal("reset: %v", err))
			return
		}
		p.Clock.Reset()
		out.JSON(w, r, http.StatusOK, map[string]bool{"result": true})
	case "POST " + Prefix + "/fund":
		amt, err := api.ParseDecimal(req.Amount)
		if err != nil {
			fail(api.Validation("amount: %v", err))
			return
		}
		if err := p.Funder.Fund(req.APIKey, req.Currency, amt); err != nil {
			fail(api.Validation("fund: %v", err))
			return
		}
		out.JSON(w, r, http.StatusOK, map[string]bool{"result": true})
	case "POST " + Prefix + "/clock":
		d, err := time.ParseDuration(req.Advance)
		if err != nil {
			fail(api.Validation("advance: %v", err))
			return
		}
		p.Clock.Advance(d)
		out.JSON(w, r, http.StatusOK, map[string]string{"now": p.Clock.Now().Format(time.RFC3339Nano)})
	default:
		fail(api.NotFound(r.Method, r.URL.Path))
	}
}
