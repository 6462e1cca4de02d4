package v2shape

import (
	"encoding/json"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/market"
)

func TestDigits(t *testing.T) {
	for step, want := range map[string]int32{"0.00000001": 8, "0.1": 1, "1": 0, "10": 0, "x": 0} {
		if got := digits(step); got != want {
			t.Errorf("digits(%q) = %d, want %d", step, got, want)
		}
	}
}

// Every fixture currency and spot symbol renders with the v2 field names,
// the extended fields only when asked for.
func TestFixturesRender(t *testing.T) {
	m, err := market.Load(&faults.Set{})
	if err != nil {
		t.Fatal(err)
	}
	fields := func(v any) map[string]any {
		b, _ := json.Marshal(v)
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		return out
	}
	for _, code := range m.CurrencyCodes() {
		c, _ := m.Currency(code)
		plain, ext := fields(NewCurrency(code, c, false)), fields(NewCurrency(code, c, true))
		for _, k := range []string{"id", "fullName", "payinEnabled", "payoutEnabled", "precisionPayout", "precisionTransfer", "payoutFee"} {
			if _, ok := plain[k]; !ok {
				t.Errorf("%s: no %s", code, k)
			}
		}
		if _, ok := plain["sign"]; ok {
			t.Errorf("%s: sign without extended", code)
		}
		if _, ok := ext["isInstrumentsStable"]; !ok {
			t.Errorf("%s: extended without isInstrumentsStable", code)
		}
	}
	for _, code := range m.SymbolCodes() {
		s, _ := m.Symbol(code)
		if m.IsFutures(code) {
			continue
		}
		f := fields(NewSymbol(code, s))
		if f["id"] != code || f["baseCurrency"] == "" || f["takeLiquidityRate"] != s.TakeRate {
			t.Errorf("%s: %v", code, f)
		}
	}
}
