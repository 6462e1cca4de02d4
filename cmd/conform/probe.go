package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/conform-harness/conform/target"
)

// probeTimeout bounds the reachability check of a target.
const probeTimeout = 3 * time.Second

// dialer opens a TCP connection (net.Dialer.DialContext); tests substitute it.
type dialer func(ctx context.Context, network, addr string) (net.Conn, error)

// hostPort returns the host:port a REST base URL connects to, filling in the
// scheme's default port.
func hostPort(rest string) (string, error) {
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
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

// probe checks that something accepts TCP connections at the target, so that
// an unreachable target is one line instead of a suite of failed specs.
func probe(ctx context.Context, rest string, dial dialer) error {
	addr, err := hostPort(rest)
	if err != nil {
		return usageError(err)
	}
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	c, err := dial(ctx, "tcp", addr)
	if err != nil {
		return harnessErrorf("target %s unreachable: %v", rest, err)
	}
	return c.Close()
}

// preflight is probe, then target.Preflight: something must listen at the
// target and answer GET /api/3/public/currency as this API does. Either
// failure is one line and exit 3, within PreflightTimeout of connecting.
func preflight(ctx context.Context, rest string) error {
	if err := probe(ctx, rest, nil); err != nil {
		return err
	}
	if err := target.Preflight(ctx, rest, target.PreflightTimeout); err != nil {
		return harnessError(err)
	}
	return nil
}
