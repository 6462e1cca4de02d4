package framework

import (
	"context"
	"sort"

	. "github.com/onsi/gomega"
)

// SymbolsOfType reads /public/symbol and returns the codes whose type is typ
// (spot or futures), sorted, so that specs never hard-code the target's
// listings.
func (e *Env) SymbolsOfType(ctx context.Context, typ string) []string {
	ex, err := e.Public().Get(ctx, "/public/symbol", nil)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "reading the symbol list: %s", ex)
	var codes []string
	for code, v := range ObjectOf(ex) {
		if m, ok := v.(map[string]any); ok && m["type"] == typ {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	return codes
}

// AnySymbol returns one listed symbol of the type, failing when none is.
func (e *Env) AnySymbol(ctx context.Context, typ string) string {
	codes := e.SymbolsOfType(ctx, typ)
	ExpectWithOffset(1, codes).NotTo(BeEmpty(), "the target lists no %s symbol", typ)
	return codes[0]
}

// AnyCurrency returns one listed currency code.
func (e *Env) AnyCurrency(ctx context.Context) string {
	ex, err := e.Public().Get(ctx, "/public/currency", nil)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "reading the currency list: %s", ex)
	var codes []string
	for code := range ObjectOf(ex) {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	ExpectWithOffset(1, codes).NotTo(BeEmpty(), "the target lists no currency")
	return codes[0]
}
