package margin

import (
	"fmt"

	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Futures configuration (GET /futures/config, beyond the contract: the
// document names futures trading but shows no shapes). The real service
// answers the margin configuration record's fields for each contract; the
// emulator derives them from the contract itself: every futures contract
// with margin_trading true trades on isolated and on cross margin, at most
// at its max_initial_leverage, with the multipliers the service's
// reference shows for perpetual contracts.
const (
	futuresMarginCallMul  = "1.20"
	futuresLiquidationMul = "2.00"
	futuresForceCloseFee  = "0.001"
)

// FuturesConfig derives the futures configuration of a catalogue's
// futures contracts, in the catalogue's order, isolated before cross.
func FuturesConfig(m *market.Catalogue) (*Config, error) {
	c := &Config{}
	for _, code := range m.SymbolCodes() {
		s, ok := m.Symbol(code)
		if !ok || s.Type != market.TypeFutures || !s.MarginTrading || s.MaxInitialLeverage == nil {
			continue
		}
		lev, err := decimal.NewFromString(*s.MaxInitialLeverage)
		if err != nil || lev.LessThan(decimal.New(1, 0)) {
			return nil, fmt.Errorf("margin: futures %s max_initial_leverage %q", code, *s.MaxInitialLeverage)
		}
		for _, mode := range []Mode{Isolated, Cross} {
			c.records = append(c.records, Record{Symbol: code, MarginCallLeverageMul: futuresMarginCallMul,
				LiquidationLeverageMul: futuresLiquidationMul, MaxInitialLeverage: lev.StringFixed(2), MarginMode: string(mode),
				ForceCloseFee: futuresForceCloseFee, Enabled: true})
			c.params = append(c.params, Params{Symbol: code, Mode: mode, MaxLeverage: lev,
				MarginCallMul: decimal.RequireFromString(futuresMarginCallMul), LiquidationMul: decimal.RequireFromString(futuresLiquidationMul),
				Enabled: true})
		}
	}
	return c, nil
}
