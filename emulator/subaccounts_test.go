package emulator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/conform-harness/conform/emulator/internal/subaccount"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// Concurrent orders of a sub-account and transfers out of it never overdraw
// it, conserve the total, and a freeze afterwards leaves nothing on its
// trading balance and no order active.
func TestSubAccountTransfersRaceOrders(t *testing.T) {
	all := []string{"orderbook", "trading", "payment", "withdraw"}
	e := newTest(t, Options{NoLimits: true, Accounts: []fixtures.Account{{
		ID: "SUPER", Keys: []fixtures.Key{{Role: "full", APIKey: "super-key", Secret: "super-secret", Rights: all}},
		Balances: map[string]string{"USDT": "1000"},
		SubAccounts: []fixtures.SubAccount{{SubAccountID: "5ab1", UserID: 51, Email: "s@example.com", Status: "active",
			Keys: []fixtures.Key{{Role: "full", APIKey: "sub-key", Secret: "sub-secret", Rights: all}}, Balances: map[string]string{"USDT": "500"}}},
	}}})
	h := e.Handler()
	post := func(key, secret, path string, form url.Values) int {
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.SetBasicAuth(key, secret)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			post("sub-key", "sub-secret", "/api/3/spot/order", url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "type": {"limit"},
				"quantity": {"0.01"}, "price": {fmt.Sprintf("%d.00", 1000+i)}})
		}()
		go func() {
			defer wg.Done()
			post("super-key", "super-secret", "/api/3/sub-account/transfer", url.Values{"sub_account_id": {"5ab1"}, "amount": {"7.5"}, "currency": {"USDT"}, "type": {"from_sub_account"}})
		}()
	}
	wg.Wait()
	total := decimal.Zero
	for _, acct := range []string{"SUPER", "5ab1"} {
		b := e.ledger.Balance(acct, "USDT")
		if b.Available.IsNegative() || b.Reserved.IsNegative() {
			t.Errorf("%s overdrawn: %+v", acct, b)
		}
		total = total.Add(b.Available).Add(b.Reserved)
	}
	if !total.Equal(decimal.NewFromInt(1500)) {
		t.Errorf("USDT total %s, want 1500", total)
	}
	if code := post("super-key", "super-secret", "/api/3/sub-account/freeze", url.Values{"sub_account_ids": {"5ab1"}}); code != http.StatusOK {
		t.Fatalf("freeze: HTTP %d", code)
	}
	if os, _ := e.engine.Active("5ab1", ""); len(os) != 0 {
		t.Errorf("%d orders active after the freeze", len(os))
	}
	if b := e.ledger.Balance("5ab1", "USDT"); !b.Available.IsZero() || !b.Reserved.IsZero() {
		t.Errorf("trading balance after the freeze: %+v", b)
	}
	if w := e.ledger.Balance(subaccount.WalletKey("5ab1"), "USDT"); !w.Available.Add(e.ledger.Balance("SUPER", "USDT").Available).Equal(decimal.NewFromInt(1500)) {
		t.Errorf("wallet %s: the frozen funds went missing", w.Available)
	}
	if code := post("sub-key", "sub-secret", "/api/3/spot/order", url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "type": {"limit"}, "quantity": {"0.01"}, "price": {"1.00"}}); code != http.StatusUnauthorized {
		t.Errorf("an order with a frozen sub-account's key: HTTP %d, want 401", code)
	}
}

// Malformed requests to the sub-account and buy-crypto families are
// refused with a documented error, never a 5xx (except the v2 table's 500
// for a sub-account that cannot be found).
func TestSubAccountAndBuyCryptoMalformed(t *testing.T) {
	all := []string{"orderbook", "trading", "payment", "withdraw"}
	e := newTest(t, Options{NoLimits: true, Accounts: []fixtures.Account{{
		ID: "SUPER", Keys: []fixtures.Key{{Role: "full", APIKey: "super-key", Secret: "super-secret", Rights: all}},
		Balances:    map[string]string{"USDT": "1000"},
		SubAccounts: []fixtures.SubAccount{{SubAccountID: "5ab1", UserID: 51, Status: "active"}, {SubAccountID: "5ab2", UserID: 52, Status: "disable"}},
	}}})
	h := e.Handler()
	cases := []struct{ method, path, body string }{
		{"POST", "/api/3/sub-account/freeze", ""},
		{"POST", "/api/3/sub-account/freeze", "sub_account_ids=,,,"},
		{"POST", "/api/3/sub-account/activate", "sub_account_ids=5ab1,nope"},
		{"POST", "/api/3/sub-account/transfer", "sub_account_id=1e400&amount=abc&currency=USDT&type=to_sub_account"},
		{"POST", "/api/3/sub-account/transfer", "sub_account_id=5ab1&amount=-1&currency=USDT&type=to_sub_account"},
		{"POST", "/api/3/sub-account/transfer", "sub_account_id=5ab1&amount=1&currency=ZZZ&type=to_sub_account"},
		{"POST", "/api/3/sub-account/transfer", "sub_account_id=5ab2&amount=1&currency=USDT"},
		{"POST", "/api/3/sub-account/transfer/sub-to-super", "amount=1&currency=USDT"},
		{"POST", "/api/3/sub-account/transfer/sub-to-sub", "sub_account_id=5ab1&amount=1&currency=USDT"},
		{"GET", "/api/3/sub-account/acl?sub_account_ids=zz", ""},
		{"POST", "/api/3/sub-account/acl", "sub_account_ids=5ab1&deposit_address_generation_enabled=maybe&withdraw_enabled=1&description="},
		{"GET", "/api/3/sub-account/balance/%00", ""},
		{"GET", "/api/3/sub-account/crypto/address/5ab1/BTC?network_code=NOPE", ""},
		{"GET", "/api/3/sub-account/crypto/address/5ab1/%FF", ""},
		{"GET", "/api/3/buy-crypto/provider?provider_id=x", ""},
		{"GET", "/api/3/buy-crypto/provider/abc/rate", ""},
		{"GET", "/api/3/buy-crypto/provider/1/rate?source=EUR&target=BTC&source_amount=1e9", ""},
		{"GET", "/api/3/buy-crypto/provider/1/rate?source=EUR&target=BTC&target_amount=0&payment_method_id=-1", ""},
		{"GET", "/api/3/buy-crypto/provider/9/rate?source=EUR&target=BTC", ""},
		{"GET", "/api/3/buy-crypto/provider/1/order?from=x&till=-1&limit=5000&order_by=id&sort=up", ""},
		{"POST", "/api/3/buy-crypto/provider/1/order", `{"source":"EUR","target":"BTC","source_amount":"1","payment_method_id":"eleven"}`},
		{"POST", "/api/3/buy-crypto/provider/1/order", `{"source":"EUR","target":"BTC","source_amount":"100","payment_method_id":11,"target_network_code":"ETH"}`},
		{"POST", "/api/2/sub-acc/freeze", "ids="},
		{"POST", "/api/2/sub-acc/transfer", "subAccountId=51&amount=x&currency=USDT&type=deposit"},
		{"PUT", "/api/2/sub-acc/acl/51", "isPayoutEnabled=perhaps"},
		{"GET", "/api/2/sub-acc/acl", ""},
		{"GET", "/api/2/buy-crypto/provider/1/order?from=1&till=zz", ""},
		{"POST", "/api/2/buy-crypto/provider/1/order", `{"source":"EUR"}`},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		if strings.HasPrefix(c.body, "{") {
			r.Header.Set("Content-Type", "application/json")
		} else {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		r.SetBasicAuth("super-key", "super-secret")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code < 400 || w.Code >= 500 {
			t.Errorf("%s %s %s -> %d %s", c.method, c.path, c.body, w.Code, w.Body)
		}
		if !strings.HasPrefix(w.Body.String(), "{") && !strings.HasPrefix(w.Body.String(), "[") {
			t.Errorf("%s %s -> not JSON: %s", c.method, c.path, w.Body)
		}
	}
}
