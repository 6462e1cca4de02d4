package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/limits"
	"github.com/gorilla/websocket"
)

// serve starts a stream server behind an httptest listener on 127.0.0.1.
func serve(t *testing.T, o Options) (*Server, string) {
	t.Helper()
	s := New(o)
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		_ = s.Close()
		hs.Close()
	})
	return s, "ws" + strings.TrimPrefix(hs.URL, "http")
}

func guard(t *testing.T, ids ...string) (*limits.Guard, *faults.Set) {
	t.Helper()
	f, err := faults.New(ids...)
	if err != nil {
		t.Fatal(err)
	}
	// A stopped clock: the window never moves during a test, so counts are
	// exact however slow the machine.
	return limits.NewGuard(limits.Options{Clock: clock.NewManual(time.Unix(1_700_000_000, 0)), Faults: f}), f
}

// dial connects from a loopback source address of the test's choosing.
func dial(url, from string) (*websocket.Conn, *http.Response, error) {
	d := websocket.Dialer{
		HandshakeTimeout: 5 * time.Second,
		NetDialContext:   (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext,
	}
	return d.DialContext(context.Background(), url, nil)
}

func mustDial(t *testing.T, url, from string) *websocket.Conn {
	t.Helper()
	c, resp, err := dial(url, from)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s from %s: %v (HTTP %d)", url, from, err, status)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type reply struct {
	Result *struct {
		Ch            string   `json:"ch"`
		Subscriptions []string `json:"subscriptions"`
	} `json:"result"`
	Error *struct {
		Code        int    `json:"code"`
		Message     string `json:"message"`
		Description string `json:"description"`
	} `json:"error"`
	ID json.RawMessage `json:"id"`
}

func roundTrip(t *testing.T, c *websocket.Conn, msg string) reply {
	t.Helper()
	if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, data, err := c.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	var r reply
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return r
}

func TestAnswers(t *testing.T) {
	_, base := serve(t, Options{})
	for _, tc := range []struct {
		stream, msg string
		code        int // 0: a result
		id          string
	}{
		{"/ws/public", `{"method":"subscriptions","ch":"trades","id":"a1"}`, 0, `"a1"`},
		{"/ws/public", `{"method":"subscriptions","ch":"trades"}`, 0, ``},
		{"/ws/public", `{"method":"subscribe","ch":"trades","params":{"symbols":["BTCUSDT"]},"id":7}`, 10001, `7`},
		{"/ws/trading", `{"method":"spot_balances","params":{},"id":"b"}`, 10001, `"b"`},
		{"/ws/wallet", `{"method":"subscriptions","id":"c"}`, 10001, `"c"`},
		{"/ws/wallet", `not json`, 10001, ``},
	} {
		c := mustDial(t, base+"/api/3"+tc.stream, "127.0.0.1")
		r := roundTrip(t, c, tc.msg)
		switch {
		case tc.code == 0 && (r.Result == nil || r.Result.Ch != "trades" || r.Result.Subscriptions == nil || len(r.Result.Subscriptions) != 0):
			t.Errorf("%s %s: want result {ch, subscriptions: []}, got %+v", tc.stream, tc.msg, r)
		case tc.code != 0 && (r.Error == nil || r.Error.Code != tc.code || r.Error.Message == ""):
			t.Errorf("%s %s: want error %d, got %+v", tc.stream, tc.msg, tc.code, r)
		case string(r.ID) != tc.id:
			t.Errorf("%s %s: id %s, want %q", tc.stream, tc.msg, r.ID, tc.id)
		}
	}
}

// burst sends n messages over conns in turn and returns how many answers
// were refusals (error code 429) and how many were not.
func burst(t *testing.T, conns []*websocket.Conn, n int) (accepted, refused int) {
	t.Helper()
	for i := range n {
		r := roundTrip(t, conns[i%len(conns)], fmt.Sprintf(`{"method":"subscriptions","ch":"trades","id":"m%d"}`, i))
		if string(r.ID) != fmt.Sprintf(`"m%d"`, i) {
			t.Fatalf("message %d answered with id %s", i, r.ID)
		}
		if r.Error != nil && r.Error.Code == 429 {
			refused++
		} else {
			accepted++
		}
	}
	return accepted, refused
}

func TestMessageLimitPerIPPerStream(t *testing.T) {
	for _, tc := range []struct {
		fault string
		want  map[string]int
	}{
		{"", map[string]int{"/ws/public": 20, "/ws/trading": 20, "/ws/wallet": 20}},
		{"V3-LIMIT-WS-PUBLIC-MSG", map[string]int{"/ws/public": 21, "/ws/trading": 20, "/ws/wallet": 20}},
		{"V3-LIMIT-WS-WALLET-MSG", map[string]int{"/ws/public": 20, "/ws/trading": 20, "/ws/wallet": 21}},
	} {
		t.Run("fault "+tc.fault, func(t *testing.T) {
			g, f := guard(t, tc.fault)
			_, base := serve(t, Options{Guard: g, Faults: f})
			for stream, want := range tc.want {
				// Two connections from one address share its budget; a
				// second address has one of its own.
				a := []*websocket.Conn{mustDial(t, base+"/api/3"+stream, "127.0.2.1"), mustDial(t, base+"/api/3"+stream, "127.0.2.1")}
				if acc, ref := burst(t, a, 30); acc != want || ref != 30-want {
					t.Errorf("%s from one address: %d accepted, %d refused; want %d and %d", stream, acc, ref, want, 30-want)
				}
				b := []*websocket.Conn{mustDial(t, base+"/api/3"+stream, "127.0.2.2")}
				if acc, _ := burst(t, b, 30); acc != want {
					t.Errorf("%s from another address: %d accepted, want %d", stream, acc, want)
				}
			}
		})
	}
}

func TestConnectionCap(t *testing.T) {
	for _, tc := range []struct {
		fault string
		cap   int
	}{{"", 100}, {"V3-LIMIT-WS-CONN", 101}} {
		t.Run("fault "+tc.fault, func(t *testing.T) {
			g, f := guard(t, tc.fault)
			s, base := serve(t, Options{Guard: g, Faults: f})
			url := base + "/api/3/ws/public"
			// Failed handshakes must not hold slots.
			for range 20 {
				resp, err := http.Get("http" + strings.TrimPrefix(url, "ws"))
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 400 || !json.Valid(body) {
					t.Fatalf("plain GET: %d %s", resp.StatusCode, body)
				}
			}
			conns := make([]*websocket.Conn, tc.cap)
			var wg sync.WaitGroup
			for i := range conns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, _, err := dial(url, "127.0.3.1")
					if err != nil {
						t.Errorf("connection %d: %v", i+1, err)
						return
					}
					conns[i] = c
				}()
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			_, resp, err := dial(url, "127.0.3.1")
			if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("connection %d: err %v, response %+v; want HTTP 429", tc.cap+1, err, resp)
			}
			body, _ := io.ReadAll(resp.Body)
			if !strings.Contains(string(body), `"code":429`) {
				t.Errorf("refusal body %s", body)
			}
			mustDial(t, url, "127.0.3.2")
			mustDial(t, base+"/api/3/ws/trading", "127.0.3.1") // the cap is per stream
			conns[0].Close()
			deadline := time.Now().Add(5 * time.Second)
			for {
				c, _, err := dial(url, "127.0.3.1")
				if err == nil {
					c.Close()
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("a closed connection's slot never freed: %v", err)
				}
				time.Sleep(10 * time.Millisecond)
			}
			for _, c := range conns[1:] {
				c.Close()
			}
			// Left open: the one from the other address and the one to /ws/trading.
			waitFor(t, func() bool { return s.Conns() == 2 }, "closed connections to go away")
		})
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// firstPing returns how long after the handshake the first ping came.
func firstPing(t *testing.T, url string) time.Duration {
	t.Helper()
	c := mustDial(t, url, "127.0.0.1")
	start := time.Now()
	got := make(chan time.Duration, 1)
	c.SetPingHandler(func(string) error {
		select {
		case got <- time.Since(start):
		default:
		}
		return nil
	})
	go func() {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}()
	select {
	case d := <-got:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no ping in 5 s")
		return 0
	}
}

func TestPing(t *testing.T) {
	const every = 100 * time.Millisecond
	for _, tc := range []struct {
		fault    string
		min, max time.Duration
	}{
		{"", every * 8 / 10, every * 3},
		{"V3-LIMIT-WS-PING", every * 18 / 10, every * 6},
	} {
		f, _ := faults.New(tc.fault)
		_, base := serve(t, Options{PingInterval: every, Faults: f})
		if d := firstPing(t, base+"/api/3/ws/public"); d < tc.min || d > tc.max {
			t.Errorf("fault %q: first ping after %s, want %s to %s", tc.fault, d, tc.min, tc.max)
		}
	}
}

func TestCloseEndsEveryConnection(t *testing.T) {
	s := New(Options{PingInterval: time.Hour})
	hs := httptest.NewServer(s)
	defer hs.Close()
	base := "ws" + strings.TrimPrefix(hs.URL, "http") + "/api/3"
	var conns []*websocket.Conn
	for _, st := range []string{"/ws/public", "/ws/trading", "/ws/wallet"} {
		conns = append(conns, mustDial(t, base+st, "127.0.0.1"))
	}
	waitFor(t, func() bool { return s.Conns() == 3 }, "three connections")
	done := make(chan struct{})
	go func() { _ = s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, _, err := c.ReadMessage()
		if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
			t.Errorf("after Close: %v, want close 1001", err)
		}
	}
	if _, resp, err := dial(base+"/ws/public", "127.0.0.1"); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("handshake after Close: %v %+v, want 503", err, resp)
	}
}

func TestUnknownStreamIs404(t *testing.T) {
	_, base := serve(t, Options{})
	for _, p := range []string{"/api/3/ws/other", "/api/3/ws", "/ws/public"} {
		_, resp, err := dial(base+p, "127.0.0.1")
		if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %v %+v, want 404", p, err, resp)
		}
	}
}
