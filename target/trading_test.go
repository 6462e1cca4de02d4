package target

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator"
)

func TestMayTradePerDestination(t *testing.T) {
	const emu, other = "http://127.0.0.1:8080", "ws://127.0.0.1:9090"
	for _, tc := range []struct {
		name           string
		cfg            Config
		rest, stream   bool
		streamWhyHints string
	}{
		{"emulator, stream derived", Config{REST: emu, Emulator: true}, true, true, ""},
		{"emulator, stream on its host:port", Config{REST: emu, WS: "ws://127.0.0.1:8080/x", Emulator: true}, true, true, ""},
		{"emulator, stream on another host", Config{REST: emu, WS: other, Emulator: true}, true, false, "--ws-sandbox"},
		{"emulator, stream on another host proven an emulator", Config{REST: emu, WS: other, Emulator: true, WSEmulator: true}, true, true, ""},
		{"sandbox declares both", Config{REST: "https://api.example.com", WS: "wss://stream.example.com", Sandbox: true}, true, true, ""},
		{"rest sandbox alone", Config{REST: "https://api.example.com", WS: "wss://stream.example.com", RESTSandbox: true}, true, false, "stream.example.com"},
		{"ws sandbox alone", Config{REST: "https://api.example.com", WS: "wss://stream.example.com", WSSandbox: true}, false, true, ""},
		{"ws sandbox on the REST host declares that host", Config{REST: "https://api.example.com", WS: "wss://api.example.com/ws", WSSandbox: true}, true, true, ""},
		{"nothing declared", Config{REST: "https://api.example.com"}, false, false, "--sandbox"},
		{"live trading allowed", Config{REST: "https://api.example.com", WS: "wss://stream.example.com", AllowLiveTrading: true}, true, true, ""},
		{"emulator-looking stream flag without emulator REST", Config{REST: "https://api.example.com", WS: "wss://api.example.com"}, false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest, _ := tc.cfg.MayTrade()
			stream, why := tc.cfg.MayTradeStream()
			if rest != tc.rest || stream != tc.stream {
				t.Errorf("MayTrade = %v, MayTradeStream = %v; want %v, %v", rest, stream, tc.rest, tc.stream)
			}
			if !stream && !strings.Contains(why, tc.streamWhyHints) {
				t.Errorf("why %q does not say %q", why, tc.streamWhyHints)
			}
		})
	}
}

// controlPlane serves /_conform/info as an emulator does (on is false: a
// server without it).
func controlPlane(t *testing.T, on bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/3/public/currency":
			_, _ = io.WriteString(w, `{"BTC":{"full_name":"Bitcoin"}}`)
		case on && r.URL.Path == "/_conform/info":
			_, _ = io.WriteString(w, `{"emulator":true,"remote_addr":"`+r.RemoteAddr+`"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A stream target on a host of its own counts as the emulator only when its
// own control plane says so.
func TestResolveProvesAStreamTargetOfItsOwn(t *testing.T) {
	rest := controlPlane(t, true)
	ws := func(u string) string { return "ws" + strings.TrimPrefix(u, "http") }
	for _, tc := range []struct {
		name, ws string
		want     bool
	}{
		{"another emulator", ws(controlPlane(t, true)), true},
		{"a server without control plane", ws(controlPlane(t, false)), false},
		{"nothing listening", "ws://127.0.0.1:1", false},
		{"the REST host itself (not probed again)", ws(rest), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Resolve(context.Background(), Config{REST: rest, WS: tc.ws}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Emulator || r.WSEmulator != tc.want {
				t.Errorf("Emulator %v, WSEmulator %v; want true, %v", r.Emulator, r.WSEmulator, tc.want)
			}
			var c Config
			c.Apply(r)
			if ok, _ := c.MayTradeStream(); ok != (tc.want || tc.ws == ws(rest)) {
				t.Errorf("MayTradeStream = %v", ok)
			}
		})
	}
}

// An emulator whose control plane takes a token is detected only by a
// harness that presents it; one without a token only from loopback.
func TestResolveSendsTheControlToken(t *testing.T) {
	const token = "ctl-0123456789abcdef"
	emu, err := emulator.New(emulator.Options{ControlPlane: true, ControlToken: token})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	for _, tc := range []struct {
		token string
		want  bool
	}{{token, true}, {"", false}, {token + "x", false}} {
		r, err := Resolve(context.Background(), Config{REST: emu.URL(), ControlToken: tc.token}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Emulator != tc.want {
			t.Errorf("token %q: Emulator = %v, want %v", tc.token, r.Emulator, tc.want)
		}
	}
}
