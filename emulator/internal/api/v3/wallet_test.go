package v3

import (
	"net/http"
	"testing"
)

// The wallet endpoints are beyond the contract: these tests pin the shapes
// ccxt's hitbtc parses (fetchDepositAddress reads the first element's
// currency and address; createDepositAddress one object; fetchBalance
// {type: 'funding'} currency, available, reserved; fetchDeposits the
// transaction's status, type and native fields).
func TestWalletAnswers(t *testing.T) {
	v := newTradingEnv(t)
	first := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, params{"currency": "btc"})))
	if len(first) != 1 || str(first[0], "currency") != "BTC" || str(first[0], "address") == "" {
		t.Fatalf("GET /wallet/crypto/address?currency=btc: %v", first)
	}
	same := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, params{"currency": "BTC"})))
	if str(same[0], "address") != str(first[0], "address") {
		t.Errorf("the current address changed between reads: %v, %v", first[0], same[0])
	}
	created := v.ok(v.send("POST", "/wallet/crypto/address", full1, params{"currency": "BTC"})).obj()
	current := objs(v.ok(v.send("GET", "/wallet/crypto/address", full1, params{"currency": "BTC"})))
	if str(created, "address") == str(first[0], "address") || str(current[0], "address") != str(created, "address") {
		t.Errorf("POST made %v; the current address is %v (was %v)", created, current[0], first[0])
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
	// The fixture balances arrived in the main account as settled deposits.
	txs := objs(v.ok(v.send("GET", "/wallet/transactions", full1, nil)))
	if len(txs) != 3 {
		t.Fatalf("%d transactions, want the 3 opening deposits: %v", len(txs), txs)
	}
	native, _ := txs[0]["native"].(map[string]any)
	if str(txs[0], "status") != "SUCCESS" || str(txs[0], "type") != "DEPOSIT" || str(txs[0], "subtype") != "BLOCKCHAIN" || str(native, "amount") == "" {
		t.Errorf("opening deposit: %v", txs[0])
	}
	for _, tc := range []struct {
		q    params
		want int
	}{
		{params{"currencies": "BTC"}, 1},
		{params{"currencies": "btc,eth", "types": "DEPOSIT"}, 2},
		{params{"types": "WITHDRAW"}, 0},
		{params{"statuses": "PENDING,FAILED"}, 0},
		{params{"limit": 1, "offset": 1}, 1},
		{params{"offset": 5}, 0},
	} {
		if n := len(v.ok(v.send("GET", "/wallet/transactions", full1, tc.q)).arr()); n != tc.want {
			t.Errorf("GET /wallet/transactions %v: %d, want %d", tc.q, n, tc.want)
		}
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
		{"fiat", "GET", "/wallet/crypto/address", full1, params{"currency": "EUR"}, http.StatusBadRequest, 600},
		{"payin disabled", "POST", "/wallet/crypto/address", full1, params{"currency": "BCN"}, http.StatusBadRequest, 600},
		{"unknown network", "GET", "/wallet/crypto/address", full1, params{"currency": "BTC", "network_code": "TRX"}, http.StatusBadRequest, 10001},
		{"no currency", "POST", "/wallet/crypto/address", full1, params{}, http.StatusBadRequest, 10001},
		{"no payment right", "GET", "/wallet/balance", tradeKey, nil, http.StatusForbidden, 1003},
		{"no credentials", "GET", "/wallet/crypto/address", "", nil, http.StatusUnauthorized, 1001},
		{"limit over 1000", "GET", "/wallet/transactions", full1, params{"limit": 1001}, http.StatusBadRequest, 10001},
		{"bad sort", "GET", "/wallet/transactions", full1, params{"sort": "UP"}, http.StatusBadRequest, 10001},
		{"transfer beyond the balance", "POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "1000", "source": "wallet", "destination": "spot"}, http.StatusBadRequest, 20001},
		{"transfer to futures beyond the balance", "POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "1000", "source": "wallet", "destination": "derivatives"}, http.StatusBadRequest, 20001},
		{"transfer from futures beyond the balance", "POST", "/wallet/transfer", full1, params{"currency": "USDT", "amount": "1", "source": "derivatives", "destination": "spot"}, http.StatusBadRequest, 20001},
		{"transfer to futures of an unknown currency", "POST", "/wallet/transfer", full1, params{"currency": "NOPE", "amount": "1", "source": "spot", "destination": "derivatives"}, http.StatusBadRequest, 2002},
		{"transfer to itself", "POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "1", "source": "spot", "destination": "spot"}, http.StatusBadRequest, 10001},
		{"transfer of nothing", "POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "0", "source": "spot", "destination": "wallet"}, http.StatusBadRequest, 10001},
	} {
		a := v.send(tc.method, tc.path, tc.key, tc.p)
		if a.status != tc.status || a.errCode() != tc.code {
			t.Errorf("%s: HTTP %d code %d, want %d %d: %s", tc.name, a.status, a.errCode(), tc.status, tc.code, a.raw)
		}
	}
}

func TestWalletTransfer(t *testing.T) {
	v := newTradingEnv(t)
	walletBTC := func() string { return str(v.ok(v.send("GET", "/wallet/balance/BTC", full1, nil)).obj(), "available") }
	spotBTC := func() string { return str(v.balance(full1, "BTC"), "available") }
	w0, s0 := walletBTC(), spotBTC()
	ids := v.ok(v.send("POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "0.5", "source": "wallet", "destination": "spot"})).arr()
	if len(ids) != 1 {
		t.Fatalf("answer %v, want one transfer id", ids)
	}
	if w, s := walletBTC(), spotBTC(); w0 != "2.5" || w != "2" || s0 != "2.5" || s != "3" {
		t.Errorf("wallet %s -> %s, spot %s -> %s after moving 0.5 BTC to spot", w0, w, s0, s)
	}
	v.ok(v.send("POST", "/wallet/transfer", full1, params{"currency": "BTC", "amount": "1", "source": "spot", "destination": "wallet"}))
	if w, s := walletBTC(), spotBTC(); w != "3" || s != "2" {
		t.Errorf("wallet %s, spot %s after moving 1 BTC back", w, s)
	}
	transfers := objs(v.ok(v.send("GET", "/wallet/transactions", full1, params{"types": "TRANSFER"})))
	if len(transfers) != 2 || str(transfers[0], "subtype") != "SPOT_TO_WALLET" || str(transfers[1], "subtype") != "WALLET_TO_SPOT" {
		t.Errorf("transfers, newest first: %v", transfers)
	}
}

func TestWalletWithdraw(t *testing.T) {
	v := newTradingEnv(t)
	to := objs(v.ok(v.send("GET", "/wallet/crypto/address", full2, params{"currency": "BTC"})))[0]
	id := str(v.ok(v.send("POST", "/wallet/crypto/withdraw", full1, params{"currency": "BTC", "amount": "0.1", "address": str(to, "address")})).obj(), "id")
	if id == "" {
		t.Fatal("no transaction id")
	}
	if b := v.ok(v.send("GET", "/wallet/balance/BTC", full1, nil)).obj(); str(b, "reserved") == "0" {
		t.Errorf("nothing reserved for the withdrawal: %v", b)
	}
	txs := objs(v.ok(v.send("GET", "/wallet/transactions", full1, params{"types": "WITHDRAW"})))
	native, _ := txs[0]["native"].(map[string]any)
	if len(txs) != 1 || str(native, "tx_id") != id || str(txs[0], "status") != "CREATED" || str(native, "amount") != "0.1" {
		t.Errorf("withdrawals: %v", txs)
	}

	// Without auto_commit the withdrawal waits for a commit or a rollback.
	held := str(v.ok(v.send("POST", "/wallet/crypto/withdraw", full1, params{"currency": "BTC", "amount": "0.2", "address": str(to, "address"), "auto_commit": false})).obj(), "id")
	if r := v.ok(v.send("DELETE", "/wallet/crypto/withdraw/"+held, full1, nil)).obj(); r["result"] != true {
		t.Errorf("rollback answered %v", r)
	}
	for _, tc := range []struct {
		name   string
		method string
		path   string
		key    string
		p      params
		status int
		code   int
	}{
		{"no withdraw right", "POST", "/wallet/crypto/withdraw", readOnly, params{"currency": "BTC", "amount": "0.1", "address": "x"}, http.StatusForbidden, 1003},
		{"beyond the balance", "POST", "/wallet/crypto/withdraw", full1, params{"currency": "BTC", "amount": "100", "address": str(to, "address")}, http.StatusBadRequest, 20001},
		{"no address", "POST", "/wallet/crypto/withdraw", full1, params{"currency": "BTC", "amount": "0.1"}, http.StatusBadRequest, 10001},
		{"unknown currency", "POST", "/wallet/crypto/withdraw", full1, params{"currency": "NOPE", "amount": "0.1", "address": "x"}, http.StatusBadRequest, 2002},
		{"commit of an unknown id", "PUT", "/wallet/crypto/withdraw/nope", full1, nil, http.StatusBadRequest, 20002},
	} {
		a := v.send(tc.method, tc.path, tc.key, tc.p)
		if a.status != tc.status || a.errCode() != tc.code {
			t.Errorf("%s: HTTP %d code %d, want %d %d: %s", tc.name, a.status, a.errCode(), tc.status, tc.code, a.raw)
		}
	}
}
