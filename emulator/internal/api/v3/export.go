package v3

import "github.com/conform-harness/conform/emulator/internal/api"

// EngineError maps an engine refusal to its documented error, for the other
// API surfaces that trade through the same engine (the v2 streams).
func EngineError(err error) *api.Error { return engineError(err) }
