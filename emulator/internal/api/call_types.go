package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/call"
	"github.com/shopspring/decimal"
)

// The types of one call live in package call, below the router, so that
// credential and parameter code need not import the router; these names let
// the API versions' handlers keep saying api.Error, api.Request and so on.
type (
	// Error is call.Error.
	Error = call.Error
	// Principal is call.Principal.
	Principal = call.Principal
	// Request is call.Request.
	Request = call.Request
	// Params is call.Params.
	Params = call.Params
)

// MaxBody is call.MaxBody.
const MaxBody = call.MaxBody

// Validation is call.Validation.
func Validation(format string, args ...any) *Error { return call.Validation(format, args...) }

// SymbolNotFound is call.SymbolNotFound.
func SymbolNotFound(symbol string) *Error { return call.SymbolNotFound(symbol) }

// CurrencyNotFound is call.CurrencyNotFound.
func CurrencyNotFound(currency string) *Error { return call.CurrencyNotFound(currency) }

// AuthRequired is call.AuthRequired.
func AuthRequired() *Error { return call.AuthRequired() }

// AuthFailed is call.AuthFailed.
func AuthFailed(format string, args ...any) *Error { return call.AuthFailed(format, args...) }

// Forbidden is call.Forbidden.
func Forbidden(right string) *Error { return call.Forbidden(right) }

// NotFound is call.NotFound.
func NotFound(method, path string) *Error { return call.NotFound(method, path) }

// Internal is call.Internal.
func Internal(format string, args ...any) *Error { return call.Internal(format, args...) }

// JSONParams is call.JSONParams.
func JSONParams(raw json.RawMessage) (Params, *Error) { return call.JSONParams(raw) }

// ParseParams is call.ParseParams.
func ParseParams(r *http.Request, body []byte, f *faults.Set) (Params, *Error) {
	return call.ParseParams(r, body, f)
}

// ParseTime is call.ParseTime.
func ParseTime(v string) (time.Time, error) { return call.ParseTime(v) }

// ParseDecimal is call.ParseDecimal.
func ParseDecimal(v string) (decimal.Decimal, error) { return call.ParseDecimal(v) }

// FormatDecimal is call.FormatDecimal.
func FormatDecimal(d decimal.Decimal) string { return call.FormatDecimal(d) }
