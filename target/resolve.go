package target

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ProbeTimeout bounds the TCP reachability check of a target.
const ProbeTimeout = 3 * time.Second

// Dialer opens a TCP connection (net.Dialer.DialContext); tests substitute it.
type Dialer func(ctx context.Context, network, addr string) (net.Conn, error)

// Resolution is what probing a target found out. It is computed once per
// run (by the CLI, or by the suite for the embedded emulator) and applied to
// the config (Apply), which is handed down finished (SuiteEnv).
type Resolution struct {
	REST string `json:"rest"`
	WS   string `json:"ws,omitempty"`
	// Emulator is set when the target is a conform emulator with its control plane.
	Emulator   bool   `json:"emulator,omitempty"`
	ControlURL string `json:"control_url,omitempty"`
	// WSEmulator is set when the stream target is on another host:port and
	// its own control plane proves it a conform emulator too.
	WSEmulator bool `json:"ws_emulator,omitempty"`
	// SharedSource is set when something between the harness and an
	// emulator re-originates connections (a transparent proxy).
	SharedSource bool `json:"shared_source,omitempty"`
}

// Resolve checks that the target is reachable, that its certificates are
// trusted (CheckTLS, REST and streams) and that it is this API (Preflight),
// and finds out whether it is a conform emulator and whether a proxy merges
// source addresses. Failures are one line each, within ProbeTimeout plus
// PreflightTimeout.
func Resolve(ctx context.Context, c Config, dial Dialer) (Resolution, error) {
	if err := Probe(ctx, c.REST, dial); err != nil {
		return Resolution{}, err
	}
	conf, err := c.TLS()
	if err != nil {
		return Resolution{}, err
	}
	if err := CheckTLS(ctx, c.REST, conf, dial); err != nil {
		return Resolution{}, err
	}
	if ws := c.WS; ws != "" && ws != DeriveWS(c.REST) {
		if err := CheckTLS(ctx, ws, conf, dial); err != nil {
			return Resolution{}, err
		}
	}
	if err := Preflight(ctx, c.REST, PreflightTimeout, conf); err != nil {
		return Resolution{}, err
	}
	r := Resolution{REST: c.REST, WS: c.WS, SharedSource: c.SharedSource}
	var seen string
	r.Emulator, r.ControlURL, seen = detectEmulator(ctx, c.REST, c.ControlToken, c.IsLoopback(), conf)
	if r.Emulator && seen != "" && seen != probeSource.String() {
		// Something between us re-originates connections: every client
		// shares one address's budgets there.
		r.SharedSource = true
	}
	if c.WS != "" && !sameHost(c.REST, c.WS) {
		// A stream target of its own trades only if it is proven an
		// emulator itself (or declared a sandbox).
		r.WSEmulator, _, _ = askControlPlane(ctx, httpBase(c.WS), c.ControlToken, nil, conf)
	}
	return r, nil
}

// Apply puts a resolution into the config it was made for.
func (c *Config) Apply(r Resolution) {
	c.REST, c.WS = r.REST, r.WS
	c.Emulator, c.ControlURL, c.WSEmulator = r.Emulator, r.ControlURL, r.WSEmulator
	c.SharedSource = c.SharedSource || r.SharedSource
}

// HostPort returns the host:port a REST (or stream) base URL connects to,
// filling in the scheme's default port.
func HostPort(rest string) (string, error) {
	u, err := url.Parse(rest)
	if err != nil {
		return "", fmt.Errorf("target %q: %w", rest, err)
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("target %q: no host", rest)
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" || u.Scheme == "wss" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

// ErrBadURL wraps a target URL that cannot be dialled at all (a usage error).
type ErrBadURL struct{ Err error }

func (e *ErrBadURL) Error() string { return e.Err.Error() }
func (e *ErrBadURL) Unwrap() error { return e.Err }

// Probe checks that something accepts TCP connections at the target, so that
// an unreachable target is one line instead of a suite of failed specs.
func Probe(ctx context.Context, rest string, dial Dialer) error {
	addr, err := HostPort(rest)
	if err != nil {
		return &ErrBadURL{Err: err}
	}
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	c, err := dial(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("target %s unreachable: %w", rest, err)
	}
	return c.Close()
}

// probeSource is the loopback address the emulator probe connects from:
// outside every suite process's range of 127.(16+p).0.0/16.
var probeSource = net.IPv4(127, 16, 0, 1)

// detectEmulator asks for the control plane (with the control token, if
// any); only a conform emulator has it, and it answers only loopback peers
// or the holders of its token. It also returns the client address the
// emulator saw; on loopback the probe connects from probeSource, so a
// different answer means a proxy.
func detectEmulator(ctx context.Context, rest, token string, loopback bool, conf *tls.Config) (bool, string, string) {
	if loopback {
		if ok, ctl, seen := askControlPlane(ctx, rest, token, probeSource, conf); ok {
			return ok, ctl, seen
		}
	}
	// Not on loopback, or this system cannot connect from probeSource: the
	// address seen tells nothing.
	ok, ctl, _ := askControlPlane(ctx, rest, token, nil, conf)
	return ok, ctl, ""
}

// ControlTokenHeader carries the control token to an emulator's control
// plane (which takes Authorization: Bearer too).
const ControlTokenHeader = "X-Conform-Token"

// askControlPlane reads the emulator's /_conform/info from source address
// from (nil: the system's choice), presenting token when there is one.
func askControlPlane(ctx context.Context, rest, token string, from net.IP, conf *tls.Config) (bool, string, string) {
	ctl := strings.TrimRight(rest, "/") + "/_conform"
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	d := &net.Dialer{Timeout: ProbeTimeout}
	if from != nil {
		d.LocalAddr = &net.TCPAddr{IP: from}
	}
	tr := &http.Transport{Proxy: nil, DialContext: d.DialContext, TLSClientConfig: conf}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ctl+"/info", nil)
	if token != "" {
		req.Header.Set(ControlTokenHeader, token)
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return false, "", ""
	}
	defer resp.Body.Close()
	var in struct {
		Emulator   bool   `json:"emulator"`
		RemoteAddr string `json:"remote_addr"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&in) != nil || !in.Emulator {
		return false, "", ""
	}
	host, _, err := net.SplitHostPort(in.RemoteAddr)
	if err != nil {
		host = in.RemoteAddr
	}
	return true, ctl, host
}
