package auth

import (
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator/faults"
)

func TestAuthenticate(t *testing.T) {
	store := NewStore([]Key{{APIKey: "k1", Secret: "s1", Account: "A", Rights: []string{RightOrderbook}}}, nil)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	hs := func(method, path, query, body, ts, window, secret string) string {
		return client.HS256Header("k1", client.Sign(secret, client.Message(method, path, query, []byte(body), ts, window)), ts, window)
	}
	cases := []struct {
		name, method, target, body, header string
		wantCode                           int // 0 = accepted
	}{
		{"basic", "GET", "/api/3/spot/balance", "", client.Basic{Key: "k1", Secret: "s1"}.Authorization("", "", "", nil), 0},
		{"basic wrong secret", "GET", "/api/3/spot/balance", "", "Basic " + b64("k1:nope"), 1002},
		{"missing", "GET", "/api/3/spot/balance", "", "", 1001},
		{"unknown key", "GET", "/api/3/spot/balance", "", "Basic " + b64("k9:s1"), 1002},
		{"hs256 query", "GET", "/api/3/spot/order?symbol=ETHBTC", "", hs("GET", "/api/3/spot/order", "symbol=ETHBTC", "", "1700000000000", "", "s1"), 0},
		{"hs256 body", "POST", "/api/3/spot/order", "symbol=ETHBTC", hs("POST", "/api/3/spot/order", "", "symbol=ETHBTC", "1700000000000", "", "s1"), 0},
		{"hs256 window", "GET", "/api/3/spot/order", "", hs("GET", "/api/3/spot/order", "", "", "1700000000000", "5000", "s1"), 0},
		{"hs256 query not signed", "GET", "/api/3/spot/order?symbol=ETHBTC", "", hs("GET", "/api/3/spot/order", "", "", "1700000000000", "", "s1"), 1002},
		{"hs256 body changed", "POST", "/api/3/spot/order", "symbol=BTCUSDT", hs("POST", "/api/3/spot/order", "", "symbol=ETHBTC", "1700000000000", "", "s1"), 1002},
		{"hs256 wrong secret", "GET", "/api/3/spot/order", "", hs("GET", "/api/3/spot/order", "", "", "1700000000000", "", "s2"), 1002},
		{"hs256 bad timestamp", "GET", "/api/3/spot/order", "", "HS256 " + b64("k1:abc:soon"), 1002},
		{"hs256 two parts", "GET", "/api/3/spot/order", "", "HS256 " + b64("k1:abc"), 1002},
		{"unknown scheme", "GET", "/api/3/spot/order", "", "Bearer abc", 1002},
		{"not base64", "GET", "/api/3/spot/order", "", "Basic ***", 1002},
	}
	// Twice: the second pass meets the Basic credentials accepted in the
	// first (basicSeen).
	for pass, tc := range append(cases, cases...) {
		t.Run(fmt.Sprintf("%s/%d", tc.name, pass/len(cases)), func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			p, err := store.Authenticate(r, []byte(tc.body))
			switch {
			case tc.wantCode == 0 && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantCode == 0 && (p.Account != "A" || !p.Rights[RightOrderbook]):
				t.Fatalf("principal %+v", p)
			case tc.wantCode != 0 && (err == nil || err.Code != tc.wantCode || err.Status != 401):
				t.Fatalf("want %d/401, got %v", tc.wantCode, err)
			}
		})
	}
}

func TestFaultsBreakTheirRule(t *testing.T) {
	fs, err := faults.New("V3-AUTH-HS256-FAIL")
	if err != nil {
		t.Fatal(err)
	}
	store := NewStore([]Key{{APIKey: "k1", Secret: "s1", Account: "A"}}, fs)
	r := httptest.NewRequest("GET", "/api/3/spot/order", nil)
	r.Header.Set("Authorization", client.HS256Header("k1", "00", "1", ""))
	if _, e := store.Authenticate(r, nil); e != nil {
		t.Fatalf("with V3-AUTH-HS256-FAIL any signature passes, got %v", e)
	}
}
