package main

import (
	"context"
	"errors"

	"github.com/conform-harness/conform/target"
)

// resolve probes the target once for the whole run (target.Resolve):
// something must listen there and answer GET /api/3/public/currency as this
// API does. A malformed URL is a usage error; any other failure is one line
// and exit 3, within a few seconds of connecting.
func resolve(ctx context.Context, cfg target.Config, dial target.Dialer) (target.Resolution, error) {
	r, err := target.Resolve(ctx, cfg, dial)
	var bad *target.ErrBadURL
	switch {
	case errors.As(err, &bad):
		return r, usageError(err)
	case err != nil:
		return r, harnessError(err)
	}
	return r, nil
}

// preflight checks reachability, the target's certificates and the API
// without asking for the emulator (conform load).
func preflight(ctx context.Context, cfg target.Config) error {
	var bad *target.ErrBadURL
	if err := target.Probe(ctx, cfg.REST, nil); errors.As(err, &bad) {
		return usageError(err)
	} else if err != nil {
		return harnessError(err)
	}
	conf, err := cfg.TLS()
	if err != nil {
		return usageError(err)
	}
	if err := target.CheckTLS(ctx, cfg.REST, conf, nil); err != nil {
		return harnessError(err)
	}
	if err := target.Preflight(ctx, cfg.REST, target.PreflightTimeout, conf); err != nil {
		return harnessError(err)
	}
	return nil
}
