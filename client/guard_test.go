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
	"time"

	"github.com/gorilla/websocket"
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

// countingServer serves REST and WebSocket on one port and counts the
// requests and the stream frames that arrive.
type countingServer struct {
	URL, WS          string
	requests, frames atomic.Int32
}

func newCountingServer(t *testing.T) *countingServer {
	t.Helper()
	cs := &countingServer{}
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			cs.requests.Add(1)
			_, _ = io.WriteString(w, `{}`)
			return
		}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			cs.frames.Add(1)
			_ = conn.WriteMessage(websocket.TextMessage, []byte(`{"id":"`+ParseWSMessage(data).ID+`","result":true}`))
		}
	}))
	t.Cleanup(srv.Close)
	cs.URL, cs.WS = srv.URL, "ws"+strings.TrimPrefix(srv.URL, "http")
	return cs
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
		{"another host permitted: refused here", []Option{basic, WithGuard(PermitOnly("", "http://127.0.0.2:1", "ws://127.0.0.1:1"))}, Request{Method: "POST", Path: "/spot/order"}, false},
		{"refusing guard: GET passes", []Option{basic}, Request{Method: "GET", Path: "/spot/balance"}, true},
		{"unauthenticated POST passes", nil, Request{Method: "POST", Path: "/spot/order"}, true},
		{"NoAuth POST passes", []Option{basic}, Request{Method: "POST", Path: "/spot/order", NoAuth: true}, true},
		{"permitting guard", []Option{basic, WithGuard(PermitTrading())}, Request{Method: "DELETE", Path: "/spot/order"}, true},
		{"this host permitted", []Option{basic, WithGuard(PermitOnly("", srv.URL))}, Request{Method: "DELETE", Path: "/spot/order"}, true},
		{"this host permitted by its stream URL", []Option{basic, WithGuard(PermitOnly("", "ws"+strings.TrimPrefix(srv.URL, "http")))}, Request{Method: "POST", Path: "/spot/order"}, true},
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

// A permitted host that redirects an authenticated order elsewhere does
// not get it sent there: the guard rules every hop.
func TestGuardRulesRedirects(t *testing.T) {
	other := newCountingServer(t)
	permitted := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer permitted.Close()
	c, _ := New(permitted.URL, WithAuth(Basic{Key: "ak_9f8e7d6c5b4a", Secret: "sk_0a1b2c3d4e5f6a7b8c9d"}), WithGuard(PermitOnly("", permitted.URL)))
	_, err := c.Do(context.Background(), Request{Method: "POST", Path: "/spot/order", JSON: map[string]string{"symbol": "ETHBTC"}})
	if !errors.Is(err, ErrLiveTrading) || other.requests.Load() != 0 {
		t.Errorf("redirected order: err %v, %d requests reached the other host", err, other.requests.Load())
	}
}

// With REST permitted on one host, the stream on another host gets no
// trading frame (and the caller is told, OnRefused included); reads and
// subscriptions still go; a stream on the permitted host trades.
func TestGuardDecidesStreamFramesByTheirHost(t *testing.T) {
	ctx := context.Background()
	permitted, other := newCountingServer(t), newCountingServer(t)
	g := PermitOnly("", permitted.URL)
	var refused []error
	c, err := DialWS(ctx, other.WS+"/api/3/ws/trading", WSOptions{Guard: g, OnRefused: func(err error) { refused = append(refused, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, m := range []string{"spot_new_order", "margin_replace_order", "futures_cancel_orders", "newOrder", "cancelReplaceOrder", "transfer_to_main", "withdraw", "sub_account_freeze"} {
		if _, err := c.Request(ctx, time.Second, "x", m, nil); !errors.Is(err, ErrLiveTrading) || !strings.Contains(err.Error(), other.WS[len("ws://"):]) {
			t.Errorf("%s on an undeclared stream host: %v", m, err)
		}
	}
	if err := c.SendRaw([]byte(`{"method":"spot_new_order","params":{},"id":"raw"}`)); !errors.Is(err, ErrLiveTrading) {
		t.Errorf("a raw order frame: %v", err)
	}
	if n := other.frames.Load(); n != 0 {
		t.Fatalf("%d trading frames reached the undeclared stream host", n)
	}
	if len(refused) != 9 {
		t.Errorf("OnRefused called %d times, want 9", len(refused))
	}
	for _, m := range []string{"login", "spot_subscribe", "spot_balances", "subscribeReports", "spot_get_orders"} {
		if _, err := c.Request(ctx, time.Second, m, m, nil); err != nil {
			t.Errorf("%s refused: %v", m, err)
		}
	}
	ok, err := DialWS(ctx, permitted.WS+"/api/3/ws/trading", WSOptions{Guard: g})
	if err != nil {
		t.Fatal(err)
	}
	defer ok.Close()
	if _, err := ok.Request(ctx, time.Second, "1", "spot_new_order", nil); err != nil || permitted.frames.Load() != 1 {
		t.Errorf("an order on the permitted host: %v (%d frames)", err, permitted.frames.Load())
	}
}

func TestGuardCheck(t *testing.T) {
	var nilGuard *Guard
	if err := nilGuard.Check("POST", "http://h:1/x", true); !errors.Is(err, ErrLiveTrading) || !strings.Contains(err.Error(), "--allow-live-trading") || !strings.Contains(err.Error(), "h:1") {
		t.Errorf("nil guard: %v", err)
	}
	if err := RefuseTrading("because").Check("DELETE", "http://h/x", true); err == nil || !strings.Contains(err.Error(), "because") {
		t.Errorf("reason not given: %v", err)
	}
	if err := nilGuard.Check("GET", "http://h/x", true); err != nil {
		t.Errorf("GET refused: %v", err)
	}
	if err := nilGuard.Check("POST", "http://h/x?signature=abc", true); err == nil || strings.Contains(err.Error(), "signature") {
		t.Errorf("the refusal quotes the query: %v", err)
	}
	g := PermitOnly("", "http://emu.local:8080", "wss://sandbox.example.com/api", "10.0.0.1:9000")
	for dest, want := range map[string]bool{
		"http://emu.local:8080/api/3/spot/order":   true,
		"ws://EMU.local:8080/api/3/ws/trading":     true,
		"http://emu.local:8081/api/3/spot/order":   false, // another port is another host
		"http://emu.local/api/3/spot/order":        false,
		"https://sandbox.example.com/api/3/x":      true, // wss and https share port 443
		"https://sandbox.example.com:8443/api/3/x": false,
		"http://sandbox.example.com/api/3/x":       false,
		"ws://10.0.0.1:9000/api/2/ws/trading":      true,
		"http://10.0.0.2:9000/":                    false,
		"/api/3/spot/order":                        false, // no host: refused
		"":                                         false,
	} {
		if got := g.Allows(dest); got != want {
			t.Errorf("Allows(%q) = %v, want %v", dest, got, want)
		}
		if got := PermitTrading().Allows(dest); !got {
			t.Errorf("--allow-live-trading refuses %q", dest)
		}
		if RefuseTrading("x").Allows(dest) {
			t.Errorf("a refusing guard allows %q", dest)
		}
	}
}

func TestDestination(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":        "127.0.0.1:8080",
		"ws://127.0.0.1:8080/api/3/ws": "127.0.0.1:8080",
		"https://API.example.com":      "api.example.com:443",
		"wss://api.example.com/x":      "api.example.com:443",
		"ws://[::1]:9/x":               "[::1]:9",
		"http://h":                     "h:80",
		"Host:12":                      "host:12",
	} {
		if got, err := Destination(in); err != nil || got != want {
			t.Errorf("Destination(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "/path", "ftp://h", "http://", "h"} {
		if got, err := Destination(bad); err == nil {
			t.Errorf("Destination(%q) = %q, want an error", bad, got)
		}
	}
}

func TestTradingStreamMethod(t *testing.T) {
	for m, want := range map[string]bool{
		"spot_new_order": true, "spot_cancel_orders": true, "futures_close_position": true, "futures_set_account": true,
		"newOrder": true, "cancelReplaceOrder": true, "transferToMain": true, "sub_account_freeze": true, "withdraw_crypto": true,
		"login": false, "spot_subscribe": false, "spot_balances": false, "spot_get_orders": false, "subscribeReports": false,
		"getOrders": false, "wallet_balances": false, "subscribe_transactions": false, "conform_no_such_method": false, "": false,
	} {
		if got := TradingStreamMethod(m); got != want {
			t.Errorf("TradingStreamMethod(%q) = %v, want %v", m, got, want)
		}
	}
}
