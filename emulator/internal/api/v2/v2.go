// Package v2 is the emulator's API version 2: its route table and
// handlers, over the same engine, ledger, wallet and market catalogue as
// version 3, so that both versions show one state.
package v2

import (
	"net/http"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/conform-harness/conform/emulator/internal/wallet"
)

// Prefix is where version 2 is served ({base_url}/api/2).
const Prefix = "/api/2"

// Deps are what the handlers work on.
type Deps struct {
	Market *market.Catalogue
	Ledger *ledger.Ledger
	Engine *engine.Engine
	Wallet *wallet.Wallet
	// Tape is the public market record (trades, candles, 24-hour stats)
	// shared with v3's market data stream.
	Tape   *tape.Tape
	Faults *faults.Set
	Clock  clock.Clock
}

// SharedFaults maps the v3 fault IDs of the shared router, writer and
// credential store to the v2 rules they break when the v2 router uses them.
func SharedFaults() map[string]string {
	return map[string]string{
		"V3-CONV-DECIMAL-STRING":        "V2-CONV-DECIMAL-STRING",
		"V3-CONV-TIMESTAMP":             "V2-CONV-TIMESTAMP",
		"V3-CONV-NUMBER-TYPE":           "V2-CONV-NUMBER-TYPE",
		"V3-CONV-GET-QUERY":             "V2-CONV-GET-QUERY",
		"V3-CONV-BODY-FORM":             "V2-CONV-POST-BODY",
		"V3-AUTH-PUBLIC":                "V2-AUTH-PUBLIC",
		"V3-AUTH-REQUIRED":              "V2-AUTH-REQUIRED",
		"V3-AUTH-BASIC":                 "V2-AUTH-BASIC",
		"V3-AUTH-BASIC-FAIL":            "V2-AUTH-BASIC-FAIL",
		"V3-AUTH-UNKNOWN-KEY":           "V2-AUTH-UNKNOWN-KEY",
		"V3-AUTH-RIGHT-ALONE-ORDERBOOK": "V2-AUTH-RIGHT-ALONE-ORDERBOOK",
		"V3-AUTH-RIGHT-ALONE-PAYMENT":   "V2-AUTH-RIGHT-ALONE-PAYMENT",
		"V3-AUTH-RIGHT-ALONE-WITHDRAW":  "V2-AUTH-RIGHT-ALONE-WITHDRAW",
		"V3-ERR-BODY":                   "V2-ERR-BODY",
		"V3-ERR-401":                    "V2-ERR-401",
		"V3-ERR-1003":                   "V2-ERR-1003",
		"V3-ERR-MESSAGES":               "V2-ERR-MESSAGES",
		"V3-ERR-200":                    "V2-ERR-200",
	}
}

// Messages are the messages of the v2 error table where they differ from
// what the shared code writes.
func Messages() map[int]string {
	return map[int]string{1001: "Authorization required", 1002: "Authorization failed"}
}

// routeSets are the route tables of the v2 families, one function per file;
// a new family adds its function here.
func routeSets() []func(Deps) []api.Route {
	return []func(Deps) []api.Route{
		marketRoutes,      // market.go: documented public market data
		marketExtraRoutes, // marketextra.go: order book, trades, candles (beyond the contract)
		historyRoutes,     // history.go
		accountRoutes,     // account.go
		transferRoutes,    // transfers.go
		tradingRoutes,     // trading.go: orders and trading balance (beyond the contract)
	}
}

// Routes is the v2 route table.
func Routes(d Deps) []api.Route {
	var out []api.Route
	for _, set := range routeSets() {
		out = append(out, set(d)...)
	}
	return out
}

// walletError maps a wallet refusal to the v2 error table.
func walletError(err *wallet.Error, d Deps) *api.Error {
	if err.Kind == wallet.Insufficient && d.Faults.On("V2-ERR-20001") {
		return api.Validation("%s", err.Msg)
	}
	switch err.Kind {
	case wallet.Currency:
		return api.CurrencyNotFound(err.Msg)
	case wallet.Insufficient:
		return &api.Error{Status: http.StatusBadRequest, Code: 20001, Message: "Insufficient funds", Description: err.Msg}
	case wallet.NotAllowed:
		return &api.Error{Status: http.StatusBadRequest, Code: 600, Message: "Action is not allowed", Description: err.Msg}
	case wallet.NotFound:
		return &api.Error{Status: http.StatusBadRequest, Code: api.CodeOrderNotFound, Message: "Not found", Description: err.Msg}
	}
	return api.Validation("%s", err.Msg)
}
