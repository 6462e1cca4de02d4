package v3

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/wallet"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// tradingEnv is the v3 router over a fresh engine and ledger funded from
// the fixture accounts, with the fixture keys.
type tradingEnv struct {
	t      testing.TB
	h      http.Handler
	eng    *engine.Engine
	led    *ledger.Ledger
	wal    *wallet.Wallet // the main accounts, funded like the trading ones
	clk    *clock.Manual
	keys   map[string]auth.Key // by API key
	funded map[string]decimal.Decimal
}

func newTradingEnv(t testing.TB, ids ...string) *tradingEnv {
	t.Helper()
	f, err := faults.New(ids...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := market.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := margin.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := engine.SymbolsFrom(m)
	if err != nil {
		t.Fatal(err)
	}
	v := &tradingEnv{t: t, led: ledger.New(f), clk: clock.NewManual(marketNow), keys: map[string]auth.Key{}, funded: map[string]decimal.Decimal{}}
	fc, err := margin.FuturesConfig(m)
	if err != nil {
		t.Fatal(err)
	}
	v.eng = engine.New(syms, v.led, v.clk, f, engine.Options{Margin: mc.Params(), Futures: engine.FuturesSymbolsFrom(m), FuturesMargin: fc.Params()})
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	var keys []auth.Key
	for _, a := range accts {
		for _, k := range a.Keys {
			key := auth.Key{APIKey: k.APIKey, Secret: k.Secret, Account: a.ID, Rights: k.Rights}
			keys = append(keys, key)
			v.keys[k.APIKey] = key
		}
		for cur, amt := range a.Balances {
			v.fund(a.ID, cur, amt)
		}
	}
	v.wal = wallet.New(v.clk, v.led, m, f, nil)
	for _, a := range accts {
		for cur, amt := range a.Balances {
			d := decimal.RequireFromString(amt)
			if err := v.wal.Payin(a.ID, cur, d); err != nil {
				t.Fatal(err)
			}
			v.funded[cur] = v.funded[cur].Add(d) // the ledger holds the main accounts too
		}
	}
	v.h = api.NewRouter(Prefix, Routes(Deps{Market: m, Ledger: v.led, Engine: v.eng, Faults: f, Clock: v.clk, MarginConfig: mc.Records(), FuturesConfig: fc.Records(), Wallet: v.wal}),
		auth.NewStore(keys, f), f, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return v
}

func (v *tradingEnv) fund(acct, cur, amt string) {
	d := decimal.RequireFromString(amt)
	if err := v.led.Credit(acct, cur, d); err != nil {
		v.t.Fatal(err)
	}
	v.funded[cur] = v.funded[cur].Add(d)
}

// Fixture keys: full rights on accounts 01 and 02, the read-only and
// trade-only keys of account 01.
const (
	full1    = "emu-full-01"
	full2    = "emu-full-02"
	readOnly = "emu-read-only-01"
	tradeKey = "emu-trade-only-01"
)

// raw sends one request with a body as given and a content type.
func (v *tradingEnv) raw(method, path, key, ctype string, body []byte, query string) answer {
	v.t.Helper()
	req := httptest.NewRequest(method, Prefix+path, bytes.NewReader(body))
	req.URL.RawQuery = query
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if k, ok := v.keys[key]; ok {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(k.APIKey+":"+k.Secret)))
	}
	rec := httptest.NewRecorder()
	v.h.ServeHTTP(rec, req)
	var out any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		v.t.Fatalf("%s %s: invalid JSON %v: %s", method, path, err, rec.Body.Bytes())
	}
	return answer{status: rec.Code, body: out, raw: rec.Body.Bytes()}
}

// send sends params: a JSON body for POST, PUT, PATCH and DELETE, the
// query string for GET.
func (v *tradingEnv) send(method, path, key string, params map[string]any) answer {
	v.t.Helper()
	if method == http.MethodGet {
		q := url.Values{}
		for k, x := range params {
			q.Set(k, jsonScalar(x))
		}
		return v.raw(method, path, key, "", nil, q.Encode())
	}
	var body []byte
	if params != nil {
		var err error
		if body, err = json.Marshal(params); err != nil {
			v.t.Fatal(err)
		}
	}
	return v.raw(method, path, key, "application/json", body, "")
}

func jsonScalar(x any) string {
	switch t := x.(type) {
	case string:
		return t
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

// ok asserts HTTP 200.
func (v *tradingEnv) ok(a answer) answer {
	v.t.Helper()
	if a.status != http.StatusOK {
		v.t.Fatalf("want 200, got %d %s", a.status, a.raw)
	}
	return a
}

// order is a single-order parameter set.
type params = map[string]any

func lim(sym, side, qty, price string, kv ...any) params {
	p := params{"symbol": sym, "side": side, "quantity": qty, "price": price}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return p
}

func list(ct string, orders ...params) params {
	os := make([]any, len(orders))
	for i, o := range orders {
		os[i] = o
	}
	return params{"contingency_type": ct, "orders": os}
}

// balance is one spot balance's fields.
func (v *tradingEnv) balance(key, cur string) map[string]any {
	v.t.Helper()
	return v.ok(v.send("GET", "/spot/balance/"+cur, key, nil)).obj()
}

// snapshot is everything an account holds: its spot balances and margin
// funds as answered, and its active spot and margin orders.
func (v *tradingEnv) snapshot(key string) string {
	v.t.Helper()
	var b strings.Builder
	for _, path := range []string{"/spot/balance", "/spot/order", "/margin/order", "/margin/account"} {
		b.Write(v.ok(v.send("GET", path, key, nil)).raw)
	}
	return b.String()
}

// check asserts the ledger invariants: totals as funded, nothing reserved
// below zero, and no spot balance below zero.
func (v *tradingEnv) check() {
	v.t.Helper()
	curs := map[string]bool{}
	for c := range v.funded {
		curs[c] = true
	}
	for _, acct := range v.led.Accounts() {
		for _, b := range v.led.Balances(acct) {
			curs[b.Currency] = true
			if b.Reserved.IsNegative() || (b.Available.IsNegative() && acct != engine.DefaultFeeAccount && !engine.IsMarginLedgerAccount(acct)) {
				v.t.Fatalf("%s %s: available %s reserved %s", acct, b.Currency, b.Available, b.Reserved)
			}
		}
	}
	for c := range curs {
		if got := v.led.Total(c); !got.Equal(v.funded[c]) {
			v.t.Fatalf("total %s is %s, funded %s", c, got, v.funded[c])
		}
	}
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func objs(a answer) []map[string]any {
	var out []map[string]any
	for _, x := range a.arr() {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}
