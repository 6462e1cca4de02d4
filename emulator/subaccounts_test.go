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
