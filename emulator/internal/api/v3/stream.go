package v3

import (
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/engine"
)

// OrderReport shapes an order as REST shows it (the Order resource, margin
// fields on margin orders), for the trading stream's reports.
func OrderReport(o engine.Order, margin bool, f *faults.Set) any {
	return newFullOrderJSON(o, f, margin)
}
