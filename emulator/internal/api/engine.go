package api

import (
	"net/http"

	"github.com/conform-harness/conform/emulator/internal/engine"
)

// Codes the documents do not give (they say only "rejected"); the
// emulator's choices, documented in docs/emulator.md.
const (
	CodeDuplicateClientID = 20008
	CodeOrderLimit        = 20010
	CodeOrderNotFound     = 20002
)

// EngineError maps an engine refusal to its documented error, the same for
// every API version (one engine, one reading).
func EngineError(err error) *Error {
	e, ok := err.(*engine.Error)
	if !ok {
		return Internal("engine: %v", err)
	}
	switch e.Kind {
	case engine.ErrValidation:
		return Validation("%s", e.Msg)
	case engine.ErrSymbolNotFound:
		return &Error{Status: http.StatusBadRequest, Code: 2001, Message: "Symbol not found", Description: e.Msg}
	case engine.ErrInsufficientFunds:
		return &Error{Status: http.StatusBadRequest, Code: 20001, Message: "Insufficient funds", Description: e.Msg}
	case engine.ErrOrderNotFound:
		return &Error{Status: http.StatusBadRequest, Code: CodeOrderNotFound, Message: "Order not found", Description: e.Msg}
	case engine.ErrDuplicateClientID:
		return &Error{Status: http.StatusBadRequest, Code: CodeDuplicateClientID, Message: "Duplicate clientOrderId", Description: e.Msg}
	case engine.ErrOrderLimit:
		return &Error{Status: http.StatusBadRequest, Code: CodeOrderLimit, Message: "Order limit exceeded", Description: e.Msg}
	case engine.ErrNotAllowed:
		return &Error{Status: http.StatusBadRequest, Code: 600, Message: "Action is not allowed", Description: e.Msg}
	}
	return Internal("engine: unknown refusal %d: %s", e.Kind, e.Msg)
}
