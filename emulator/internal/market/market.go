// Package market is the emulator's public market data: the currencies,
// networks, symbols and futures contracts of the fixtures, and the futures
// candles (open interest and premium index) generated for the contracts.
//
// A Catalogue is built once by Load and never changes afterwards, so it is
// safe for concurrent use without locks.
package market

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/fixtures"
)

// Symbol types and futures contract types, as the spec spells them.
const (
	TypeSpot            = "spot"
	TypeFutures         = "futures"
	ContractPerpetual   = "perpetual"
	ContractCashSettled = "cash_settled"
)

// Symbol statuses.
const (
	StatusWorking   = "working"
	StatusSuspended = "suspended"
	StatusClearing  = "clearing"
)

// Currency is the value of the currency map (spec: Resources, Currency).
// Fields are in the spec's order; optional fields are pointers so that an
// absent field stays absent and a present false or "" stays present.
type Currency struct {
	FullName                  string  `json:"full_name"`
	Crypto                    bool    `json:"crypto"`
	Stable                    *bool   `json:"stable,omitempty"`
	PayinEnabled              bool    `json:"payin_enabled"`
	PayoutEnabled             bool    `json:"payout_enabled"`
	TransferEnabled           bool    `json:"transfer_enabled"`
	TransferToWalletEnabled   *bool   `json:"transfer_to_wallet_enabled,omitempty"`
	TransferToExchangeEnabled *bool   `json:"transfer_to_exchange_enabled,omitempty"`
	ManualFiatPayinEnabled    *bool   `json:"manual_fiat_payin_enabled,omitempty"`
	ManualFiatPayoutEnabled   *bool   `json:"manual_fiat_payout_enabled,omitempty"`
	Sign                      string  `json:"sign"`
	CryptoPaymentIDName       *string `json:"crypto_payment_id_name,omitempty"`
	CryptoExplorer            *string `json:"crypto_explorer,omitempty"`
	PrecisionTransfer         string  `json:"precision_transfer"`
	AccountTopOrder           *int64  `json:"account_top_order,omitempty"`
	QRPrefix                  *string `json:"qr_prefix,omitempty"`
	Delisted                  bool    `json:"delisted"`
	// Networks is never nil, so that a fiat currency answers [] rather than null.
	Networks []Network `json:"networks"`

	// hideDelisted is the V3-CURRENCY-FIELDS fault, set by Load.
	hideDelisted bool
}

// MarshalJSON writes the spec shape, leaving delisted out under the
// V3-CURRENCY-FIELDS fault.
func (c Currency) MarshalJSON() ([]byte, error) {
	type plain Currency // drops this method, avoiding recursion
	if !c.hideDelisted {
		return json.Marshal(plain(c))
	}
	// A shallower field of the same name shadows the embedded one, and being
	// nil with omitempty it is left out.
	return json.Marshal(struct {
		plain
		Delisted *bool `json:"delisted,omitempty"`
	}{plain: plain(c)})
}

// Network is one network hosting a currency (spec: Resources, Network).
type Network struct {
	Code                string            `json:"code"`
	NetworkName         string            `json:"network_name"`
	Network             string            `json:"network"`
	IsENSAvailable      bool              `json:"is_ens_available"`
	Protocol            *string           `json:"protocol,omitempty"`
	Default             bool              `json:"default"`
	PayinEnabled        bool              `json:"payin_enabled"`
	PayoutEnabled       bool              `json:"payout_enabled"`
	PrecisionPayout     string            `json:"precision_payout"`
	PayoutFee           *string           `json:"payout_fee,omitempty"`
	PayoutIsPaymentID   bool              `json:"payout_is_payment_id"`
	PayinPaymentID      bool              `json:"payin_payment_id"`
	PayinConfirmations  int64             `json:"payin_confirmations"`
	AddressRegex        *string           `json:"address_regex,omitempty"`
	PaymentIDRegex      *string           `json:"payment_id_regex,omitempty"`
	LowProcessingTime   *float64          `json:"low_processing_time,omitempty"`
	HighProcessingTime  *float64          `json:"high_processing_time,omitempty"`
	AvgProcessingTime   *float64          `json:"avg_processing_time,omitempty"`
	CryptoPaymentIDName *string           `json:"crypto_payment_id_name,omitempty"`
	CryptoExplorer      *string           `json:"crypto_explorer,omitempty"`
	ContractAddress     *string           `json:"contract_address,omitempty"`
	IsMultichain        bool              `json:"is_multichain"`
	AssetID             map[string]string `json:"asset_id,omitempty"`

	// hideMultichain is the V3-NETWORK-FIELDS fault, set by Load.
	hideMultichain bool
	// badRegex is the V3-NETWORK-REGEX fault, set by Load: address_regex
	// written with an unclosed group.
	badRegex bool
}

// MarshalJSON writes the spec shape, leaving is_multichain out under the
// V3-NETWORK-FIELDS fault.
func (n Network) MarshalJSON() ([]byte, error) {
	type plain Network
	if n.badRegex && n.AddressRegex != nil {
		broken := "(" + *n.AddressRegex
		n.AddressRegex = &broken
	}
	if !n.hideMultichain {
		return json.Marshal(plain(n))
	}
	return json.Marshal(struct {
		plain
		IsMultichain *bool `json:"is_multichain,omitempty"`
	}{plain: plain(n)})
}

// Symbol is the value of the symbol map (spec: Resources, Symbol): a spot
// currency pair or a futures contract. It decodes from the fixture with the
// spec's field names; MarshalJSON writes the shape of its type.
type Symbol struct {
	Type string `json:"type"`
	// ContractType, Expiry and Underlying are for futures only.
	ContractType string `json:"contract_type,omitempty"`
	// Expiry is nil for perpetual contracts (and for spot symbols).
	Expiry     *string `json:"expiry"`
	Underlying string  `json:"underlying,omitempty"`
	// BaseCurrency is nil for futures.
	BaseCurrency       *string `json:"base_currency"`
	QuoteCurrency      string  `json:"quote_currency"`
	Status             string  `json:"status"`
	QuantityIncrement  string  `json:"quantity_increment"`
	TickSize           string  `json:"tick_size"`
	TakeRate           string  `json:"take_rate"`
	MakeRate           string  `json:"make_rate"`
	FeeCurrency        string  `json:"fee_currency"`
	MarginTrading      bool    `json:"margin_trading"`
	MaxInitialLeverage *string `json:"max_initial_leverage,omitempty"`

	// zeroTick is the V3-SYMBOL-STEPS-POSITIVE fault, set by Load on
	// futures contracts: tick_size written as 0.
	zeroTick bool
}

// symbolTail is the part of a Symbol common to both types, embedded so that
// its fields keep their place at the end of the object.
type symbolTail struct {
	QuoteCurrency      string  `json:"quote_currency"`
	Status             string  `json:"status"`
	QuantityIncrement  string  `json:"quantity_increment"`
	TickSize           string  `json:"tick_size"`
	TakeRate           string  `json:"take_rate"`
	MakeRate           string  `json:"make_rate"`
	FeeCurrency        string  `json:"fee_currency"`
	MarginTrading      bool    `json:"margin_trading"`
	MaxInitialLeverage *string `json:"max_initial_leverage,omitempty"`
}

type spotJSON struct {
	Type         string  `json:"type"`
	BaseCurrency *string `json:"base_currency"`
	symbolTail
}

// futuresJSON has no omitempty on expiry and base_currency: the spec makes
// them null, not absent.
type futuresJSON struct {
	Type         string  `json:"type"`
	ContractType string  `json:"contract_type"`
	Expiry       *string `json:"expiry"`
	Underlying   string  `json:"underlying"`
	BaseCurrency *string `json:"base_currency"`
	symbolTail
}

// MarshalJSON writes a spot symbol without the futures-only fields, and a
// futures contract with expiry and base_currency as null where they have
// no value.
func (s Symbol) MarshalJSON() ([]byte, error) {
	tail := symbolTail{
		QuoteCurrency: s.QuoteCurrency, Status: s.Status,
		QuantityIncrement: s.QuantityIncrement, TickSize: s.TickSize,
		TakeRate: s.TakeRate, MakeRate: s.MakeRate, FeeCurrency: s.FeeCurrency,
		MarginTrading: s.MarginTrading, MaxInitialLeverage: s.MaxInitialLeverage,
	}
	if s.zeroTick {
		tail.TickSize = "0"
	}
	if s.Type == TypeFutures {
		return json.Marshal(futuresJSON{Type: s.Type, ContractType: s.ContractType, Expiry: s.Expiry,
			Underlying: s.Underlying, BaseCurrency: s.BaseCurrency, symbolTail: tail})
	}
	return json.Marshal(spotJSON{Type: s.Type, BaseCurrency: s.BaseCurrency, symbolTail: tail})
}

// Fee is a spot symbol's default fee rates, as decimal strings.
type Fee struct {
	Symbol, TakeRate, MakeRate string
}

// ErrUnknownContract is returned for a code that is not a futures contract.
var ErrUnknownContract = errors.New("market: not a futures contract")

// Catalogue is the emulator's market data. It is immutable once loaded.
type Catalogue struct {
	currencies    map[string]Currency
	currencyCodes []string
	symbols       map[string]Symbol
	symbolCodes   []string
	spotCodes     []string
	futuresCodes  []string
}

// Load decodes and checks currencies.json and symbols.json, then applies the
// market-data faults of f that change the records themselves.
func Load(f *faults.Set) (*Catalogue, error) {
	c := &Catalogue{}
	if err := decodeStrict("currencies.json", &c.currencies); err != nil {
		return nil, err
	}
	if err := decodeStrict("symbols.json", &c.symbols); err != nil {
		return nil, err
	}
	c.currencyCodes = sortedKeys(c.currencies)
	c.symbolCodes = sortedKeys(c.symbols)
	for _, code := range c.symbolCodes {
		if c.symbols[code].Type == TypeFutures {
			c.futuresCodes = append(c.futuresCodes, code)
		} else {
			c.spotCodes = append(c.spotCodes, code)
		}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	c.breakRules(f)
	return c, nil
}

// decodeStrict refuses unknown fields, so a fixture cannot drift from the
// spec's shape unnoticed.
func decodeStrict(name string, v any) error {
	raw, err := fixtures.Raw(name)
	if err != nil {
		return fmt.Errorf("market: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("market: decode %s: %w", name, err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var plainDecimal = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// check enforces, on the fixtures as written, the rules the emulator must
// obey when no fault is on.
func (c *Catalogue) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	decimalField := func(where, field, v string) {
		if !plainDecimal.MatchString(v) {
			bad("%s: %s %q is not a plain decimal", where, field, v)
		}
	}
	explorer := func(where string, link *string) {
		if link != nil && !strings.Contains(*link, "{tx}") {
			bad("%s: crypto_explorer %q lacks {tx}", where, *link)
		}
	}
	for _, code := range c.currencyCodes {
		cur := c.currencies[code]
		where := "currency " + code
		decimalField(where, "precision_transfer", cur.PrecisionTransfer)
		explorer(where, cur.CryptoExplorer)
		if cur.Networks == nil {
			bad("%s: networks missing", where)
		}
		for _, n := range cur.Networks {
			nw := where + " network " + n.Code
			decimalField(nw, "precision_payout", n.PrecisionPayout)
			if n.PayoutFee != nil {
				decimalField(nw, "payout_fee", *n.PayoutFee)
			}
			explorer(nw, n.CryptoExplorer)
			if _, ok := c.currencies[n.Network]; !ok {
				bad("%s: hosting currency %q is not listed", nw, n.Network)
			}
		}
	}
	for _, code := range c.symbolCodes {
		s := c.symbols[code]
		where := "symbol " + code
		decimalField(where, "quantity_increment", s.QuantityIncrement)
		decimalField(where, "tick_size", s.TickSize)
		decimalField(where, "take_rate", s.TakeRate)
		decimalField(where, "make_rate", s.MakeRate)
		switch s.Status {
		case StatusWorking, StatusSuspended, StatusClearing:
		default:
			bad("%s: status %q", where, s.Status)
		}
		for _, cur := range []string{s.QuoteCurrency, s.FeeCurrency} {
			if !c.HasCurrency(cur) {
				bad("%s: currency %q is not listed", where, cur)
			}
		}
		if s.MarginTrading != (s.MaxInitialLeverage != nil) {
			bad("%s: max_initial_leverage must be present exactly when margin_trading is true", where)
		}
		if s.MaxInitialLeverage != nil {
			decimalField(where, "max_initial_leverage", *s.MaxInitialLeverage)
		}
		switch s.Type {
		case TypeSpot:
			if s.BaseCurrency == nil || !c.HasCurrency(*s.BaseCurrency) {
				bad("%s: spot symbol needs a listed base_currency", where)
			}
			if s.ContractType != "" || s.Expiry != nil || s.Underlying != "" {
				bad("%s: spot symbol carries futures fields", where)
			}
		case TypeFutures:
			if s.BaseCurrency != nil || !c.HasCurrency(s.Underlying) {
				bad("%s: futures need a null base_currency and a listed underlying", where)
			}
			switch {
			case s.ContractType == ContractPerpetual && s.Expiry != nil:
				bad("%s: perpetual contract with an expiry", where)
			case s.ContractType == ContractCashSettled:
				if s.Expiry == nil {
					bad("%s: cash-settled contract without expiry", where)
				} else if _, err := time.Parse(time.RFC3339, *s.Expiry); err != nil || !strings.HasSuffix(*s.Expiry, "Z") {
					bad("%s: expiry %q is not an ISO 8601 UTC timestamp", where, *s.Expiry)
				}
			case s.ContractType != ContractPerpetual:
				bad("%s: contract_type %q", where, s.ContractType)
			}
		default:
			bad("%s: type %q", where, s.Type)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("market: fixtures: %w", err)
	}
	return nil
}

// breakRules applies the faults that live in the records themselves; each
// `if` is the one place its rule is enforced.
func (c *Catalogue) breakRules(f *faults.Set) {
	hashExplorer := func(link *string) *string {
		if link == nil {
			return nil
		}
		s := strings.ReplaceAll(*link, "{tx}", "{hash}")
		return &s
	}
	for code, cur := range c.currencies {
		if f.On("V3-CURRENCY-FIELDS") {
			cur.hideDelisted = true
		}
		if f.On("V3-CURRENCY-EXPLORER-TX") {
			cur.CryptoExplorer = hashExplorer(cur.CryptoExplorer)
		}
		// Copy so that no record shares a backing array with the decoded one.
		networks := make([]Network, len(cur.Networks))
		for i, n := range cur.Networks {
			if f.On("V3-CURRENCY-EXPLORER-TX") {
				n.CryptoExplorer = hashExplorer(n.CryptoExplorer)
			}
			if f.On("V3-NETWORK-FIELDS") {
				n.hideMultichain = true
			}
			n.badRegex = f.On("V3-NETWORK-REGEX")
			if f.On("V3-NETWORK-DEFAULT-ONE") {
				n.Default = true
			}
			networks[i] = n
		}
		cur.Networks = networks
		c.currencies[code] = cur
	}
	for code, s := range c.symbols {
		if f.On("V3-SYMBOL-FIELDS") {
			s.Status = "active"
		}
		if f.On("V3-SYMBOL-SPOT") && s.Type == TypeSpot {
			s.BaseCurrency = nil
		}
		if f.On("V3-SYMBOL-FUTURES") && s.ContractType == ContractPerpetual {
			s.ContractType = "perp"
		}
		if f.On("V3-SYMBOL-EXPIRY") && s.ContractType == ContractCashSettled {
			s.Expiry = nil
		}
		s.zeroTick = f.On("V3-SYMBOL-STEPS-POSITIVE") && s.Type == TypeFutures
		if f.On("V3-SYMBOL-LEVERAGE") && !s.MarginTrading {
			one := "1"
			s.MaxInitialLeverage = &one
		}
		c.symbols[code] = s
	}
}

// HasCurrency reports whether code is a listed currency.
func (c *Catalogue) HasCurrency(code string) bool {
	_, ok := c.currencies[code]
	return ok
}

// CurrencyCodes lists the currency codes, sorted.
func (c *Catalogue) CurrencyCodes() []string { return slices.Clone(c.currencyCodes) }

// Currency returns a currency record. Its slices and pointers are shared
// with the catalogue and must not be modified.
func (c *Catalogue) Currency(code string) (Currency, bool) {
	cur, ok := c.currencies[code]
	return cur, ok
}

// IsSymbol reports whether code is a listed symbol, spot or futures.
func (c *Catalogue) IsSymbol(code string) bool {
	_, ok := c.symbols[code]
	return ok
}

// IsFutures reports whether code is a futures contract.
func (c *Catalogue) IsFutures(code string) bool {
	s, ok := c.symbols[code]
	return ok && s.Type == TypeFutures
}

// SymbolCodes lists every symbol code (spot and futures), sorted.
func (c *Catalogue) SymbolCodes() []string { return slices.Clone(c.symbolCodes) }

// FuturesCodes lists the futures contract codes, sorted.
func (c *Catalogue) FuturesCodes() []string { return slices.Clone(c.futuresCodes) }

// Symbol returns a symbol record. Its pointers are shared with the
// catalogue and must not be modified.
func (c *Catalogue) Symbol(code string) (Symbol, bool) {
	s, ok := c.symbols[code]
	return s, ok
}

// SpotFees returns the default fee rates of every spot symbol, in code order.
func (c *Catalogue) SpotFees() []Fee {
	out := make([]Fee, 0, len(c.spotCodes))
	for _, code := range c.spotCodes {
		s := c.symbols[code]
		out = append(out, Fee{Symbol: code, TakeRate: s.TakeRate, MakeRate: s.MakeRate})
	}
	return out
}

// Fee returns the default fee rates of a spot symbol; futures contracts and
// unknown codes give false.
func (c *Catalogue) Fee(symbol string) (Fee, bool) {
	s, ok := c.symbols[symbol]
	if !ok || s.Type != TypeSpot {
		return Fee{}, false
	}
	return Fee{Symbol: symbol, TakeRate: s.TakeRate, MakeRate: s.MakeRate}, true
}
