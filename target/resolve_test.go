package target

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

func TestHostPort(t *testing.T) {
	cases := map[string]string{
		"http://example.com":           "example.com:80",
		"https://example.com/prefix":   "example.com:443",
		"http://127.0.0.1:8080":        "127.0.0.1:8080",
		"https://[::1]:9443/x":         "[::1]:9443",
		"http://localhost:1/api-proxy": "localhost:1",
		"wss://example.com/ws":         "example.com:443",
		"ws://example.com":             "example.com:80",
	}
	for in, want := range cases {
		if got, err := HostPort(in); err != nil || got != want {
			t.Errorf("HostPort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := HostPort("http://"); err == nil {
		t.Error("a URL without host was accepted")
	}
}

func TestProbe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := Probe(context.Background(), "http://"+addr, nil); err != nil {
		t.Errorf("listening target: %v", err)
	}
	ln.Close() // nothing listens there now

	err = Probe(context.Background(), "http://"+addr, nil)
	want := "target http://" + addr + " unreachable: dial tcp " + addr + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("closed port: %v; want an error starting %q", err, want)
	}

	var dialed string
	fake := func(ctx context.Context, network, a string) (net.Conn, error) {
		dialed = a
		if _, ok := ctx.Deadline(); !ok {
			t.Error("probe dials without a deadline")
		}
		return nil, errors.New("i/o timeout")
	}
	if err := Probe(context.Background(), "https://api.example.com", fake); err == nil || dialed != "api.example.com:443" {
		t.Errorf("dialed %q, err %v", dialed, err)
	}
}

func TestProbeBadURL(t *testing.T) {
	var bad *ErrBadURL
	if err := Probe(context.Background(), "http://", nil); !errors.As(err, &bad) {
		t.Errorf("a URL without host: %v, want ErrBadURL", err)
	}
}

func TestApplyResolution(t *testing.T) {
	r := Resolution{REST: "http://127.0.0.1:1", WS: "ws://127.0.0.1:2", Emulator: true, ControlURL: "http://127.0.0.1:1/_conform", SharedSource: true, WSEmulator: true}
	var c Config
	c.Apply(r)
	if c.REST != r.REST || !c.Emulator || c.ControlURL != r.ControlURL || !c.SharedSource || !c.WSEmulator {
		t.Errorf("apply: %+v", c)
	}
}
