package v3

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/rules"
)

var marketNow = time.Date(2026, time.November, 22, 7, 55, 30, 0, time.UTC)

// refuseAuth is an authenticator for routers that serve only public routes.
type refuseAuth struct{}

func (refuseAuth) Authenticate(*http.Request, []byte) (*api.Principal, *api.Error) {
	return nil, api.AuthRequired()
}

func newMarketRouter(t testing.TB, ids ...string) http.Handler {
	t.Helper()
	f, err := faults.New(ids...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := market.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return api.NewRouter(Prefix, marketRoutes(m, f, clock.NewManual(marketNow)), refuseAuth{}, f,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// get serves one GET; the request is built by hand so that any path and
// query, however malformed, reach the router.
func get(h http.Handler, path, query string) (int, []byte) {
	req := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: path, RawQuery: query},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}, Body: http.NoBody, Host: "emulator"}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// answer is a decoded response.
type answer struct {
	status int
	body   any
	raw    []byte
}

func (a answer) obj() map[string]any {
	m, _ := a.body.(map[string]any)
	return m
}

func (a answer) arr() []any {
	s, _ := a.body.([]any)
	return s
}

func (a answer) errCode() int {
	e, _ := a.obj()["error"].(map[string]any)
	n, _ := e["code"].(float64)
	return int(n)
}

func call(t *testing.T, h http.Handler, path, query string) answer {
	t.Helper()
	status, raw := get(h, Prefix+path, query)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("GET %s?%s: invalid JSON %v: %s", path, query, err, raw)
	}
	return answer{status: status, body: v, raw: raw}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// candleTimes returns the timestamps of an array of candles.
func candleTimes(v any) []time.Time {
	cs, _ := v.([]any)
	var out []time.Time
	for _, c := range cs {
		m, _ := c.(map[string]any)
		s, _ := m["timestamp"].(string)
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil || !strings.HasSuffix(s, "Z") {
			return nil
		}
		out = append(out, ts)
	}
	return out
}

func sortedBy(ts []time.Time, desc bool) bool {
	for i := 1; i < len(ts); i++ {
		if ts[i].After(ts[i-1]) == desc || ts[i].Equal(ts[i-1]) {
			return false
		}
	}
	return true
}

var (
	allFutures    = []string{"BTCUSDT_270326", "BTCUSDT_PERP", "ETHUSDT_261225", "ETHUSDT_PERP", "XRPUSDT_PERP"}
	oiList        = "/public/futures/candles/open_interest"
	piList        = "/public/futures/candles/premium_index"
	oiOne         = "/public/futures/candles/open_interest/BTCUSDT_PERP"
	piOne         = "/public/futures/candles/premium_index/ETHUSDT_PERP"
	currencyCount = 11
	symbolCount   = 22
)

func TestMarketAnswers(t *testing.T) {
	h := newMarketRouter(t)
	for _, tc := range []struct {
		name, path, query string
		check             func(a answer) bool
	}{
		{"all currencies", "/public/currency", "", func(a answer) bool { return len(a.obj()) == currencyCount }},
		{"currencies filter ignores unknown codes", "/public/currency", "currencies=BTC,NOPE,EUR", func(a answer) bool {
			return slices.Equal(keys(a.obj()), []string{"BTC", "EUR"})
		}},
		{"currencies filter of unknowns only", "/public/currency", "currencies=NOPE", func(a answer) bool { return len(a.obj()) == 0 && a.status == 200 }},
		{"preferred_network", "/public/currency", "preferred_network=SOL", func(a answer) bool {
			return slices.Equal(keys(a.obj()), []string{"SOL", "USDC", "USDT"})
		}},
		{"preferred_network with currencies", "/public/currency", "preferred_network=TRX&currencies=USDT,BTC", func(a answer) bool {
			return slices.Equal(keys(a.obj()), []string{"USDT"})
		}},
		{"preferred_network unknown", "/public/currency", "preferred_network=MOON", func(a answer) bool { return len(a.obj()) == 0 }},
		{"fiat has empty networks", "/public/currency/EUR", "", func(a answer) bool {
			n, ok := a.obj()["networks"].([]any)
			return ok && len(n) == 0 && a.obj()["crypto"] == false
		}},
		{"unknown currency", "/public/currency/NOPE", "", func(a answer) bool { return a.status == 400 && a.errCode() == 2002 }},
		{"all symbols", "/public/symbol", "", func(a answer) bool { return len(a.obj()) == symbolCount }},
		{"symbols filter", "/public/symbol", "symbols=ETHBTC,BTCUSDT_PERP,NOPE", func(a answer) bool {
			return slices.Equal(keys(a.obj()), []string{"BTCUSDT_PERP", "ETHBTC"})
		}},
		{"unknown symbol", "/public/symbol/NOPE", "", func(a answer) bool { return a.status == 400 && a.errCode() == 2001 }},
		{"candle list keys", oiList, "", func(a answer) bool { return slices.Equal(keys(a.obj()), allFutures) }},
		{"candle list newest first", piList, "", func(a answer) bool {
			ts := candleTimes(a.obj()["BTCUSDT_PERP"])
			return len(ts) == 10 && ts[0].Equal(time.Date(2026, 11, 22, 7, 30, 0, 0, time.UTC)) && sortedBy(ts, true)
		}},
		{"candle list ignores spot and unknown", oiList, "symbols=BTCUSDT,NOPE,ETHUSDT_PERP", func(a answer) bool {
			return slices.Equal(keys(a.obj()), []string{"ETHUSDT_PERP"})
		}},
		{"candle list of unknowns only", oiList, "symbols=NOPE", func(a answer) bool { return a.status == 200 && len(a.obj()) == 0 }},
		{"candle list empty symbols means all", piList, "symbols=", func(a answer) bool { return len(a.obj()) == len(allFutures) }},
		{"candle list max limit", oiList, "limit=1000&period=M1", func(a answer) bool {
			return len(candleTimes(a.obj()["XRPUSDT_PERP"])) == 1000
		}},
		{"candle list ASC from listing", oiList, "sort=ASC&limit=2&period=D7", func(a answer) bool {
			ts := candleTimes(a.obj()["ETHUSDT_261225"])
			return len(ts) == 2 && ts[0].Equal(market.Listing()) && ts[1].Equal(market.Listing().AddDate(0, 0, 7))
		}},
		{"candle one default", oiOne, "", func(a answer) bool {
			ts := candleTimes(a.body)
			return len(ts) == 100 && sortedBy(ts, true) && ts[0].Sub(ts[1]) == 30*time.Minute
		}},
		{"candle one from and till in Unix ms", piOne, "period=H1&from=1735689600000&till=1735700400000", func(a answer) bool {
			ts := candleTimes(a.body)
			return len(ts) == 4 && ts[0].Equal(time.UnixMilli(1735700400000)) && ts[3].Equal(time.UnixMilli(1735689600000))
		}},
		{"candle one from equals till", piOne, "period=H1&from=2025-01-01T00:00:00Z&till=2025-01-01T00:00:00Z", func(a answer) bool {
			return len(candleTimes(a.body)) == 1
		}},
		{"candle one offset at maximum", oiOne, "offset=100000&period=M1&sort=ASC&limit=1", func(a answer) bool {
			ts := candleTimes(a.body)
			return len(ts) == 1 && ts[0].Equal(market.Listing().Add(100000*time.Minute))
		}},
		{"candle one offset past the end", oiOne, "offset=100000&period=1M", func(a answer) bool {
			return a.status == 200 && a.arr() != nil && len(a.arr()) == 0
		}},
		{"candle one spot symbol", "/public/futures/candles/open_interest/BTCUSDT", "", func(a answer) bool {
			return a.status == 400 && a.errCode() == 2001
		}},
		{"candle one unknown", "/public/futures/candles/premium_index/NOPE", "", func(a answer) bool {
			return a.status == 400 && a.errCode() == 2001
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := call(t, h, tc.path, tc.query)
			if !tc.check(a) {
				t.Errorf("GET %s?%s -> %d %.600s", tc.path, tc.query, a.status, a.raw)
			}
		})
	}
}

func TestCandlePeriods(t *testing.T) {
	h := newMarketRouter(t)
	for _, p := range market.Periods() {
		for _, path := range []string{oiList, piOne} {
			a := call(t, h, path, "limit=3&period="+url.QueryEscape(string(p)))
			if a.status != 200 {
				t.Errorf("period %s on %s: %d %s", p, path, a.status, a.raw)
			}
		}
	}
}

func TestCandleShape(t *testing.T) {
	h := newMarketRouter(t)
	a := call(t, h, piOne, "limit=5")
	for _, c := range a.arr() {
		m, _ := c.(map[string]any)
		if !slices.Equal(keys(m), []string{"close", "max", "min", "open", "timestamp"}) {
			t.Fatalf("candle %v", m)
		}
		for _, k := range []string{"open", "close", "min", "max"} {
			if _, ok := m[k].(string); !ok {
				t.Errorf("%s is not a string: %v", k, m)
			}
		}
	}
	if !strings.HasPrefix(string(a.raw), `[{"timestamp":"`) || !strings.Contains(string(a.raw), `","open":"`) {
		t.Errorf("field order: %.200s", a.raw)
	}
}

func TestMarketValidation(t *testing.T) {
	h := newMarketRouter(t)
	bad := []string{
		"sort=asc", "sort=", "sort=UP", "period=M2", "period=", "period=1m", "from=yesterday", "till=2025-13-01",
		"from=-5", "from=2025-01-02T00:00:00Z&till=2025-01-01T00:00:00Z", "from=1735776000000&till=1735689600000",
		"limit=0", "limit=1001", "limit=abc", "limit=-1", "limit=1.5", "limit=", "limit=99999999999999999999",
		"limit=1&limit=2", "%zz",
	}
	for _, path := range []string{oiList, piList, oiOne, piOne} {
		qs := bad
		if strings.HasSuffix(path, "_PERP") {
			qs = append(slices.Clone(bad), "offset=-1", "offset=100001", "offset=x", "offset=")
		}
		for _, q := range qs {
			a := call(t, h, path, q)
			if a.status != 400 || a.errCode() != 10001 {
				t.Errorf("GET %s?%s -> %d %s, want 400 10001", path, q, a.status, a.raw)
			}
		}
	}
}

// faultCase shows a rule holding: holds is true without the rule's fault and
// false with it.
type faultCase struct {
	fault, path, query string
	holds              func(a answer) bool
}

var marketFaultCases = []faultCase{
	{"V3-CURRENCY-MAP", "/public/currency", "", func(a answer) bool {
		btc, _ := a.obj()["BTC"].(map[string]any)
		return btc["full_name"] == "Bitcoin"
	}},
	{"V3-CURRENCY-FIELDS", "/public/currency/BTC", "", func(a answer) bool {
		_, ok := a.obj()["delisted"].(bool)
		return ok
	}},
	{"V3-CURRENCY-EXPLORER-TX", "/public/currency/USDT", "", func(a answer) bool {
		return strings.Contains(string(a.raw), "{tx}") && !strings.Contains(string(a.raw), "{hash}")
	}},
	{"V3-CURRENCY-FILTER", "/public/currency", "currencies=BTC,ETH", func(a answer) bool {
		return slices.Equal(keys(a.obj()), []string{"BTC", "ETH"})
	}},
	{"V3-CURRENCY-FILTER-EMPTY", "/public/currency", "currencies=", func(a answer) bool { return len(a.obj()) == currencyCount }},
	{"V3-CURRENCY-ONE", "/public/currency/ETH", "", func(a answer) bool { return a.obj()["full_name"] == "Ethereum" }},
	{"V3-NETWORK-FIELDS", "/public/currency/USDT", "", func(a answer) bool {
		ns, _ := a.obj()["networks"].([]any)
		for _, n := range ns {
			if _, ok := n.(map[string]any)["is_multichain"].(bool); !ok {
				return false
			}
		}
		return len(ns) > 0
	}},
	{"V3-NETWORK-DEFAULT-ONE", "/public/currency/USDT", "", func(a answer) bool {
		ns, _ := a.obj()["networks"].([]any)
		d := 0
		for _, n := range ns {
			if n.(map[string]any)["default"] == true {
				d++
			}
		}
		return len(ns) > 1 && d <= 1
	}},
	{"V3-NETWORK-REGEX", "/public/currency/USDT", "", func(a answer) bool {
		ns, _ := a.obj()["networks"].([]any)
		for _, n := range ns {
			if re, ok := n.(map[string]any)["address_regex"].(string); ok {
				if _, err := regexp.Compile(re); err != nil {
					return false
				}
			}
		}
		return len(ns) > 0
	}},
	{"V3-SYMBOL-STEPS-POSITIVE", "/public/symbol/BTCUSDT_PERP", "", func(a answer) bool {
		return a.obj()["tick_size"] != "0"
	}},
	{"V3-SYMBOL-MAP", "/public/symbol", "", func(a answer) bool {
		s, _ := a.obj()["BTCUSDT"].(map[string]any)
		return s["type"] == "spot"
	}},
	{"V3-SYMBOL-FIELDS", "/public/symbol", "", func(a answer) bool {
		for _, s := range a.obj() {
			if !slices.Contains([]any{"working", "suspended", "clearing"}, s.(map[string]any)["status"]) {
				return false
			}
		}
		return true
	}},
	{"V3-SYMBOL-SPOT", "/public/symbol/ETHBTC", "", func(a answer) bool { return a.obj()["base_currency"] == "ETH" }},
	{"V3-SYMBOL-FUTURES", "/public/symbol/BTCUSDT_PERP", "", func(a answer) bool {
		v, hasBase := a.obj()["base_currency"]
		return a.obj()["contract_type"] == "perpetual" && hasBase && v == nil && a.obj()["underlying"] == "BTC"
	}},
	{"V3-SYMBOL-EXPIRY", "/public/symbol/BTCUSDT_270326", "", func(a answer) bool {
		return a.obj()["expiry"] == "2027-03-26T08:00:00.000Z"
	}},
	{"V3-SYMBOL-LEVERAGE", "/public/symbol", "", func(a answer) bool {
		for _, s := range a.obj() {
			m := s.(map[string]any)
			if _, has := m["max_initial_leverage"]; has != (m["margin_trading"] == true) {
				return false
			}
		}
		return true
	}},
	{"V3-SYMBOL-FILTER", "/public/symbol", "symbols=ETHBTC,XRPUSDT_PERP", func(a answer) bool {
		return slices.Equal(keys(a.obj()), []string{"ETHBTC", "XRPUSDT_PERP"})
	}},
	{"V3-SYMBOL-FILTER-EMPTY", "/public/symbol", "symbols=", func(a answer) bool { return len(a.obj()) == symbolCount }},
	{"V3-SYMBOL-ONE", "/public/symbol/ETHBTC", "", func(a answer) bool { return a.obj()["type"] == "spot" }},
	{"V3-FCANDLE-LIST-SHAPE", oiList, "", func(a answer) bool {
		return len(a.obj()) == len(allFutures) && len(candleTimes(a.obj()["BTCUSDT_PERP"])) == 10
	}},
	{"V3-FCANDLE-FIELDS", piOne, "limit=3", func(a answer) bool {
		for _, c := range a.arr() {
			if !slices.Equal(keys(c.(map[string]any)), []string{"close", "max", "min", "open", "timestamp"}) {
				return false
			}
		}
		return len(a.arr()) == 3
	}},
	{"V3-FCANDLE-MINMAX", piOne, "limit=3", func(a answer) bool {
		for _, c := range a.arr() {
			m := c.(map[string]any)
			lo, _ := strconv.ParseFloat(m["min"].(string), 64)
			hi, _ := strconv.ParseFloat(m["max"].(string), 64)
			if lo > hi {
				return false
			}
		}
		return len(a.arr()) == 3
	}},
	{"V3-FCANDLE-SYMBOLS", piList, "symbols=ETHUSDT_PERP", func(a answer) bool {
		return slices.Equal(keys(a.obj()), []string{"ETHUSDT_PERP"})
	}},
	{"V3-FCANDLE-SORT-DEFAULT", oiOne, "limit=3", func(a answer) bool { return sortedBy(candleTimes(a.body), true) }},
	{"V3-FCANDLE-SORT", oiOne, "limit=3&sort=ASC", func(a answer) bool {
		ts := candleTimes(a.body)
		return sortedBy(ts, false) && ts[0].Equal(market.Listing())
	}},
	{"V3-FCANDLE-PERIOD-DEFAULT", piOne, "limit=2", func(a answer) bool {
		ts := candleTimes(a.body)
		return len(ts) == 2 && ts[0].Sub(ts[1]) == 30*time.Minute
	}},
	{"V3-FCANDLE-PERIOD", oiOne, "period=1M&limit=2", func(a answer) bool {
		ts := candleTimes(a.body)
		return a.status == 200 && len(ts) == 2 && ts[0].Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	}},
	{"V3-FCANDLE-RANGE", oiOne, "period=H1&from=2025-01-01T00:00:00Z&till=2025-01-01T05:00:00Z", func(a answer) bool {
		ts := candleTimes(a.body)
		return len(ts) == 6 && ts[0].Equal(time.Date(2025, 1, 1, 5, 0, 0, 0, time.UTC))
	}},
	{"V3-FCANDLE-LIST-LIMIT-DEFAULT", piList, "", func(a answer) bool {
		for _, cs := range a.obj() {
			if len(candleTimes(cs)) != 10 {
				return false
			}
		}
		return len(a.obj()) > 0
	}},
	{"V3-FCANDLE-ONE-LIMIT-DEFAULT", piOne, "", func(a answer) bool { return len(a.arr()) == 100 }},
	{"V3-FCANDLE-LIMIT", oiOne, "limit=7", func(a answer) bool { return len(a.arr()) == 7 }},
	{"V3-FCANDLE-OFFSET", oiOne, "period=D1&offset=2&limit=1", func(a answer) bool {
		ts := candleTimes(a.body)
		return len(ts) == 1 && ts[0].Equal(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC))
	}},
	{"V3-ERR-10001", oiOne, "sort=sideways", func(a answer) bool { return a.status == 400 && a.errCode() == 10001 }},
}

// TestMarketFaults proves each market fault breaks its rule, and that the
// rule holds without it.
func TestMarketFaults(t *testing.T) {
	clean := newMarketRouter(t)
	for _, tc := range marketFaultCases {
		t.Run(tc.fault, func(t *testing.T) {
			if a := call(t, clean, tc.path, tc.query); !tc.holds(a) {
				t.Errorf("rule broken without the fault: GET %s?%s -> %d %.500s", tc.path, tc.query, a.status, a.raw)
			}
			if a := call(t, newMarketRouter(t, tc.fault), tc.path, tc.query); tc.holds(a) {
				t.Errorf("rule holds with the fault: GET %s?%s -> %d %.500s", tc.path, tc.query, a.status, a.raw)
			}
		})
	}
}

// TestMarketFaultsExact checks the faults that must break one thing only do
// not leak into the neighbouring rule.
func TestMarketFaultsExact(t *testing.T) {
	for _, tc := range []struct {
		fault string
		other faultCase
	}{
		// SORT-DEFAULT keeps explicit sorts; SORT keeps the default.
		{"V3-FCANDLE-SORT-DEFAULT", faultCase{path: oiOne, query: "limit=3&sort=DESC", holds: func(a answer) bool { return sortedBy(candleTimes(a.body), true) }}},
		{"V3-FCANDLE-SORT-DEFAULT", faultCase{path: oiOne, query: "limit=3&sort=ASC", holds: func(a answer) bool { return sortedBy(candleTimes(a.body), false) }}},
		{"V3-FCANDLE-SORT", faultCase{path: oiOne, query: "limit=3", holds: func(a answer) bool { return sortedBy(candleTimes(a.body), true) }}},
		{"V3-FCANDLE-SORT", faultCase{path: oiOne, query: "sort=nope", holds: func(a answer) bool { return a.errCode() == 10001 }}},
		{"V3-FCANDLE-LIMIT", faultCase{path: oiOne, query: "", holds: func(a answer) bool { return len(a.arr()) == 100 }}},
		{"V3-FCANDLE-LIMIT", faultCase{path: oiOne, query: "limit=1001", holds: func(a answer) bool { return a.errCode() == 10001 }}},
		{"V3-FCANDLE-PERIOD", faultCase{path: oiOne, query: "period=H4", holds: func(a answer) bool { return a.status == 200 }}},
		{"V3-FCANDLE-RANGE", faultCase{path: oiOne, query: "from=2026-11-22T07:00:00Z&period=M15&sort=ASC", holds: func(a answer) bool {
			ts := candleTimes(a.body)
			return len(ts) == 4 && ts[0].Equal(time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC))
		}}},
		{"V3-ERR-10001", faultCase{path: oiOne, query: "period=M2", holds: func(a answer) bool { return a.errCode() == 10001 }}},
		{"V3-ERR-10001", faultCase{path: oiOne, query: "sort=sideways&limit=2", holds: func(a answer) bool {
			return sortedBy(candleTimes(a.body), true) && len(a.arr()) == 2
		}}},
		{"V3-CURRENCY-FILTER-EMPTY", faultCase{path: "/public/currency", holds: func(a answer) bool { return len(a.obj()) == currencyCount }}},
		{"V3-SYMBOL-FILTER-EMPTY", faultCase{path: "/public/symbol", holds: func(a answer) bool { return len(a.obj()) == symbolCount }}},
	} {
		if a := call(t, newMarketRouter(t, tc.fault), tc.other.path, tc.other.query); !tc.other.holds(a) {
			t.Errorf("%s: GET %s?%s -> %d %.300s", tc.fault, tc.other.path, tc.other.query, a.status, a.raw)
		}
	}
}

// TestMarketFaultCoverage ties the faults to the rule catalogue: every
// testable market-data rule has a fault, and each fault has a case above.
func TestMarketFaultCoverage(t *testing.T) {
	declared := map[string]bool{}
	for _, f := range faults.Catalogue() {
		declared[f.Rule] = true
	}
	cased := map[string]bool{}
	for _, tc := range marketFaultCases {
		cased[tc.fault] = true
	}
	for _, r := range rules.Default().All() {
		if r.Area != "marketdata" {
			continue
		}
		switch {
		case r.Status == rules.Testable && (!declared[r.ID] || !cased[r.ID]):
			t.Errorf("testable rule %s: fault declared %v, tested %v", r.ID, declared[r.ID], cased[r.ID])
		case r.Status != rules.Testable && declared[r.ID]:
			t.Errorf("%s rule %s has a fault", r.Status, r.ID)
		}
	}
	for id := range cased {
		if _, ok := rules.Default().Lookup(id); !ok || !declared[id] {
			t.Errorf("fault case %s names no declared fault", id)
		}
	}
}

func FuzzMarketParams(f *testing.F) {
	paths := []string{"/public/currency", "/public/currency/{x}", "/public/symbol", "/public/symbol/{x}",
		oiList, oiList + "/{x}", piList, piList + "/{x}"}
	for i := range paths {
		f.Add(uint8(i), "BTCUSDT_PERP", "sort=ASC&period=1M&limit=1000&offset=100000", false)
		f.Add(uint8(i), "ETH", "currencies=,,BTC&symbols=%2C&preferred_network=", true)
	}
	f.Add(uint8(5), "../x", "from=9999-12-31T23:59:59Z&till=0001-01-01T00:00:00Z", false)
	f.Add(uint8(7), "XRPUSDT_PERP", "from=253402300799999&till=0&limit=1", true)
	f.Add(uint8(4), "", "%zz&period=D7&from=2024-01-01", false)
	f.Add(uint8(5), "BTCUSDT_270326", "offset=99999&limit=1000&period=M1&till=2024-01-01T00:00:00.000000001Z", true)
	clean, broken := newMarketRouter(f), newMarketRouter(f, marketFaultIDs()...)
	f.Fuzz(func(t *testing.T, route uint8, seg, query string, faulty bool) {
		h := clean
		if faulty {
			h = broken
		}
		path := Prefix + strings.ReplaceAll(paths[int(route)%len(paths)], "{x}", seg)
		status, body := get(h, path, query)
		if status >= 500 {
			t.Fatalf("GET %q?%q -> %d %s", path, query, status, body)
		}
		if !json.Valid(body) {
			t.Fatalf("GET %q?%q -> invalid JSON %q", path, query, body)
		}
	})
}

// marketFaultIDs lists every market fault plus V3-ERR-10001, to fuzz the
// emulator with all of them on at once.
func marketFaultIDs() []string {
	ids := []string{}
	for _, tc := range marketFaultCases {
		ids = append(ids, tc.fault)
	}
	return ids
}
