package framework

import (
	"context"

	"github.com/conform-harness/conform/client"
)

// V2Prefix is where API version 2 lives ({base_url}/api/2).
const V2Prefix = "/api/2"

// V2Public returns a client of API version 2 without credentials; paths
// are relative to /api/2.
func (e *Env) V2Public() *client.Client { return e.recorded(client.WithPrefix(V2Prefix)) }

// V2Signed returns a client of API version 2 authenticating as role with
// HTTP Basic (the scheme the v2 document shows), keeping within the v2
// per-user rates.
func (e *Env) V2Signed(role string) *client.Client {
	a := e.Account(role)
	return e.recorded(client.WithPrefix(V2Prefix), client.WithAuth(client.Basic{Key: a.APIKey, Secret: a.Secret}), client.WithBudget(e.v2budget))
}

// V2Quiet waits until this process's v2 requests have left the per-user
// window, so that a limit scenario starts from a full per-user budget.
func (e *Env) V2Quiet(ctx context.Context) error { return e.v2budget.Quiet(ctx) }

// V2Spent tells the process's v2 budget that its account's per-user budget
// was spent outside it (by a limit scenario): the next v2 requests wait for
// the window to pass.
func (e *Env) V2Spent() { e.v2budget.Saturate() }
