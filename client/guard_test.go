package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// newEchoServer answers every request with its Authorization header and
// body in the response, counting what arrived.
func newEchoServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"auth":"`+r.Header.Get("Authorization")+`","body":"`+strings.ReplaceAll(string(b), `"`, `'`)+`"}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestGuardRefusesAuthenticatedMutatingRequestsBeforeSending(t *testing.T) {
	var arrived atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	basic := WithAuth(Basic{Key: "ak_9f8e7d6c5b4a", Secret: "sk_0a1b2c3d4e5f6a7b8c9d"})
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		opts  []Option
		req   Request
		sends bool
	}{
		{"no guard: refused", []Option{basic}, Request{Method: "DELETE", Path: "/spot/order/abcdefgh"}, false},
		{"refusing guard: POST", []Option{basic, WithGuard(RefuseTrading("not a sandbox"))}, Request{Method: "POST", Path: "/spot/order"}, false},
		{"refusing guard: PUT", []Option{basic, WithGuard(RefuseTrading("x"))}, Request{Method: "PUT", Path: "/margin/account/isolated/ETHBTC"}, false},
		{"refusing guard: PATCH", []Option{basic, WithGuard(RefuseTrading("x"))}, Request{Method: "PATCH", Path: "/spot/order/abcdefgh"}, false},
		{"hand-made Authorization counts as authenticated", nil, Request{Method: "POST", Path: "/spot/order", Header: http.Header{"Authorization": {"Basic eDp5"}}}, false},
		{"refusing guard: GET passes", []Option{basic}, Request{Method: "GET", Path: "/spot/balance"}, true},
		{"unauthenticated POST passes", nil, Request{Method: "POST", Path: "/spot/order"}, true},
		{"NoAuth POST passes", []Option{basic}, Request{Method: "POST", Path: "/spot/order", NoAuth: true}, true},
		{"permitting guard", []Option{basic, WithGuard(PermitTrading())}, Request{Method: "DELETE", Path: "/spot/order"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := arrived.Load()
			rec := &Recorder{}
			c, _ := New(srv.URL, append(tc.opts, WithRecorder(rec))...)
			_, err := c.Do(ctx, tc.req)
			sent := arrived.Load() != before
			if sent != tc.sends {
				t.Fatalf("sent = %v, want %v (err %v)", sent, tc.sends, err)
			}
			if !tc.sends && !errors.Is(err, ErrLiveTrading) {
				t.Errorf("err = %v, want ErrLiveTrading", err)
			}
			if !tc.sends && len(rec.Exchanges()) != 1 {
				t.Errorf("a refusal is recorded once, got %d", len(rec.Exchanges()))
			}
		})
	}
}

func TestGuardCheck(t *testing.T) {
	var nilGuard *Guard
	if err := nilGuard.Check("POST", "/x", true); !errors.Is(err, ErrLiveTrading) || !strings.Contains(err.Error(), "--allow-live-trading") {
		t.Errorf("nil guard: %v", err)
	}
	if err := RefuseTrading("because").Check("DELETE", "/x", true); err == nil || !strings.Contains(err.Error(), "because") {
		t.Errorf("reason not given: %v", err)
	}
	if err := nilGuard.Check("GET", "/x", true); err != nil {
		t.Errorf("GET refused: %v", err)
	}
}
