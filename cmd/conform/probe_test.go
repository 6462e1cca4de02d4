package main

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
	}
	for in, want := range cases {
		if got, err := hostPort(in); err != nil || got != want {
			t.Errorf("hostPort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := hostPort("http://"); err == nil {
		t.Error("a URL without host was accepted")
	}
}

func TestProbe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := probe(context.Background(), "http://"+addr, nil); err != nil {
		t.Errorf("listening target: %v", err)
	}
	ln.Close() // nothing listens there now

	err = probe(context.Background(), "http://"+addr, nil)
	want := "target http://" + addr + " unreachable: dial tcp " + addr + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) || exitCode(err) != exitHarness {
		t.Errorf("closed port: %v (exit %d); want a harness error starting %q", err, exitCode(err), want)
	}

	var dialed string
	fake := func(ctx context.Context, network, a string) (net.Conn, error) {
		dialed = a
		if _, ok := ctx.Deadline(); !ok {
			t.Error("probe dials without a deadline")
		}
		return nil, errors.New("i/o timeout")
	}
	if err := probe(context.Background(), "https://api.example.com", fake); err == nil || dialed != "api.example.com:443" {
		t.Errorf("dialed %q, err %v", dialed, err)
	}
}
