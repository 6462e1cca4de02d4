package client

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestMessageAndSignature(t *testing.T) {
	cases := []struct {
		name                                string
		method, path, query, body, ts, wind string
		want                                string
	}{
		{"no query no body", "GET", "/api/3/spot/balance", "", "", "1700000000000", "", "GET/api/3/spot/balance1700000000000"},
		{"query", "GET", "/api/3/spot/order", "symbol=ETHBTC", "", "1700000000000", "", "GET/api/3/spot/order?symbol=ETHBTC1700000000000"},
		{"body and window", "POST", "/api/3/spot/order", "", "symbol=ETHBTC&side=buy", "1700000000000", "10000", "POST/api/3/spot/ordersymbol=ETHBTC&side=buy170000000000010000"},
	}
	for _, tc := range cases {
		if got := Message(tc.method, tc.path, tc.query, []byte(tc.body), tc.ts, tc.wind); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// RFC 4231 test case 2: HMAC-SHA256 of "what do ya want for nothing?" keyed "Jefe".
	if got := Sign("Jefe", "what do ya want for nothing?"); got != "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" {
		t.Errorf("Sign: %s", got)
	}
	h := HS256Header("k", "abc", "1", "5")
	raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(h, "HS256 "))
	if !strings.HasPrefix(h, "HS256 ") || string(raw) != "k:abc:1:5" {
		t.Errorf("header %q decodes to %q", h, raw)
	}
}

func TestDoSignsRecordsAndRedacts(t *testing.T) {
	var gotAuth, gotBody, gotType string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth, gotType = r.Header.Get("Authorization"), r.Header.Get("Content-Type")
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		if r.URL.Path == "/api/3/missing" {
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"error":{"code":2001,"message":"Symbol not found"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	rec := &Recorder{}
	fixed := func() time.Time { return time.UnixMilli(1700000000000) }
	c, err := New(srv.URL, WithRecorder(rec), WithGuard(PermitTrading()), WithAuth(HS256{Key: "KEY123", Secret: "SECRET456", Now: fixed}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Do(ctx, Request{Method: "POST", Path: "/spot/order", JSON: map[string]string{"symbol": "ETHBTC"}}); err != nil {
		t.Fatal(err)
	}
	wantSig := Sign("SECRET456", Message("POST", "/api/3/spot/order", "", []byte(`{"symbol":"ETHBTC"}`), "1700000000000", ""))
	if gotAuth != HS256Header("KEY123", wantSig, "1700000000000", "") || gotType != "application/json" || gotBody != `{"symbol":"ETHBTC"}` {
		t.Errorf("sent auth %q type %q body %q", gotAuth, gotType, gotBody)
	}
	if _, err := c.Do(ctx, Request{Method: "DELETE", Path: "/spot/order", Form: map[string][]string{"symbol": {"ETHBTC"}, "secret": {"SECRET456"}}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(ctx, "/missing", nil)
	if ae, ok := IsAPIError(err); !ok || ae.Code != 2001 || ae.Status != 400 {
		t.Fatalf("APIError: %v", err)
	}
	out := rec.String()
	for _, secret := range []string{"KEY123", "SECRET456", wantSig} {
		if strings.Contains(out, secret) {
			t.Errorf("transcript leaks %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "HS256 <redacted>") || !strings.Contains(out, "-> 400") {
		t.Errorf("transcript lacks the exchange:\n%s", out)
	}
}

func TestTransportErrorIsFastAndRecorded(t *testing.T) {
	rec := &Recorder{}
	c, _ := New("http://127.0.0.1:1", WithRecorder(rec))
	start := time.Now()
	ex, err := c.Get(context.Background(), "/public/symbol", nil)
	if err == nil || ex.Err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
	if !strings.Contains(rec.String(), "transport error") {
		t.Errorf("transcript: %s", rec.String())
	}
	if _, err := New("ftp://x"); err == nil {
		t.Error("ftp base URL accepted")
	}
}
