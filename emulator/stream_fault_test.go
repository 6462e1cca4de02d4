package emulator_test

import (
	"net/http"
	"testing"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
)

// TestMarginNotifyFault: V3-WST-NOTIFY-MARGIN drops the margin_order
// notifications of a margin_subscribe subscriber and nothing else, so a
// ccxt-style spot subscriber on the same connection still hears of its
// orders. Without the fault both come.
func TestMarginNotifyFault(t *testing.T) {
	for _, tc := range []struct {
		faults []string
		margin bool // a margin_order notification comes
	}{
		{nil, true},
		{[]string{"V3-WST-NOTIFY-MARGIN"}, false},
	} {
		emu, err := emulator.New(emulator.Options{Faults: tc.faults})
		if err != nil {
			t.Fatal(err)
		}
		if err := emu.Start(); err != nil {
			t.Fatal(err)
		}
		accts, _ := fixtures.Accounts()
		key := accts[0].Keys[0]
		if code := restAs(t, key, http.MethodPut, emu.URL()+"/api/3/margin/account/isolated/BTCUSDT",
			"application/x-www-form-urlencoded", "margin_balance=1000"); code != http.StatusOK {
			t.Fatalf("faults %v: opening the isolated margin account: HTTP %d", tc.faults, code)
		}

		b := dialBot(t, emu, "trading")
		b.send(map[string]any{"method": "login", "id": 1, "params": map[string]any{"type": "BASIC", "api_key": key.APIKey, "secret_key": key.Secret}})
		if m := b.next("the login answer", answerTo(1)); m["result"] != true {
			t.Fatalf("login answered %v", m)
		}
		b.send(map[string]any{"method": "spot_subscribe", "id": 2})
		b.next("the spot_subscribe answer", answerTo(2))
		b.send(map[string]any{"method": "margin_subscribe", "id": 3})
		b.next("the margin_subscribe answer", answerTo(3))

		const marginID, spotID = "botmargin000000000000001", "botspot0000000000000001"
		b.send(map[string]any{"method": "margin_new_order", "id": 4, "params": map[string]any{
			"client_order_id": marginID, "symbol": "BTCUSDT", "side": "buy", "type": "limit", "quantity": "0.01", "price": "1000"}})
		if r, _ := b.next("margin_new_order", answerTo(4))["result"].(map[string]any); r["status"] != "new" {
			t.Fatalf("faults %v: margin_new_order answered %v", tc.faults, r)
		}
		// Reports reach a connection in the order of the updates, so the
		// spot order's comes after any report of the margin order.
		b.send(map[string]any{"method": "spot_new_order", "id": 5, "params": map[string]any{
			"client_order_id": spotID, "symbol": "ETHBTC", "side": "buy", "type": "limit", "quantity": "0.01", "price": "0.001"}})
		b.next("spot_new_order", answerTo(5))
		b.next("the spot_order report", notification("spot_order", spotID, "new"))
		got := false
		for _, m := range b.held {
			got = got || notification("margin_order", marginID, "new")(m)
		}
		if got != tc.margin {
			t.Errorf("faults %v: a margin_order notification of the new margin order came: %v, want %v", tc.faults, got, tc.margin)
		}
		emu.Close()
	}
}
