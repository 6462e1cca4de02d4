package framework

import (
	"context"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// SymbolsOfType reads /public/symbol and returns the codes whose type is typ
// (spot or futures), sorted, so that specs never hard-code the target's
// listings.
func (e *Env) SymbolsOfType(ctx context.Context, typ string) []string {
	GinkgoHelper()
	ex, err := e.Public().Get(ctx, "/public/symbol", nil)
	Expect(err).NotTo(HaveOccurred(), "reading the symbol list: %s", ex)
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
	GinkgoHelper()
	codes := e.SymbolsOfType(ctx, typ)
	Expect(codes).NotTo(BeEmpty(), "the target lists no %s symbol", typ)
	return codes[0]
}

// AnyCurrency returns one listed currency code.
func (e *Env) AnyCurrency(ctx context.Context) string {
	GinkgoHelper()
	ex, err := e.Public().Get(ctx, "/public/currency", nil)
	Expect(err).NotTo(HaveOccurred(), "reading the currency list: %s", ex)
	var codes []string
	for code := range ObjectOf(ex) {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	Expect(codes).NotTo(BeEmpty(), "the target lists no currency")
	return codes[0]
}

// CurrencyNetwork is a network a currency lists in v3's /public/currency:
// the currency's code and record and the network's record.
type CurrencyNetwork struct {
	Currency string
	Code     string
	Cur, Net map[string]any
}

// NonDefaultNetworks reads /public/currency (v3, the one catalogue both
// versions share) and returns the non-default networks of crypto
// currencies that keep ok, sorted by currency then network code, so that
// network specs pick what the target lists, never a hard-coded chain. A
// non-default network is what makes a request's network observable: a
// server ignoring the parameter answers the default one.
func (e *Env) NonDefaultNetworks(ctx context.Context, ok func(cur, net map[string]any) bool) []CurrencyNetwork {
	GinkgoHelper()
	ex, err := e.Public().Get(ctx, "/public/currency", nil)
	Expect(err).NotTo(HaveOccurred(), "reading the currency list: %s", ex)
	var out []CurrencyNetwork
	for code, v := range ObjectOf(ex) {
		cur, _ := v.(map[string]any)
		if cur == nil || cur["crypto"] != true {
			continue
		}
		nets, _ := cur["networks"].([]any)
		for _, n := range nets {
			net, _ := n.(map[string]any)
			nc, _ := net["code"].(string)
			if net == nil || net["default"] == true || nc == "" || !ok(cur, net) {
				continue
			}
			out = append(out, CurrencyNetwork{Currency: code, Code: nc, Cur: cur, Net: net})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Currency != out[j].Currency {
			return out[i].Currency < out[j].Currency
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// PayinOn answers whether deposits are enabled for a currency on a network.
func PayinOn(cur, net map[string]any) bool {
	return cur["payin_enabled"] == true && net["payin_enabled"] == true
}
