package v3

import (
	"encoding/json"
	"slices"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/fixtures"
)

// Directory is the reference data of the account-level families the
// emulator serves read-only for now: each account's sub-accounts and the
// crypto-purchase providers. (Freezing, transfers, ACLs, rates and orders
// arrive with their own issue.)
type Directory struct {
	SubAccounts map[string][]fixtures.SubAccount
	Providers   []json.RawMessage
}

// provider is the part of a Provider record the filters read.
type provider struct {
	ID      int64 `json:"provider_id"`
	Methods []struct {
		Source []struct {
			Code string `json:"code"`
		} `json:"supported_source"`
		Target []struct {
			Code string `json:"code"`
		} `json:"supported_target"`
	} `json:"methods"`
}

func (p provider) supports(source, target string) bool {
	for _, m := range p.Methods {
		src := source == "" || slices.ContainsFunc(m.Source, func(c struct {
			Code string `json:"code"`
		}) bool {
			return c.Code == source
		})
		dst := target == "" || slices.ContainsFunc(m.Target, func(c struct {
			Code string `json:"code"`
		}) bool {
			return c.Code == target
		})
		if src && dst {
			return true
		}
	}
	return false
}

func accountRoutes(d Deps) []api.Route {
	return []api.Route{
		// GET /sub-account: the caller's sub-accounts; any authenticated key.
		{Method: "GET", Path: "/sub-account", Handle: func(r *api.Request) (any, *api.Error) {
			subs := d.Directory.SubAccounts[r.Principal.Account]
			if subs == nil {
				subs = []fixtures.SubAccount{}
			}
			return subs, nil
		}},
		// GET /buy-crypto/provider: providers, filtered by provider_id,
		// source (fiat) and target (crypto).
		{Method: "GET", Path: "/buy-crypto/provider", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			id, err := r.Params.Int("provider_id", 0, 1, 1<<53)
			if err != nil {
				return nil, err
			}
			source, _ := r.Params.String("source")
			target, _ := r.Params.String("target")
			out := []json.RawMessage{}
			for _, raw := range d.Directory.Providers {
				var p provider
				if json.Unmarshal(raw, &p) != nil {
					continue
				}
				if (id == 0 || p.ID == id) && p.supports(source, target) {
					out = append(out, raw)
				}
			}
			return out, nil
		}},
	}
}
