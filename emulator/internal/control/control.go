// Package control is the emulator's control plane: reset, fund an account,
// move the clock. It is served under /_conform/ only when the emulator runs
// as a test target, for specs labelled emulator-only; it is not part of the
// documented API.
package control

import (
	"encoding/json"
	"net/http"
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

// Plane serves the control endpoints.
type Plane struct {
	Clock  *clock.Offset
	Funder Funder
	Reset  Resetter
	Faults *faults.Set
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
