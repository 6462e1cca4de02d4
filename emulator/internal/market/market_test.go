package market

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/fixtures"
)

// Field orders of the spec's tables.
var (
	currencyOrder = []string{"full_name", "crypto", "stable", "payin_enabled", "payout_enabled", "transfer_enabled",
		"transfer_to_wallet_enabled", "transfer_to_exchange_enabled", "manual_fiat_payin_enabled",
		"manual_fiat_payout_enabled", "sign", "crypto_payment_id_name", "crypto_explorer", "precision_transfer",
		"account_top_order", "qr_prefix", "delisted", "networks"}
	networkOrder = []string{"code", "network_name", "network", "is_ens_available", "protocol", "default",
		"payin_enabled", "payout_enabled", "precision_payout", "payout_fee", "payout_is_payment_id",
		"payin_payment_id", "payin_confirmations", "address_regex", "payment_id_regex", "low_processing_time",
		"high_processing_time", "avg_processing_time", "crypto_payment_id_name", "crypto_explorer",
		"contract_address", "is_multichain", "asset_id"}
	symbolOrder = []string{"type", "contract_type", "expiry", "underlying", "base_currency", "quote_currency",
		"status", "quantity_increment", "tick_size", "take_rate", "make_rate", "fee_currency", "margin_trading",
		"max_initial_leverage"}
)

func mustLoad(t *testing.T, ids ...string) *Catalogue {
	t.Helper()
	f, err := faults.New(ids...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// objectKeys returns the keys of a JSON object in the order written.
func objectKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %v: %s", err, raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// checkOrder fails unless keys appear in the order of spec, and all of required are present.
func checkOrder(t *testing.T, what string, keys, spec, required []string) {
	t.Helper()
	last := -1
	for _, k := range keys {
		i := slices.Index(spec, k)
		if i < 0 {
			t.Errorf("%s: field %q is not in the spec", what, k)
			continue
		}
		if i <= last {
			t.Errorf("%s: field %q out of the spec's order: %v", what, k, keys)
		}
		last = i
	}
	for _, r := range required {
		if !slices.Contains(keys, r) {
			t.Errorf("%s: required field %q missing", what, r)
		}
	}
}

func generic(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

func TestLoadContents(t *testing.T) {
	c := mustLoad(t)
	for _, code := range []string{"BTC", "ETH", "USDT", "XRP", "EUR"} {
		if !c.HasCurrency(code) {
			t.Errorf("currency %s missing", code)
		}
	}
	if c.HasCurrency("NOPE") || c.HasCurrency("btc") {
		t.Error("HasCurrency accepts unknown codes")
	}
	var perpetual, cashSettled, negativeMake, delisted, fiat int
	for _, code := range c.SymbolCodes() {
		s, _ := c.Symbol(code)
		switch {
		case s.ContractType == ContractPerpetual:
			perpetual++
		case s.ContractType == ContractCashSettled:
			cashSettled++
		}
		if strings.HasPrefix(s.MakeRate, "-") {
			negativeMake++
		}
	}
	for _, code := range c.CurrencyCodes() {
		cur, _ := c.Currency(code)
		if cur.Delisted {
			delisted++
		}
		if !cur.Crypto && len(cur.Networks) == 0 {
			fiat++
		}
	}
	if perpetual < 2 || cashSettled < 1 || negativeMake < 1 || delisted < 1 || fiat < 1 {
		t.Errorf("fixtures lack variety: perpetual %d, cash-settled %d, negative make_rate %d, delisted %d, fiat %d",
			perpetual, cashSettled, negativeMake, delisted, fiat)
	}
	usdt, _ := c.Currency("USDT")
	if len(usdt.Networks) < 3 {
		t.Errorf("USDT has %d networks, want several", len(usdt.Networks))
	}
	if !slices.IsSorted(c.FuturesCodes()) || len(c.FuturesCodes()) < 3 {
		t.Errorf("futures codes %v", c.FuturesCodes())
	}
}

// TestFixtureRoundTrip proves the Go types neither lose nor invent anything:
// every record marshals back to exactly its fixture, in the spec's order.
func TestFixtureRoundTrip(t *testing.T) {
	c := mustLoad(t)
	for _, tc := range []struct {
		file  string
		codes []string
		get   func(string) (any, bool)
	}{
		{"currencies.json", c.CurrencyCodes(), func(code string) (any, bool) { return c.Currency(code) }},
		{"symbols.json", c.SymbolCodes(), func(code string) (any, bool) { return c.Symbol(code) }},
	} {
		raw, err := fixtures.Raw(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if len(want) != len(tc.codes) {
			t.Errorf("%s: %d records, catalogue has %d", tc.file, len(want), len(tc.codes))
		}
		for _, code := range tc.codes {
			rec, ok := tc.get(code)
			if !ok {
				t.Fatalf("%s missing", code)
			}
			got, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(generic(t, got), generic(t, want[code])) {
				t.Errorf("%s %s:\n got %s\nwant %s", tc.file, code, got, want[code])
			}
			if !slices.Equal(objectKeys(t, got), objectKeys(t, want[code])) {
				t.Errorf("%s %s: key order %v, fixture %v", tc.file, code, objectKeys(t, got), objectKeys(t, want[code]))
			}
		}
	}
}

func TestCurrencyShape(t *testing.T) {
	c := mustLoad(t)
	for _, code := range c.CurrencyCodes() {
		cur, _ := c.Currency(code)
		raw, err := json.Marshal(cur)
		if err != nil {
			t.Fatal(err)
		}
		checkOrder(t, code, objectKeys(t, raw), currencyOrder, []string{"full_name", "crypto", "payin_enabled",
			"payout_enabled", "transfer_enabled", "sign", "precision_transfer", "delisted", "networks"})
		var m struct {
			Networks []json.RawMessage `json:"networks"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || m.Networks == nil {
			t.Fatalf("%s: networks not an array: %s", code, raw)
		}
		for _, n := range m.Networks {
			checkOrder(t, code+" network", objectKeys(t, n), networkOrder, []string{"code", "network_name",
				"network", "is_ens_available", "default", "payin_enabled", "payout_enabled", "precision_payout",
				"payout_is_payment_id", "payin_payment_id", "payin_confirmations", "is_multichain"})
			if !bytes.Contains(n, []byte(`"payin_confirmations":`)) || bytes.Contains(n, []byte(`"payin_confirmations":"`)) {
				t.Errorf("%s: payin_confirmations must be a JSON number: %s", code, n)
			}
		}
	}
}

func TestSymbolShape(t *testing.T) {
	c := mustLoad(t)
	for _, code := range c.SymbolCodes() {
		s, _ := c.Symbol(code)
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		keys := objectKeys(t, raw)
		common := []string{"type", "base_currency", "quote_currency", "status", "quantity_increment", "tick_size",
			"take_rate", "make_rate", "fee_currency", "margin_trading"}
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		switch s.Type {
		case TypeSpot:
			checkOrder(t, code, keys, symbolOrder, common)
			for _, k := range []string{"contract_type", "expiry", "underlying"} {
				if slices.Contains(keys, k) {
					t.Errorf("%s: spot symbol carries %s", code, k)
				}
			}
			if _, ok := m["base_currency"].(string); !ok {
				t.Errorf("%s: spot base_currency %v", code, m["base_currency"])
			}
		case TypeFutures:
			checkOrder(t, code, keys, symbolOrder, append(common, "contract_type", "expiry", "underlying"))
			if m["base_currency"] != nil {
				t.Errorf("%s: futures base_currency %v, want null", code, m["base_currency"])
			}
			if (m["expiry"] == nil) != (s.ContractType == ContractPerpetual) {
				t.Errorf("%s: %s with expiry %v", code, s.ContractType, m["expiry"])
			}
		default:
			t.Errorf("%s: type %q", code, s.Type)
		}
		if _, has := m["max_initial_leverage"]; has != s.MarginTrading {
			t.Errorf("%s: max_initial_leverage present %v, margin_trading %v", code, has, s.MarginTrading)
		}
		for _, k := range []string{"quantity_increment", "tick_size", "take_rate", "make_rate"} {
			if _, ok := m[k].(string); !ok {
				t.Errorf("%s: %s is not a string", code, k)
			}
		}
	}
}

func TestFees(t *testing.T) {
	c := mustLoad(t)
	fees := c.SpotFees()
	var codes []string
	for _, f := range fees {
		codes = append(codes, f.Symbol)
		if !c.IsSymbol(f.Symbol) {
			t.Errorf("%s not a symbol", f.Symbol)
		}
	}
	if !slices.IsSorted(codes) || len(codes) == 0 {
		t.Errorf("spot fee codes %v", codes)
	}
	for _, tc := range []struct {
		symbol string
		want   Fee
		ok     bool
	}{
		{"BTCUSDT", Fee{"BTCUSDT", "0.0009", "-0.0001"}, true},
		{"ETHBTC", Fee{"ETHBTC", "0.0025", "0.001"}, true},
		{"BTCUSDT_PERP", Fee{}, false},
		{"NOPE", Fee{}, false},
	} {
		got, ok := c.Fee(tc.symbol)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Fee(%s) = %v, %v; want %v, %v", tc.symbol, got, ok, tc.want, tc.ok)
		}
	}
	if !c.IsSymbol("BTCUSDT_PERP") || c.IsSymbol("BTC") || !c.IsFutures("BTCUSDT_PERP") || c.IsFutures("BTCUSDT") {
		t.Error("IsSymbol/IsFutures")
	}
}

// TestRecordFaults checks each fault applied by Load changes only what it
// says, and that the catalogue without it is right.
func TestRecordFaults(t *testing.T) {
	marshal := func(t *testing.T, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		fault string
		// broken reports whether the catalogue shows the fault.
		broken func(t *testing.T, c *Catalogue) bool
	}{
		{"V3-CURRENCY-FIELDS", func(t *testing.T, c *Catalogue) bool {
			cur, _ := c.Currency("BTC")
			return !strings.Contains(marshal(t, cur), `"delisted":`)
		}},
		{"V3-CURRENCY-EXPLORER-TX", func(t *testing.T, c *Catalogue) bool {
			cur, _ := c.Currency("BTC")
			s := marshal(t, cur)
			return strings.Count(s, "{hash}") == 2 && !strings.Contains(s, "{tx}")
		}},
		{"V3-NETWORK-FIELDS", func(t *testing.T, c *Catalogue) bool {
			cur, _ := c.Currency("USDT")
			s := marshal(t, cur)
			return !strings.Contains(s, `"is_multichain"`) && strings.Contains(s, `"delisted":false`)
		}},
		{"V3-SYMBOL-FIELDS", func(t *testing.T, c *Catalogue) bool {
			s, _ := c.Symbol("ETHBTC")
			return s.Status == "active"
		}},
		{"V3-SYMBOL-SPOT", func(t *testing.T, c *Catalogue) bool {
			s, _ := c.Symbol("ETHBTC")
			return strings.Contains(marshal(t, s), `"base_currency":null`)
		}},
		{"V3-SYMBOL-FUTURES", func(t *testing.T, c *Catalogue) bool {
			s, _ := c.Symbol("BTCUSDT_PERP")
			return s.ContractType == "perp"
		}},
		{"V3-SYMBOL-EXPIRY", func(t *testing.T, c *Catalogue) bool {
			s, _ := c.Symbol("BTCUSDT_270326")
			return strings.Contains(marshal(t, s), `"expiry":null`)
		}},
		{"V3-SYMBOL-LEVERAGE", func(t *testing.T, c *Catalogue) bool {
			s, _ := c.Symbol("XRPUSDT")
			return strings.Contains(marshal(t, s), `"max_initial_leverage":"1"`)
		}},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			if tc.broken(t, mustLoad(t)) {
				t.Fatal("broken without the fault")
			}
			if !tc.broken(t, mustLoad(t, tc.fault)) {
				t.Fatal("not broken with the fault")
			}
		})
	}
}

func TestLoadLeavesOtherFaultsAlone(t *testing.T) {
	// A fault of another area must not change any record.
	clean, broken := mustLoad(t), mustLoad(t, "V3-ERR-BODY")
	a, _ := json.Marshal(collect(clean))
	b, _ := json.Marshal(collect(broken))
	if !bytes.Equal(a, b) {
		t.Error("an unrelated fault changed market records")
	}
}

func collect(c *Catalogue) map[string]any {
	out := map[string]any{}
	for _, code := range c.CurrencyCodes() {
		out["c:"+code], _ = c.Currency(code)
	}
	for _, code := range c.SymbolCodes() {
		out["s:"+code], _ = c.Symbol(code)
	}
	return out
}
