package v3

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// Beyond the contract: the document names the wallet management family
// (balance, transactions, crypto address) but shows no parameters or
// answers. The emulator serves the few that client libraries call for an
// account's funds — ccxt's hitbtc fetchDepositAddress, createDepositAddress,
// fetchBalance({type: 'funding'}), fetchDeposits/fetchWithdrawals — with the
// real service's shapes (its API reference, "Wallet management"; the
// platform's own SDKs, e.g. cryptomkt-js): Payment information right,
// addresses {currency, address, payment_id, public_key, network_code},
// balances {currency, available, reserved}. As on the wallet stream, the
// wallet balances are the ledger's, and there are no wallet transactions.

// walletAddress is the real service's deposit Address.
type walletAddress struct {
	Currency    string `json:"currency"`
	Address     string `json:"address"`
	PaymentID   string `json:"payment_id,omitempty"`
	PublicKey   string `json:"public_key,omitempty"`
	NetworkCode string `json:"network_code,omitempty"`
}

type walletBalanceView struct {
	Currency  string `json:"currency,omitempty"`
	Available string `json:"available"`
	Reserved  string `json:"reserved"`
}

func newWalletBalanceView(b ledger.Balance, withCurrency bool) walletBalanceView {
	out := walletBalanceView{Available: b.Available.String(), Reserved: b.Reserved.String()}
	if withCurrency {
		out.Currency = b.Currency
	}
	return out
}

func walletRoutes(d Deps) []api.Route {
	return []api.Route{
		{Method: "GET", Path: "/wallet/balance", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			bs := d.Ledger.Balances(r.Principal.Account)
			out := make([]walletBalanceView, 0, len(bs))
			for _, b := range bs {
				if b.Available.IsZero() && b.Reserved.IsZero() {
					continue // the service lists wallet balances "except zero balances"
				}
				out = append(out, newWalletBalanceView(b, true))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/wallet/balance/{currency}", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			c := r.PathValue("currency")
			if !d.Market.HasCurrency(c) {
				return nil, api.CurrencyNotFound(c)
			}
			return newWalletBalanceView(d.Ledger.Balance(r.Principal.Account, c), false), nil
		}},
		{Method: "GET", Path: "/wallet/crypto/address", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			cur, _ := r.Params.String("currency")
			if cur == "" {
				out := []walletAddress{}
				for _, code := range d.Market.CurrencyCodes() {
					if a, err := d.depositAddress(r.Principal.Account, code, ""); err == nil {
						out = append(out, a)
					}
				}
				return out, nil
			}
			network, _ := r.Params.String("network_code")
			a, err := d.depositAddress(r.Principal.Account, cur, network)
			if err != nil {
				return nil, err
			}
			return []walletAddress{a}, nil
		}},
		{Method: "POST", Path: "/wallet/crypto/address", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			cur, _ := r.Params.String("currency")
			if cur == "" {
				return nil, api.Validation("currency is required")
			}
			network, _ := r.Params.String("network_code")
			return d.depositAddress(r.Principal.Account, cur, network)
		}},
		{Method: "GET", Path: "/wallet/transactions", Right: auth.RightPayment, Handle: func(*api.Request) (any, *api.Error) {
			return []struct{}{}, nil
		}},
	}
}

// depositAddress is the account's deposit address for a crypto currency
// (and one of its networks when network is named): the same on every call,
// derived from the account, currency and network.
func (d Deps) depositAddress(account, currency, network string) (walletAddress, *api.Error) {
	code := strings.ToUpper(currency)
	c, ok := d.Market.Currency(code)
	if !ok {
		return walletAddress{}, api.CurrencyNotFound(currency)
	}
	if !c.Crypto || !c.PayinEnabled {
		return walletAddress{}, api.Validation("%s has no deposit address", code)
	}
	if network != "" {
		found := false
		for _, n := range c.Networks {
			found = found || strings.EqualFold(n.Network, network) || strings.EqualFold(n.Code, network)
		}
		if !found {
			return walletAddress{}, api.Validation("%s is not a network of %s", network, code)
		}
	}
	sum := sha256.Sum256([]byte("deposit|" + account + "|" + code + "|" + strings.ToUpper(network)))
	return walletAddress{Currency: code, Address: "emu" + hex.EncodeToString(sum[:16]), NetworkCode: strings.ToUpper(network)}, nil
}
