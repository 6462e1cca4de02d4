package v2

import (
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/conform-harness/conform/emulator/internal/wallet"
)

// addressJSON is the Deposit address resource (and the used-address record).
type addressJSON struct {
	Address     string `json:"address"`
	PaymentID   string `json:"paymentId,omitempty"`
	PublicKey   any    `json:"publicKey,omitempty"` // a String; any so that a fault can mistype it
	NetworkCode string `json:"networkCode,omitempty"`
}

func newAddress(a wallet.Address, d Deps) addressJSON {
	out := addressJSON{Address: a.Address, PaymentID: a.PaymentID, NetworkCode: a.NetworkCode}
	if d.Faults.On("V2-ADDRESS-FIELDS") {
		out.PublicKey = false // a Boolean where the document types a String
	}
	return out
}

func addresses(as []wallet.Address, d Deps) []addressJSON {
	out := make([]addressJSON, 0, len(as))
	for _, a := range as {
		out = append(out, newAddress(a, d))
	}
	return out
}

type feeLevelJSON struct {
	FeeLevelID int64  `json:"feeLevelId"`
	Comment    string `json:"comment"`
	Fee        string `json:"fee"`
	IsDefault  bool   `json:"isDefault"`
}

func accountRoutes(d Deps) []api.Route {
	w := d.Wallet
	payment, withdraw := auth.RightPayment, auth.RightWithdraw
	if d.Faults.On("V2-AUTH-RIGHTS") {
		payment = auth.RightOrderbook
	}
	// currencyOf is the {currency} path segment, which must be listed.
	currencyOf := func(r *api.Request) (string, *api.Error) {
		c := r.PathValue("currency")
		if !d.Market.HasCurrency(c) {
			return "", api.CurrencyNotFound(c)
		}
		return c, nil
	}
	address := func(get func(account, currency, network string) (wallet.Address, *wallet.Error)) api.Handler {
		return func(r *api.Request) (any, *api.Error) {
			c, err := currencyOf(r)
			if err != nil {
				return nil, err
			}
			net, _ := r.Params.String("networkCode")
			a, werr := get(r.Principal.Account, c, net)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return newAddress(a, d), nil
		}
	}
	list := func(get func(account, currency, network string) ([]wallet.Address, *wallet.Error)) api.Handler {
		return func(r *api.Request) (any, *api.Error) {
			c, err := currencyOf(r)
			if err != nil {
				return nil, err
			}
			net, _ := r.Params.String("networkCode")
			as, werr := get(r.Principal.Account, c, net)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return addresses(as, d), nil
		}
	}
	return []api.Route{
		{Method: "GET", Path: "/account/balance", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			out := v2shape.NewBalances(w.Balances(r.Principal.Account))
			if d.Faults.On("V2-BALANCE-RESERVED") {
				for i := range out {
					out[i].Reserved = "0"
				}
			}
			if d.Faults.On("V2-BALANCE-FIELDS") {
				list := make([]any, 0, len(out))
				for _, b := range out {
					list = append(list, v2shape.Without(b, "reserved"))
				}
				return list, nil
			}
			return out, nil
		}},
		{Method: "GET", Path: "/account/crypto/address/{currency}", Right: payment, Handle: address(func(acct, c, net string) (wallet.Address, *wallet.Error) {
			if d.Faults.On("V2-ACCOUNT-ADDRESS-NETWORK-GET") {
				net = ""
			}
			if d.Faults.On("V2-ACCOUNT-ADDRESS-CURRENT") {
				return w.NewAddress(acct, c, net)
			}
			return w.CurrentAddress(acct, c, net)
		})},
		{Method: "POST", Path: "/account/crypto/address/{currency}", Right: payment, Handle: address(func(acct, c, net string) (wallet.Address, *wallet.Error) {
			if d.Faults.On("V2-ACCOUNT-ADDRESS-NEW") {
				return w.CurrentAddress(acct, c, net)
			}
			if d.Faults.On("V2-ACCOUNT-ADDRESS-NETWORK") {
				net = ""
			}
			return w.NewAddress(acct, c, net)
		})},
		{Method: "GET", Path: "/account/crypto/addresses/{currency}", Right: payment, Handle: list(func(acct, c, net string) ([]wallet.Address, *wallet.Error) {
			if d.Faults.On("V2-ACCOUNT-ADDRESS-NETWORK-GET") {
				net = ""
			}
			return w.Addresses(acct, c, net)
		})},
		{Method: "GET", Path: "/account/crypto/used-addresses/{currency}", Right: payment, Handle: list(func(acct, c, net string) ([]wallet.Address, *wallet.Error) {
			as, err := w.UsedAddresses(acct, c, net)
			if d.Faults.On("V2-ACCOUNT-USED-ADDRESSES") && len(as) > 0 {
				as = as[1:] // forgets the latest
			}
			return as, err
		})},
		{Method: "GET", Path: "/account/crypto/is-mine/{address}", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			return map[string]bool{"result": w.IsMine(r.Principal.Account, r.PathValue("address"))}, nil
		}},
		{Method: "GET", Path: "/account/crypto/estimate-withdraw", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			if r.Params.Has("networkCode") && d.Faults.On("V2-VERSION-NETWORK-PARAM") {
				return nil, api.Validation("networkCode is not a parameter of estimate-withdraw")
			}
			c, amt, net, err := currencyAmount(r, d)
			if err != nil {
				return nil, err
			}
			fee, werr := w.EstimateFee(c, net, amt)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			if d.Faults.On("V2-ACCOUNT-ESTIMATE") {
				return map[string]string{"estimatedFee": fee.String()}, nil
			}
			return map[string]string{"fee": fee.String()}, nil
		}},
		{Method: "GET", Path: "/account/crypto/estimate-withdraw-levels", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			c, amt, net, err := currencyAmount(r, d)
			if err != nil && !r.Params.Has("amount") && d.Faults.On("V2-ACCOUNT-ESTIMATE-REQUIRED") {
				c, _ = r.Params.String("currency")
				amt, err = one, nil // the fault: levels without amount are those of amount 1
			}
			if err != nil {
				return nil, err
			}
			ls, werr := w.Levels(c, net, amt)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			out := make([]feeLevelJSON, 0, len(ls))
			for _, l := range ls {
				out = append(out, feeLevelJSON{FeeLevelID: l.ID, Comment: l.Comment, Fee: l.Fee.String(), IsDefault: l.IsDefault})
			}
			if d.Faults.On("V2-ACCOUNT-ESTIMATE-LEVELS") {
				out[1].IsDefault = false
			}
			return out, nil
		}},
		{Method: "POST", Path: "/account/crypto/withdraw", Right: withdraw, Handle: func(r *api.Request) (any, *api.Error) {
			req, err := withdrawRequest(r, d)
			if err != nil {
				return nil, err
			}
			id, werr := w.Withdraw(req)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return map[string]string{"id": id}, nil
		}},
		{Method: "PUT", Path: "/account/crypto/withdraw/{id}", Right: withdraw, Handle: func(r *api.Request) (any, *api.Error) {
			ok, werr := w.Commit(r.Principal.Account, r.PathValue("id"))
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return map[string]bool{"result": ok}, nil
		}},
		{Method: "DELETE", Path: "/account/crypto/withdraw/{id}", Right: withdraw, Handle: func(r *api.Request) (any, *api.Error) {
			if d.Faults.On("V2-ACCOUNT-WITHDRAW-ROLLBACK") {
				return map[string]bool{"result": true}, nil
			}
			ok, werr := w.Rollback(r.Principal.Account, r.PathValue("id"))
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return map[string]bool{"result": ok}, nil
		}},
	}
}

// currencyAmount reads currency (listed), amount and networkCode.
func currencyAmount(r *api.Request, d Deps) (string, decimalT, string, *api.Error) {
	c, err := required(r.Params, "currency")
	if err != nil {
		return "", decimalT{}, "", err
	}
	if !d.Market.HasCurrency(c) {
		return "", decimalT{}, "", api.CurrencyNotFound(c)
	}
	amt, err := requiredDecimal(r.Params, "amount")
	if err != nil && d.Faults.On("V2-ERR-10001") && !r.Params.Has("amount") {
		amt, err = decimalT{}.Add(one), nil // the fault: a missing amount reads as 1
	}
	if err != nil {
		return "", decimalT{}, "", err
	}
	net, _ := r.Params.String("networkCode")
	return c, amt, net, nil
}

func withdrawRequest(r *api.Request, d Deps) (wallet.WithdrawRequest, *api.Error) {
	p := r.Params
	req := wallet.WithdrawRequest{Account: r.Principal.Account}
	var err *api.Error
	if req.Currency, req.Amount, req.Network, err = currencyAmount(r, d); err != nil {
		return req, err
	}
	if req.Address, err = required(p, "address"); err != nil && d.Faults.On("V2-ACCOUNT-WITHDRAW-REQUIRED") {
		own, _ := d.Wallet.CurrentAddress(req.Account, req.Currency, req.Network) // the fault: a missing address reads as the account's own
		req.Address, err = own.Address, nil
	}
	if err != nil {
		return req, err
	}
	if d.Faults.On("V2-ACCOUNT-WITHDRAW-NETWORK") {
		req.Network = "" // the fault: networkCode is dropped, the wallet takes the default network
	}
	req.PaymentID, _ = p.String("paymentId")
	req.PublicComment, _ = p.String("publicComment")
	if req.IncludeFee, err = p.Bool("includeFee", false); err != nil {
		return req, err
	}
	commit := "autoCommit"
	if !p.Has(commit) && d.Faults.On("V2-ACCOUNT-WITHDRAW-V3-NAMES") {
		commit = "auto_commit" // the fault: version 3's spelling read as autoCommit
	}
	if v, _ := p.String(commit); v != "" && v != "true" && v != "false" && d.Faults.On("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT-BOOLEAN") {
		commit = "" // the fault: a value that is no Boolean is taken as the default, true
	}
	if req.AutoCommit, err = p.Bool(commit, !d.Faults.On("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT-DEFAULT")); err != nil {
		return req, err
	}
	return req, nil
}
