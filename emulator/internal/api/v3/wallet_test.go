package v3

import (
	"net/http"
	"testing"
)

// The wallet endpoints are beyond the contract: these tests pin the shapes
// ccxt's hitbtc parses (fetchDepositAddress reads the first element's
// currency and address; createDepositAddress one object; fetchBalance
// {type: 'funding'} currency, available, reserved).
func TestWalletAnswers(t *testing.T) {
	v := newTradingEnv(t)
	first := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, params{"currency": "btc"})))
	if len(first) != 1 || str(first[0], "currency") != "BTC" || str(first[0], "address") == "" {
		t.Fatalf("GET /wallet/crypto/address?currency=btc: %v", first)
	}
	again := v.ok(v.send("POST", "/wallet/crypto/address", full1, params{"currency": "BTC"})).obj()
	if str(again, "address") != str(first[0], "address") {
		t.Errorf("the address changed between calls: %v, %v", first[0], again)
	}
	other := objs(v.ok(v.send("GET", "/wallet/crypto/address", full2, params{"currency": "BTC"})))
	if str(other[0], "address") == str(first[0], "address") {
		t.Error("two accounts share a deposit address")
	}
	usdt := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, params{"currency": "USDT", "network_code": "trx"})))
	if str(usdt[0], "network_code") != "TRX" {
		t.Errorf("USDT on TRX: %v", usdt)
	}
	all := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, nil)))
	for _, a := range all {
		if c := str(a, "currency"); c == "EUR" || c == "BCN" {
			t.Errorf("%s has no deposits but is listed: %v", c, a)
		}
	}
	if len(all) == 0 {
		t.Error("no addresses without a currency")
	}

	bals := objs(v.ok(v.send("GET", "/wallet/balance", full1, nil)))
	found := false
	for _, b := range bals {
		found = found || (str(b, "currency") == "BTC" && str(b, "available") != "" && str(b, "reserved") != "")
	}
	if !found {
		t.Errorf("no BTC wallet balance: %v", bals)
	}
	one := v.ok(v.send("GET", "/wallet/balance/BTC", full1, nil)).obj()
	if _, ok := one["currency"]; ok || str(one, "available") == "" {
		t.Errorf("GET /wallet/balance/BTC: %v", one)
	}
	if n := len(v.ok(v.send("GET", "/wallet/transactions", full1, nil)).arr()); n != 0 {
		t.Errorf("%d transactions", n)
	}
}

func TestWalletRefusals(t *testing.T) {
	v := newTradingEnv(t)
	for _, tc := range []struct {
		name, method, path, key string
		p                       params
		status, code            int
	}{
		{"unknown currency", "GET", "/wallet/crypto/address", full1, params{"currency": "NOPE"}, http.StatusBadRequest, 2002},
		{"fiat", "GET", "/wallet/crypto/address", full1, params{"currency": "EUR"}, http.StatusBadRequest, 10001},
		{"payin disabled", "POST", "/wallet/crypto/address", full1, params{"currency": "BCN"}, http.StatusBadRequest, 10001},
		{"unknown network", "GET", "/wallet/crypto/address", full1, params{"currency": "BTC", "network_code": "TRX"}, http.StatusBadRequest, 10001},
		{"no currency", "POST", "/wallet/crypto/address", full1, params{}, http.StatusBadRequest, 10001},
		{"no payment right", "GET", "/wallet/balance", tradeKey, nil, http.StatusForbidden, 1003},
		{"no credentials", "GET", "/wallet/crypto/address", "", nil, http.StatusUnauthorized, 1001},
	} {
		a := v.send(tc.method, tc.path, tc.key, tc.p)
		if a.status != tc.status || a.errCode() != tc.code {
			t.Errorf("%s: HTTP %d code %d, want %d %d: %s", tc.name, a.status, a.errCode(), tc.status, tc.code, a.raw)
		}
	}
}
