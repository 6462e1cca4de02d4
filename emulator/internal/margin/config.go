// Package margin is the emulator's margin-trading reference data and
// arithmetic: the margin configuration records of fixtures/margin.json
// (GET /margin/config), the parsing of a margin_balance, and the pure
// formulas of a position (entry price, realized and unrealized profit and
// loss, initial margin, margin-call and liquidation prices). The state —
// accounts, positions, orders — lives in emulator/internal/engine, under the one
// engine lock that keeps it consistent with the books and the ledger.
//
// The spec gives the fields but not the arithmetic; the emulator's model,
// kept simple and consistent, is:
//
//   - An isolated account belongs to one symbol and is funded in the
//     symbol's quote currency; a cross account belongs to one currency and
//     backs every cross position in symbols quoted in it.
//   - A margin account holds real currency: a margin buy pays the quote and
//     receives the base like a spot trade, except that the account may go
//     below zero in either (that is the borrowed part). A position is the
//     account's signed base holding in a symbol; its cost basis is what was
//     paid for it. So every currency is conserved across spot balances,
//     margin accounts and the fee account, and no lending pool is needed.
//   - margin_balance = quote cash + Σ position cost bases (collateral plus
//     realized profit and loss, minus fees); reserved_orders is what active
//     orders hold; reserved_positions = Σ |cost basis| / leverage, the
//     leverage being the configuration's max_initial_leverage.
//   - An order must fit in the free margin (margin_balance − reserved_orders
//     − reserved_positions): it reserves notional / leverage plus the highest
//     fee. Unrealized profit and loss does not count.
//   - Margin-call and liquidation prices are where the position's leverage
//     |q|·P / (margin_balance + q·(P − entry)) reaches max_initial_leverage ×
//     margin_call_leverage_mul and × liquidation_leverage_mul. Liquidation
//     itself is out of scope: nothing happens at those prices.
package margin

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// Mode is a margin mode.
type Mode string

// Margin modes.
const (
	Isolated Mode = "isolated"
	Cross    Mode = "cross"
)

// Record is a margin configuration record (spec: Resources, Margin
// configuration record), as GET /margin/config answers it. The risk-limit
// fields are nil when the symbol has no risk limit, and then left out.
type Record struct {
	Symbol                 string  `json:"symbol"`
	MarginCallLeverageMul  string  `json:"margin_call_leverage_mul"`
	LiquidationLeverageMul string  `json:"liquidation_leverage_mul"`
	MaxInitialLeverage     string  `json:"max_initial_leverage"`
	MarginMode             string  `json:"margin_mode"`
	ForceCloseFee          string  `json:"force_close_fee"`
	Enabled                bool    `json:"enabled"`
	Active                 bool    `json:"active"`
	LimitBase              *string `json:"limit_base,omitempty"`
	LimitPower             *string `json:"limit_power,omitempty"`
	UnlimitedThreshold     *string `json:"unlimited_threshold,omitempty"`
}

// Params are the numbers of a record the engine trades with.
type Params struct {
	Symbol string
	Mode   Mode
	// MaxLeverage is max_initial_leverage: the leverage every order and
	// position of the symbol is margined at.
	MaxLeverage    decimal.Decimal
	MarginCallMul  decimal.Decimal
	LiquidationMul decimal.Decimal
	Enabled        bool
}

// Config is the loaded configuration. It is immutable.
type Config struct {
	records []Record
	params  []Params
}

// Records returns the configuration records in fixture order.
func (c *Config) Records() []Record { return append([]Record(nil), c.records...) }

// Params returns the trading numbers of every record.
func (c *Config) Params() []Params { return append([]Params(nil), c.params...) }

// Load decodes fixtures/margin.json and checks it against the market
// catalogue: every record names a spot symbol with margin_trading
// true whose fee currency is its quote currency (margin fees
// are charged from the quote cash), the isolated record's
// max_initial_leverage equals the symbol's, each (symbol, mode) appears
// once, every margin symbol has an isolated record, and the multipliers
// are at least 1 with the liquidation one not below the margin-call one.
func Load(m *market.Catalogue) (*Config, error) {
	raw, err := fixtures.Raw("margin.json")
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var recs []Record
	if err := dec.Decode(&recs); err != nil {
		return nil, fmt.Errorf("margin: decode margin.json: %w", err)
	}
	return newConfig(m, recs)
}

func newConfig(m *market.Catalogue, recs []Record) (*Config, error) {
	c := &Config{records: recs}
	seen := map[string]bool{}
	one := decimal.New(1, 0)
	for _, r := range recs {
		s, ok := m.Symbol(r.Symbol)
		switch {
		case !ok || s.Type != market.TypeSpot:
			return nil, fmt.Errorf("margin: %s is not a spot symbol", r.Symbol)
		case !s.MarginTrading || s.MaxInitialLeverage == nil:
			return nil, fmt.Errorf("margin: %s does not trade on margin", r.Symbol)
		case s.FeeCurrency != s.QuoteCurrency:
			return nil, fmt.Errorf("margin: %s charges fees in %s, not its quote currency", r.Symbol, s.FeeCurrency)
		case r.MarginMode != string(Isolated) && r.MarginMode != string(Cross):
			return nil, fmt.Errorf("margin: %s margin_mode %q", r.Symbol, r.MarginMode)
		case seen[r.Symbol+"/"+r.MarginMode]:
			return nil, fmt.Errorf("margin: %s %s given twice", r.Symbol, r.MarginMode)
		}
		seen[r.Symbol+"/"+r.MarginMode] = true
		risk := 0
		for _, f := range []*string{r.LimitBase, r.LimitPower, r.UnlimitedThreshold} {
			if f != nil {
				risk++
				if _, err := decimal.NewFromString(*f); err != nil {
					return nil, fmt.Errorf("margin: %s risk limit %q: %w", r.Symbol, *f, err)
				}
			}
		}
		if risk != 0 && risk != 3 {
			return nil, fmt.Errorf("margin: %s has a partial risk limit", r.Symbol)
		}
		p := Params{Symbol: r.Symbol, Mode: Mode(r.MarginMode), Enabled: r.Enabled}
		for _, f := range []struct {
			name string
			src  string
			dst  *decimal.Decimal
		}{
			{"max_initial_leverage", r.MaxInitialLeverage, &p.MaxLeverage},
			{"margin_call_leverage_mul", r.MarginCallLeverageMul, &p.MarginCallMul},
			{"liquidation_leverage_mul", r.LiquidationLeverageMul, &p.LiquidationMul},
			{"force_close_fee", r.ForceCloseFee, new(decimal.Decimal)},
		} {
			d, err := decimal.NewFromString(f.src)
			if err != nil {
				return nil, fmt.Errorf("margin: %s %s %q: %w", r.Symbol, f.name, f.src, err)
			}
			*f.dst = d
		}
		if p.MaxLeverage.LessThan(one) || p.MarginCallMul.LessThan(one) || p.LiquidationMul.LessThan(p.MarginCallMul) {
			return nil, fmt.Errorf("margin: %s leverage %s and multipliers %s, %s out of range", r.Symbol, p.MaxLeverage, p.MarginCallMul, p.LiquidationMul)
		}
		if p.Mode == Isolated {
			if sl, _ := decimal.NewFromString(*s.MaxInitialLeverage); !sl.Equal(p.MaxLeverage) {
				return nil, fmt.Errorf("margin: %s isolated max_initial_leverage %s differs from the symbol's %s", r.Symbol, p.MaxLeverage, sl)
			}
		}
		c.params = append(c.params, p)
	}
	for _, code := range m.SymbolCodes() {
		if s, _ := m.Symbol(code); s.Type == market.TypeSpot && s.MarginTrading && !seen[code+"/"+string(Isolated)] {
			return nil, fmt.Errorf("margin: margin symbol %s has no isolated record", code)
		}
	}
	return c, nil
}
