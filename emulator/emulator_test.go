package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func newTest(t testing.TB, opts Options) *Emulator {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestStartServeClose(t *testing.T) {
	e := newTest(t, Options{})
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	resp, err := http.Get(e.URL() + "/api/3/public/symbol")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if err := e.Start(); err == nil {
		t.Fatal("second Start accepted")
	}
}

func TestUnknownFaultRefused(t *testing.T) {
	if _, err := New(Options{Faults: []string{"V3-NO-SUCH-RULE"}}); err == nil {
		t.Fatal("unknown fault accepted")
	}
}

func TestControlPlaneOnlyWhenAsked(t *testing.T) {
	for _, on := range []bool{false, true} {
		h := newTest(t, Options{ControlPlane: on}).Handler()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, local(httptest.NewRequest("GET", "/_conform/info", nil)))
		if got, want := w.Code == 200, on; got != want {
			t.Errorf("control plane %v: status %d", on, w.Code)
		}
	}
}

// local makes r come from a loopback peer, as the control plane requires
// without a token (httptest's default peer is 192.0.2.1).
func local(r *http.Request) *http.Request {
	r.RemoteAddr = "127.0.0.1:40000"
	return r
}

// The control plane answers loopback peers only; with a token it answers
// whoever presents it, and nobody else, loopback included. Its refusals
// are the documented error body, and change nothing.
func TestControlPlaneIsLocalUnlessATokenIsGiven(t *testing.T) {
	const token = "ctl-9f8e7d6c5b4a3210"
	for _, tc := range []struct {
		name   string
		token  string
		peer   string
		header http.Header
		want   int
	}{
		{"loopback v4", "", "127.0.0.1:1", nil, 200},
		{"loopback v6", "", "[::1]:1", nil, 200},
		{"another loopback address", "", "127.16.0.1:1", nil, 200},
		{"a network peer", "", "192.168.1.20:5000", nil, 403},
		{"a network peer naming loopback in X-Forwarded-For", "", "10.0.0.7:5000", http.Header{"X-Forwarded-For": {"127.0.0.1"}}, 403},
		{"a network peer with a token nobody configured", "", "10.0.0.7:5000", http.Header{"X-Conform-Token": {token}}, 403},
		{"token: network peer with bearer", token, "10.0.0.7:5000", http.Header{"Authorization": {"Bearer " + token}}, 200},
		{"token: network peer with header", token, "10.0.0.7:5000", http.Header{"X-Conform-Token": {token}}, 200},
		{"token: loopback peer without it", token, "127.0.0.1:1", nil, 401},
		{"token: wrong token", token, "10.0.0.7:5000", http.Header{"Authorization": {"Bearer " + token + "x"}}, 401},
		{"token: basic credentials are no token", token, "127.0.0.1:1", http.Header{"Authorization": {"Basic " + token}}, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newTest(t, Options{ControlPlane: true, ControlToken: tc.token})
			for _, req := range []struct{ method, path, body string }{
				{"GET", "/_conform/info", ""},
				{"POST", "/_conform/fund", `{"api_key":"emu-full-01","currency":"BTC","amount":"1000"}`},
				{"POST", "/_conform/clock", `{"advance":"1h"}`},
				{"POST", "/_conform/reset", `{}`},
			} {
				r := httptest.NewRequest(req.method, req.path, strings.NewReader(req.body))
				r.RemoteAddr = tc.peer
				for k, vs := range tc.header {
					r.Header[k] = vs
				}
				w := httptest.NewRecorder()
				e.Handler().ServeHTTP(w, r)
				if w.Code != tc.want {
					t.Errorf("%s %s: HTTP %d %s, want %d", req.method, req.path, w.Code, w.Body, tc.want)
				}
				if tc.want != 200 && !strings.Contains(w.Body.String(), `"error"`) {
					t.Errorf("%s %s: refusal without the error body: %s", req.method, req.path, w.Body)
				}
			}
			if moved := e.clock.Now().Sub(time.Now()); tc.want != 200 && moved > 30*time.Minute {
				t.Errorf("a refused peer moved the clock by %s", moved)
			}
		})
	}
}

func TestFundThroughControlPlane(t *testing.T) {
	h := newTest(t, Options{ControlPlane: true}).Handler()
	do := func(method, path, body, auth string) *httptest.ResponseRecorder {
		r := local(httptest.NewRequest(method, path, strings.NewReader(body)))
		if auth != "" {
			r.SetBasicAuth(auth, "")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := do("POST", "/_conform/fund", `{"api_key":"emu-full-01","currency":"BTC","amount":"0.000000000000000001"}`, ""); w.Code != 200 {
		t.Fatalf("fund: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/_conform/fund", `{"api_key":"nobody","currency":"BTC","amount":"1"}`, ""); w.Code != 400 {
		t.Fatalf("fund unknown key: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/_conform/fund", `not json`, ""); w.Code != 400 {
		t.Fatalf("fund bad body: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/_conform/clock", `{"advance":"1h"}`, ""); w.Code != 200 {
		t.Fatalf("clock: %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/_conform/reset", `{}`, ""); w.Code != 200 {
		t.Fatalf("reset: %d %s", w.Code, w.Body)
	}
}

// FuzzEmulator sends arbitrary requests to the whole emulator: whatever the
// method, path, query, credentials or body, it answers with JSON and never
// with a 500 or a panic.
func FuzzEmulator(f *testing.F) {
	f.Add("GET", "/api/3/public/futures/candles/open_interest", "limit=99999999999999999999&sort=ASC", "", "", []byte{})
	f.Add("GET", "/api/3/public/currency/%00", "currencies=,,,", "", "", []byte{})
	f.Add("POST", "/api/3/spot/balance", "", "Basic ZW11LWZ1bGwtMDE6eA==", "application/json", []byte(`{"a":`))
	f.Add("DELETE", "/api/3/spot/order", "", "HS256 Ojo6Og==", "application/json", []byte(`[{}]`))
	f.Add("POST", "/api/3/sub-account/transfer", "", "Basic ZW11LWZ1bGwtMDE6eA==", "application/json", []byte(`{"sub_account_id":1e400,"amount":"-0"}`))
	f.Add("GET", "/api/3/buy-crypto/provider/1/order", "from=-1&till=x&limit=1001&sort=up", "", "", []byte{})
	f.Add("GET", "/api/3/public/futures/candles/premium_index/BTCUSDT_PERP", "from=99999999999999&till=-1&offset=100000&limit=1000&period=1M", "", "", []byte{})
	// Futures (beyond the contract) with valid credentials of a funded account.
	f.Add("PUT", "/api/3/futures/account/isolated/BTCUSDT_PERP", "", "Basic ZW11LWZ1bGwtMDE6ZjQ0NjlkMzA4YzdmNmYxYWNiNzQ1NmEyZjk2MmNhNDk2NmFiMjQxYw==", "application/json", []byte(`{"margin_balance":"1e-99","leverage":"1e400"}`))
	f.Add("POST", "/api/3/futures/order", "", "Basic ZW11LWZ1bGwtMDE6ZjQ0NjlkMzA4YzdmNmYxYWNiNzQ1NmEyZjk2MmNhNDk2NmFiMjQxYw==", "application/json", []byte(`{"symbol":"BTCUSDT_PERP","side":"buy","quantity":"0.001","price":"1","close_position":true,"margin_mode":"cross"}`))
	f.Add("DELETE", "/api/3/futures/position/cross/USDT", "price=-1", "Basic ZW11LWZ1bGwtMDE6ZjQ0NjlkMzA4YzdmNmYxYWNiNzQ1NmEyZjk2MmNhNDk2NmFiMjQxYw==", "", []byte{})
	f.Add("POST", "/api/3/wallet/transfer", "", "Basic ZW11LWZ1bGwtMDE6ZjQ0NjlkMzA4YzdmNmYxYWNiNzQ1NmEyZjk2MmNhNDk2NmFiMjQxYw==", "application/json", []byte(`{"currency":"USDT","amount":"0.0000000000000000000001","source":"derivatives","destination":"spot"}`))
	h := newTest(f, Options{NoLimits: true}).Handler() // every fuzz request comes from one address
	f.Fuzz(func(t *testing.T, method, path, query, auth, ctype string, body []byte) {
		r, err := http.NewRequest(method, "http://emulator"+path, bytes.NewReader(body))
		if err != nil || !strings.HasPrefix(r.URL.Path, "/") {
			return // not a request a client could send
		}
		r.URL.RawQuery = query
		r.Header.Set("Authorization", auth)
		r.Header.Set("Content-Type", ctype)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		// The v2 table answers an unknown sub-account with HTTP 500.
		documented := w.Code == http.StatusInternalServerError && strings.HasPrefix(r.URL.Path, "/api/2/sub-acc/")
		if w.Code >= 500 && !documented {
			t.Fatalf("%s %s?%s -> %d %s", method, path, query, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %s?%s -> body is not JSON: %q", method, path, query, w.Body)
		}
	})
}
