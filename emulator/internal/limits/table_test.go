package limits

import (
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
)

func mustFaults(t testing.TB, ids ...string) *faults.Set {
	t.Helper()
	f, err := faults.New(ids...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestIPClass(t *testing.T) {
	tbl := NewTable(nil)
	for _, tc := range []struct {
		path string
		rule string
		max  int
	}{
		{"/public/symbol", "V3-LIMIT-IP-PUBLIC", 80},
		{"/public", "V3-LIMIT-IP-PUBLIC", 80},
		{"/publicity", "V3-LIMIT-IP-DEFAULT", 50},
		{"/spot/balance", "V3-LIMIT-IP-DEFAULT", 50},
		{"/spot/order", "V3-LIMIT-IP-SPOT-ORDER", 750},
		{"/spot/order/abc", "V3-LIMIT-IP-SPOT-ORDER", 750},
		{"/spot/order/list", "V3-LIMIT-IP-SPOT-ORDER", 750},
		{"/spot/orders", "V3-LIMIT-IP-DEFAULT", 50},
		{"/spot/history/order", "V3-LIMIT-IP-DEFAULT", 50},
		{"/wallet/balance", "V3-LIMIT-IP-WALLET", 20},
		{"/buy-crypto/provider", "V3-LIMIT-IP-BUYCRYPTO-PROVIDER", 20},
		{"/buy-crypto/provider/7/rate", "V3-LIMIT-IP-BUYCRYPTO-PROVIDER", 20},
		{"/buy-crypto/fiat2crypto/x", "V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO", 20},
		{"/buy-crypto/other", "V3-LIMIT-IP-DEFAULT", 50},
		{"/margin/order/x", "V3-LIMIT-IP-MARGIN", 750},
		{"/margin/account/isolated/BTCUSDT", "V3-LIMIT-IP-MARGIN", 750},
		{"/margin/position", "V3-LIMIT-IP-MARGIN", 750},
		{"/margin/config", "V3-LIMIT-IP-DEFAULT", 50},
		{"/futures/position/x", "V3-LIMIT-IP-FUTURES", 750},
		{"/transfer-convert/config", "V3-LIMIT-IP-TRANSFER-CONVERT", 20},
		{"/transfer-convert", "V3-LIMIT-IP-DEFAULT", 50},
		{"/", "V3-LIMIT-IP-DEFAULT", 50},
		{"", "V3-LIMIT-IP-DEFAULT", 50},
	} {
		c := tbl.IPClass(tc.path)
		if c.Rule != tc.rule || c.Limit.Max() != tc.max {
			t.Errorf("%q: %s with %d, want %s with %d", tc.path, c.Rule, c.Limit.Max(), tc.rule, tc.max)
		}
	}
}

func TestAccountClass(t *testing.T) {
	tbl := NewTable(nil)
	for _, tc := range []struct {
		path string
		rule string // empty: no per-account class
	}{
		{"/wallet/balance", "V3-LIMIT-ACCT-WALLET"},
		{"/transfer-convert/config", "V3-LIMIT-ACCT-WALLET"},
		{"/buy-crypto/provider/1/order", "V3-LIMIT-ACCT-BUYCRYPTO"},
		{"/buy-crypto/fiat2crypto", "V3-LIMIT-ACCT-BUYCRYPTO"},
		{"/sub-account/acl", "V3-LIMIT-ACCT-SUBACCOUNT"},
		{"/spot/order", ""},
		{"/public/symbol", ""},
	} {
		c, ok := tbl.AccountClass(tc.path)
		if ok != (tc.rule != "") || c.Rule != tc.rule {
			t.Errorf("%q: %q (%v), want %q", tc.path, c.Rule, ok, tc.rule)
		}
	}
	// Paths on one row share one class, so one budget.
	a, _ := tbl.AccountClass("/wallet/x")
	b, _ := tbl.AccountClass("/transfer-convert/config")
	if a.Name != b.Name {
		t.Errorf("/wallet/* and /transfer-convert/config in different classes: %q, %q", a.Name, b.Name)
	}
}

func TestStreamClasses(t *testing.T) {
	tbl := NewTable(nil)
	for _, s := range []string{StreamPublic, StreamTrading, StreamWallet} {
		if c, ok := tbl.StreamClass(s); !ok || c.Limit != (Limit{10, 10}) {
			t.Errorf("%s: %+v %v", s, c, ok)
		}
	}
	for _, tc := range []struct {
		stream, method string
		lim            Limit
		ok             bool
	}{
		{StreamTrading, "login", Limit{5, 0}, true},
		{StreamTrading, "futures_balance", Limit{5, 0}, true},
		{StreamTrading, "futures_balances", Limit{20, 10}, true},
		{StreamTrading, "margin_replace_order", Limit{300, 200}, true},
		{StreamTrading, "spot_new_order_list", Limit{300, 200}, true},
		{StreamWallet, "login", Limit{2, 10}, true},
		{StreamWallet, "transactions", Limit{5, 10}, true},
		{StreamWallet, "spot_fee", Limit{}, false},
		{StreamPublic, "subscribe", Limit{}, false},
	} {
		c, ok := tbl.MethodClass(tc.stream, tc.method)
		if ok != tc.ok || c.Limit != tc.lim {
			t.Errorf("%s %s: %+v %v", tc.stream, tc.method, c.Limit, ok)
		}
	}
	if tbl.ConnCap() != 100 {
		t.Errorf("connection cap %d", tbl.ConnCap())
	}
}

// Each row's fault moves that row, and only that row, by one.
func TestRowFaultsMoveOnlyTheirRow(t *testing.T) {
	paths := map[string]string{
		"V3-LIMIT-IP-DEFAULT":               "/spot/balance",
		"V3-LIMIT-IP-PUBLIC":                "/public/symbol",
		"V3-LIMIT-IP-WALLET":                "/wallet/balance",
		"V3-LIMIT-IP-BUYCRYPTO-PROVIDER":    "/buy-crypto/provider/1/rate",
		"V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO": "/buy-crypto/fiat2crypto/x",
		"V3-LIMIT-IP-SPOT-ORDER":            "/spot/order/x",
		"V3-LIMIT-IP-MARGIN":                "/margin/order/x",
		"V3-LIMIT-IP-FUTURES":               "/futures/order/x",
		"V3-LIMIT-IP-TRANSFER-CONVERT":      "/transfer-convert/config",
	}
	honest := NewTable(nil)
	for rule, path := range paths {
		broken := NewTable(mustFaults(t, rule))
		for _, p := range paths {
			d := broken.IPClass(p).Limit.Max() - honest.IPClass(p).Limit.Max()
			switch {
			case p == path && (d != 1 && d != -1):
				t.Errorf("%s: %s moved by %d, want 1", rule, p, d)
			case p != path && d != 0:
				t.Errorf("%s: %s moved too (by %d)", rule, p, d)
			}
		}
	}
	for _, rule := range []string{"V3-LIMIT-WS-PUBLIC-MSG", "V3-LIMIT-WS-TRADING-MSG", "V3-LIMIT-WS-WALLET-MSG"} {
		broken := NewTable(mustFaults(t, rule))
		for _, s := range []string{StreamPublic, StreamTrading, StreamWallet} {
			b, _ := broken.StreamClass(s)
			h, _ := honest.StreamClass(s)
			if d := b.Limit.Max() - h.Limit.Max(); (b.Rule == rule) != (d == 1) {
				t.Errorf("%s: %s moved by %d", rule, s, d)
			}
		}
	}
	if NewTable(mustFaults(t, "V3-LIMIT-WS-CONN")).ConnCap() != 101 {
		t.Error("V3-LIMIT-WS-CONN does not allow a 101st connection")
	}
}
