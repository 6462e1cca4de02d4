// Package call holds what an emulator handler sees of one API call and how
// it can fail, below every API version and its router: the caller
// (Principal), the parameters (Params, Request) and the documented errors
// (Error). Packages that check credentials or read parameters import it, not
// the router.
package call

import (
	"fmt"
	"net/http"
)

// Error is a documented error answer.
type Error struct {
	Status      int
	Code        int
	Message     string
	Description string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, e.Message, e.Description)
}

// Documented errors (v3 Errors section). Each constructor takes the
// description, which says what exactly was wrong.
func errorf(status, code int, msg, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: msg, Description: fmt.Sprintf(format, args...)}
}

// Validation is 10001 with HTTP 400.
func Validation(format string, args ...any) *Error {
	return errorf(http.StatusBadRequest, 10001, "Validation error", format, args...)
}

// SymbolNotFound is 2001 with HTTP 400.
func SymbolNotFound(symbol string) *Error {
	return errorf(http.StatusBadRequest, 2001, "Symbol not found", "symbol %q is not listed", symbol)
}

// CurrencyNotFound is 2002 with HTTP 400.
func CurrencyNotFound(currency string) *Error {
	return errorf(http.StatusBadRequest, 2002, "Currency not found", "currency %q is not listed", currency)
}

// AuthRequired is 1001 with HTTP 401: no credentials were sent.
func AuthRequired() *Error {
	return errorf(http.StatusUnauthorized, 1001, "Authorization required", "send an Authorization header (Basic or HS256)")
}

// AuthFailed is 1002 with HTTP 401: credentials were sent but failed.
func AuthFailed(format string, args ...any) *Error {
	return errorf(http.StatusUnauthorized, 1002, "Authorization is required or has been failed", format, args...)
}

// Forbidden is 1003 with HTTP 403.
func Forbidden(right string) *Error {
	return errorf(http.StatusForbidden, 1003, "Action is forbidden for this API key", "the key lacks the access right %q", right)
}

// NotFound is HTTP 404 for a path the API does not have.
func NotFound(method, path string) *Error {
	return errorf(http.StatusNotFound, 404, "Not found", "no endpoint %s %s", method, path)
}

// Internal is HTTP 500; the emulator uses it only for its own bugs, and a
// recovered panic is reported through it rather than dropping the connection.
func Internal(format string, args ...any) *Error {
	return errorf(http.StatusInternalServerError, 500, "Internal Server Error", format, args...)
}
