package limits

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator/internal/call"
)

func request(remote, auth string) *http.Request {
	r := httptest.NewRequest("GET", "/api/3/public/symbol", nil)
	r.RemoteAddr = remote
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	r.Header.Set("X-Forwarded-For", "203.0.113.9") // must be ignored
	return r
}

func basic(key string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":secret"))
}

func TestClientIP(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"127.0.1.7:5555", "127.0.1.7"},
		{"[::1]:80", "::1"},
		{"192.0.2.1", "192.0.2.1"},
		{"", ""},
	} {
		if got := ClientIP(request(tc.remote, "")); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.remote, got, tc.want)
		}
	}
}

// Through a proxy on this machine the harness names its loopback source
// address in X-Forwarded-For; nothing else may choose the counted address.
func TestClientIPForwardedThroughALoopbackProxy(t *testing.T) {
	for _, tc := range []struct{ remote, xff, want string }{
		{"127.0.0.1:5555", "127.17.0.9", "127.17.0.9"},
		{"127.0.0.1:5555", "127.17.0.9, 127.0.0.1", "127.17.0.9"},
		{"127.0.0.1:5555", "192.0.2.7", "127.0.0.1"},  // not an address a loopback client could bind
		{"192.0.2.1:5555", "127.17.0.9", "192.0.2.1"}, // not a loopback peer
		{"127.0.0.1:5555", "not-an-ip", "127.0.0.1"},
	} {
		r := request(tc.remote, "")
		r.Header.Set("X-Forwarded-For", tc.xff)
		if got := ClientIP(r); got != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %q, want %q", tc.remote, tc.xff, got, tc.want)
		}
	}
}

// countIP offers n requests to /public/* and returns how many passed.
func countIP(g *Guard, n int, remote func(i int) string, auth func(i int) string) (passed int, last *call.Error) {
	for i := range n {
		if e := g.AllowIP(request(remote(i), auth(i)), "/public/symbol"); e != nil {
			last = e
		} else {
			passed++
		}
	}
	return passed, last
}

func TestGuardPerIP(t *testing.T) {
	anon := func(int) string { return "" }
	mixed := func(i int) string { return [...]string{"", basic("emu-full-01"), basic("emu-full-02")}[i%3] }
	one := func(int) string { return "127.0.1.1:1000" }
	for _, tc := range []struct {
		name   string
		faults []string
		remote func(int) string
		auth   func(int) string
		want   int
	}{
		{"one address", nil, one, anon, 80},
		{"one address, port varies", nil, func(i int) string { return "127.0.1.1:" + string(rune('0'+i%10)) }, anon, 80},
		{"two addresses", nil, func(i int) string { return [...]string{"127.0.1.1:1", "127.0.1.2:1"}[i%2] }, anon, 160},
		{"credentials do not matter", nil, one, mixed, 80},
		{"V3-LIMIT-PER-IP fault counts per key", []string{"V3-LIMIT-PER-IP"}, one, mixed, 240},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGuard(Options{Clock: newManual(), Faults: mustFaults(t, tc.faults...)})
			got, _ := countIP(g, 300, tc.remote, tc.auth)
			if got != tc.want {
				t.Fatalf("passed %d of 300, want %d", got, tc.want)
			}
		})
	}
}

func TestGuard429(t *testing.T) {
	for _, tc := range []struct {
		faults []string
		status int
	}{
		{nil, 429},
		{[]string{"V3-LIMIT-429"}, 400},
	} {
		g := NewGuard(Options{Clock: newManual(), Faults: mustFaults(t, tc.faults...)})
		_, e := countIP(g, 81, func(int) string { return "127.0.1.1:1" }, func(int) string { return "" })
		if e == nil || e.Status != tc.status || e.Code != 429 || e.Message != "Too many requests" ||
			!strings.Contains(e.Description, "/public/*") {
			t.Errorf("faults %v: %+v", tc.faults, e)
		}
	}
}

func TestGuardPerAccount(t *testing.T) {
	g := NewGuard(Options{Clock: newManual()})
	passed := 0
	for i := range 80 {
		r := request([...]string{"127.0.1.1:1", "127.0.1.2:1"}[i%2], "")
		p := &call.Principal{Account: "ACC01", APIKey: [...]string{"k1", "k2"}[i%2]}
		if g.AllowAccount(r, "/wallet/balance", p) == nil && g.AllowAccount(r, "/transfer-convert/config", p) == nil {
			passed++
		}
	}
	// 50 per window shared by the two paths: 25 pairs.
	if passed != 25 {
		t.Fatalf("passed %d pairs, want 25", passed)
	}
	if e := g.AllowAccount(request("127.0.1.1:1", ""), "/wallet/x", &call.Principal{Account: "ACC02"}); e != nil {
		t.Fatalf("another account refused: %v", e)
	}
	for range 100 {
		if e := g.AllowAccount(request("127.0.1.1:1", ""), "/spot/order", &call.Principal{Account: "ACC01"}); e != nil {
			t.Fatalf("a path without a per-account class refused: %v", e)
		}
	}
}

func TestGuardConnect(t *testing.T) {
	for _, tc := range []struct {
		faults []string
		cap    int
	}{{nil, 100}, {[]string{"V3-LIMIT-WS-CONN"}, 101}} {
		g := NewGuard(Options{Faults: mustFaults(t, tc.faults...)})
		var releases []func()
		for {
			rel, ok := g.Connect(StreamPublic, "127.0.1.1")
			if !ok {
				break
			}
			releases = append(releases, rel)
		}
		if len(releases) != tc.cap {
			t.Fatalf("faults %v: %d connections, want %d", tc.faults, len(releases), tc.cap)
		}
		if _, ok := g.Connect(StreamPublic, "127.0.1.2"); !ok {
			t.Fatal("another address refused")
		}
		if _, ok := g.Connect(StreamTrading, "127.0.1.1"); !ok {
			t.Fatal("another stream refused")
		}
		releases[0]()
		releases[0]() // twice is harmless
		if _, ok := g.Connect(StreamPublic, "127.0.1.1"); !ok {
			t.Fatal("a released slot is not free")
		}
		if _, ok := g.Connect(StreamPublic, "127.0.1.1"); ok {
			t.Fatal("one release freed two slots")
		}
	}
}

func TestGuardOff(t *testing.T) {
	g := NewGuard(Options{Off: true})
	if got, _ := countIP(g, 1000, func(int) string { return "127.0.1.1:1" }, func(int) string { return "" }); got != 1000 {
		t.Fatalf("limits off: passed %d of 1000", got)
	}
	for range 500 {
		if _, ok := g.Connect(StreamPublic, "127.0.1.1"); !ok {
			t.Fatal("limits off: connection refused")
		}
		if g.AllowMessage(StreamPublic, "127.0.1.1") != nil {
			t.Fatal("limits off: message refused")
		}
	}
}

func TestGuardMessages(t *testing.T) {
	g := NewGuard(Options{Clock: newManual(), Faults: mustFaults(t, "V3-LIMIT-WS-TRADING-MSG")})
	for _, tc := range []struct {
		stream string
		want   int
	}{{StreamPublic, 20}, {StreamTrading, 21}, {StreamWallet, 20}} {
		passed := 0
		for range 40 {
			if g.AllowMessage(tc.stream, "127.0.1.1") == nil {
				passed++
			}
		}
		if passed != tc.want {
			t.Errorf("%s: %d messages passed, want %d", tc.stream, passed, tc.want)
		}
	}
	passed := 0
	for range 20 {
		if g.AllowMethod(StreamWallet, "login", "ACC01") == nil {
			passed++
		}
	}
	if passed != 12 {
		t.Errorf("wallet login per account: %d passed, want 12", passed)
	}
}

func TestClaimedKey(t *testing.T) {
	for _, tc := range []struct{ h, want string }{
		{basic("k1"), "k1"},
		{"HS256 " + base64.StdEncoding.EncodeToString([]byte("k2:abcdef:1700000000000")), "k2"},
		{"Bearer x", ""},
		{"Basic !!!", ""},
		{"", ""},
	} {
		if got := claimedKey(tc.h); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.h, got, tc.want)
		}
	}
}
