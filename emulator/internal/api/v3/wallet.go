package v3

import (
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/wallet"
)

// Beyond the contract: the document names the wallet management family
// (balance, transactions, crypto address) but shows no parameters or
// answers. The emulator serves the few that client libraries call for an
// account's funds — ccxt's hitbtc fetchDepositAddress, createDepositAddress,
// fetchBalance({type: 'funding'}), fetchDeposits/fetchWithdrawals, transfer
// between funding and spot, withdraw — with the
// real service's shapes (its API reference, "Wallet management"; the
// platform's own SDKs, e.g. cryptomkt-js; ccxt's hitbtc.ts parsers), over
// the same main (wallet) account as v2's /account/*: Payment information
// right, addresses {currency, address, payment_id, network_code}, balances
// {currency, available, reserved}, transactions {id, status, type, subtype,
// created_at, updated_at, native: {...}}.

// walletAddress is the real service's deposit Address.
type walletAddress struct {
	Currency    string `json:"currency"`
	Address     string `json:"address"`
	PaymentID   string `json:"payment_id,omitempty"`
	NetworkCode string `json:"network_code,omitempty"`
}

func newWalletAddress(a wallet.Address) walletAddress {
	return walletAddress{Currency: a.Currency, Address: a.Address, PaymentID: a.PaymentID, NetworkCode: a.NetworkCode}
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

// walletTx is the real service's v3 Transaction.
type walletTx struct {
	ID        int64        `json:"id"`
	CreatedAt string       `json:"created_at"`
	UpdatedAt string       `json:"updated_at"`
	Status    string       `json:"status"`
	Type      string       `json:"type"`
	Subtype   string       `json:"subtype"`
	Native    walletNative `json:"native"`
}

type walletNative struct {
	TxID          string   `json:"tx_id"`
	Index         int64    `json:"index"`
	Currency      string   `json:"currency"`
	Amount        string   `json:"amount"`
	Fee           string   `json:"fee,omitempty"`
	Address       string   `json:"address,omitempty"`
	PaymentID     string   `json:"payment_id,omitempty"`
	Hash          string   `json:"hash,omitempty"`
	NetworkCode   string   `json:"network_code,omitempty"`
	Confirmations *int64   `json:"confirmations,omitempty"`
	PublicComment string   `json:"public_comment,omitempty"`
	ErrorCode     string   `json:"error_code,omitempty"`
	Senders       []string `json:"senders,omitempty"`
}

// v3Kind names a wallet transaction as v3 does (type, subtype): the wallet
// records v2's types.
func v3Kind(t wallet.Transaction) (string, string) {
	switch {
	case t.Type == wallet.TypeBankToExchange:
		return "TRANSFER", "WALLET_TO_SPOT"
	case t.Type == wallet.TypeExchangeToBank:
		return "TRANSFER", "SPOT_TO_WALLET"
	case t.SubType == "swap" && t.Type == wallet.TypeWithdraw:
		return "SWAP", "CHAIN_SWITCH_FROM"
	case t.SubType == "swap":
		return "SWAP", "CHAIN_SWITCH_TO"
	}
	typ := "DEPOSIT"
	if t.Type == wallet.TypeWithdraw || t.Type == wallet.TypePayout {
		typ = "WITHDRAW"
	}
	if t.SubType == "offchain" {
		return typ, "OFFCHAIN"
	}
	return typ, "BLOCKCHAIN"
}

func newWalletTx(t wallet.Transaction) walletTx {
	typ, sub := v3Kind(t)
	return walletTx{ID: t.Index, CreatedAt: wireTime(t.CreatedAt), UpdatedAt: wireTime(t.UpdatedAt),
		Status: strings.ToUpper(t.Status), Type: typ, Subtype: sub, Native: walletNative{
			TxID: t.ID, Index: t.Index, Currency: t.Currency, Amount: t.Amount.String(), Fee: t.Fee.String(),
			Address: t.Address, PaymentID: t.PaymentID, Hash: t.Hash, NetworkCode: t.NetworkCode,
			Confirmations: t.Confirmations, PublicComment: t.PublicComment, ErrorCode: t.ErrorCode, Senders: t.Senders,
		}}
}

func walletRoutes(d Deps) []api.Route {
	w := d.Wallet
	if w == nil {
		return nil
	}
	return []api.Route{
		{Method: "GET", Path: "/wallet/balance", Right: auth.RightPayment, Handle: d.getWalletBalances},
		{Method: "GET", Path: "/wallet/balance/{currency}", Right: auth.RightPayment, Handle: d.getWalletBalance},
		{Method: "GET", Path: "/wallet/crypto/address", Right: auth.RightPayment, Handle: d.getWalletAddresses},
		{Method: "POST", Path: "/wallet/crypto/address", Right: auth.RightPayment, Handle: d.newWalletAddress},
		{Method: "GET", Path: "/wallet/transactions", Right: auth.RightPayment, Handle: d.walletTransactions},
		{Method: "POST", Path: "/wallet/transfer", Right: auth.RightPayment, Handle: d.walletTransfer},
		{Method: "POST", Path: "/wallet/crypto/withdraw", Right: auth.RightWithdraw, Handle: d.walletWithdraw},
		{Method: "PUT", Path: "/wallet/crypto/withdraw/{id}", Right: auth.RightWithdraw, Handle: d.commitWithdrawal},
		{Method: "DELETE", Path: "/wallet/crypto/withdraw/{id}", Right: auth.RightWithdraw, Handle: d.rollbackWithdrawal},
	}
}

// walletTransfer answers POST /wallet/transfer: currency, amount, source
// and destination (wallet, spot or derivatives, the futures balance), with
// the transfer's id in a one-element array.
func (d Deps) walletTransfer(r *api.Request) (any, *api.Error) {
	cur, _ := r.Params.String("currency")
	amount, ok, perr := r.Params.Decimal("amount")
	if perr != nil {
		return nil, perr
	}
	src, _ := r.Params.String("source")
	dst, _ := r.Params.String("destination")
	if cur == "" || !ok {
		return nil, api.Validation("currency and amount are required")
	}
	var typ string
	acct := r.Principal.Account
	ledgerOf := map[string]string{"wallet": wallet.Key(acct), "spot": acct, "derivatives": engine.FuturesBalanceKey(acct)}
	switch src + ">" + dst {
	case "wallet>spot":
		typ = wallet.TypeBankToExchange
	case "spot>wallet":
		typ = wallet.TypeExchangeToBank
	case "wallet>derivatives", "derivatives>wallet", "spot>derivatives", "derivatives>spot":
		// The futures balance: moved as it is, no wallet transaction.
		id, err := d.Wallet.Move(acct, strings.ToUpper(cur), amount, ledgerOf[src], ledgerOf[dst])
		if err != nil {
			return nil, walletError(err, cur)
		}
		return []string{id}, nil
	default:
		return nil, api.Validation("source and destination must be two of wallet, spot, derivatives, got %q and %q", src, dst)
	}
	id, err := d.Wallet.Transfer(r.Principal.Account, strings.ToUpper(cur), amount, typ)
	if err != nil {
		return nil, walletError(err, cur)
	}
	return []string{id}, nil
}

// walletWithdraw answers POST /wallet/crypto/withdraw: currency, amount,
// address, payment_id, network_code, include_fee (default false),
// auto_commit (default true), public_comment; {id} of the transaction,
// which then moves through the wallet's states (see wallet.Timeline).
func (d Deps) walletWithdraw(r *api.Request) (any, *api.Error) {
	cur, _ := r.Params.String("currency")
	amount, ok, perr := r.Params.Decimal("amount")
	if perr != nil {
		return nil, perr
	}
	if cur == "" || !ok {
		return nil, api.Validation("currency and amount are required")
	}
	includeFee, perr := r.Params.Bool("include_fee", false)
	if perr != nil {
		return nil, perr
	}
	autoCommit, perr := r.Params.Bool("auto_commit", true)
	if perr != nil {
		return nil, perr
	}
	address, _ := r.Params.String("address")
	paymentID, _ := r.Params.String("payment_id")
	network, _ := r.Params.String("network_code")
	comment, _ := r.Params.String("public_comment")
	code := strings.ToUpper(cur)
	if !d.Market.HasCurrency(code) {
		return nil, api.CurrencyNotFound(cur)
	}
	id, err := d.Wallet.Withdraw(wallet.WithdrawRequest{Account: r.Principal.Account, Currency: code, Network: strings.ToUpper(network),
		Amount: amount, Address: address, PaymentID: paymentID, IncludeFee: includeFee, AutoCommit: autoCommit, PublicComment: comment})
	if err != nil {
		return nil, walletError(err, cur)
	}
	return map[string]string{"id": id}, nil
}

// walletError maps a wallet refusal to the v3 error table.
func walletError(err *wallet.Error, cur string) *api.Error {
	switch err.Kind {
	case wallet.Currency:
		return api.CurrencyNotFound(cur)
	case wallet.Insufficient:
		return &api.Error{Status: http.StatusBadRequest, Code: 20001, Message: "Insufficient funds", Description: err.Msg}
	case wallet.NotAllowed:
		return &api.Error{Status: http.StatusBadRequest, Code: 600, Message: "Action is not allowed", Description: err.Msg}
	case wallet.NotFound:
		return &api.Error{Status: http.StatusBadRequest, Code: api.CodeOrderNotFound, Message: "Not found", Description: err.Msg}
	}
	return api.Validation("%s", err.Msg)
}

// walletCall runs an address operation of the wallet for a listed currency
// and the optional network_code.
func walletCall(d Deps, r *api.Request, cur string, get func(account, currency, network string) (wallet.Address, *wallet.Error)) (walletAddress, *api.Error) {
	code := strings.ToUpper(cur)
	if !d.Market.HasCurrency(code) {
		return walletAddress{}, api.CurrencyNotFound(cur)
	}
	network, _ := r.Params.String("network_code")
	a, err := get(r.Principal.Account, code, strings.ToUpper(network))
	if err != nil {
		return walletAddress{}, walletError(err, cur)
	}
	a.Currency = code
	return newWalletAddress(a), nil
}

// walletTransactions answers GET /wallet/transactions: currencies, types,
// subtypes and statuses (comma-separated), sort (DESC default), limit
// (default 100, max 1000) and offset filter the account's transactions.
func (d Deps) walletTransactions(r *api.Request) (any, *api.Error) {
	sort, perr := r.Params.Enum("sort", "DESC", "ASC", "DESC")
	if perr != nil {
		return nil, perr
	}
	limit, perr := r.Params.Int("limit", 100, 0, 1000)
	if perr != nil {
		return nil, perr
	}
	offset, perr := r.Params.Int("offset", 0, 0, 100000)
	if perr != nil {
		return nil, perr
	}
	upper := func(name string) []string {
		var out []string
		for _, v := range r.Params.List(name) {
			out = append(out, strings.ToUpper(v))
		}
		return out
	}
	currencies, types, subtypes, statuses := upper("currencies"), upper("types"), upper("subtypes"), upper("statuses")
	keep := func(set []string, v string) bool { return len(set) == 0 || slices.Contains(set, v) }
	out := []walletTx{}
	for _, t := range d.Wallet.Transactions(wallet.Query{Account: r.Principal.Account, SortAsc: sort == "ASC", Limit: math.MaxInt}) {
		v := newWalletTx(t)
		if keep(currencies, v.Native.Currency) && keep(types, v.Type) && keep(subtypes, v.Subtype) && keep(statuses, v.Status) {
			out = append(out, v)
		}
	}
	if int(offset) >= len(out) {
		return []walletTx{}, nil
	}
	out = out[offset:]
	return out[:min(len(out), int(limit))], nil
}

func (d Deps) getWalletBalances(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	bs := w.Balances(r.Principal.Account)
	out := make([]walletBalanceView, 0, len(bs))
	for _, b := range bs {
		if b.Available.IsZero() && b.Reserved.IsZero() {
			continue // the service lists wallet balances "except zero balances"
		}
		out = append(out, newWalletBalanceView(b, true))
	}
	return out, nil
}

func (d Deps) getWalletBalance(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	c := r.PathValue("currency")
	if !d.Market.HasCurrency(c) {
		return nil, api.CurrencyNotFound(c)
	}
	out := walletBalanceView{Available: "0", Reserved: "0"}
	for _, b := range w.Balances(r.Principal.Account) {
		if strings.EqualFold(b.Currency, c) {
			out = newWalletBalanceView(b, false)
		}
	}
	return out, nil
}

func (d Deps) getWalletAddresses(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	cur, _ := r.Params.String("currency")
	if cur == "" {
		out := []walletAddress{}
		for _, code := range d.Market.CurrencyCodes() {
			if a, err := w.CurrentAddress(r.Principal.Account, code, ""); err == nil {
				out = append(out, newWalletAddress(a))
			}
		}
		return out, nil
	}
	a, err := walletCall(d, r, cur, w.CurrentAddress)
	if err != nil {
		return nil, err
	}
	return []walletAddress{a}, nil
}

func (d Deps) newWalletAddress(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	cur, _ := r.Params.String("currency")
	if cur == "" {
		return nil, api.Validation("currency is required")
	}
	return walletCall(d, r, cur, w.NewAddress)
}

func (d Deps) commitWithdrawal(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	ok, err := w.Commit(r.Principal.Account, r.PathValue("id"))
	if err != nil {
		return nil, walletError(err, "")
	}
	return map[string]bool{"result": ok}, nil
}

func (d Deps) rollbackWithdrawal(r *api.Request) (any, *api.Error) {
	w := d.Wallet
	ok, err := w.Rollback(r.Principal.Account, r.PathValue("id"))
	if err != nil {
		return nil, walletError(err, "")
	}
	return map[string]bool{"result": ok}, nil
}
