package v3

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/subaccount"
	"github.com/shopspring/decimal"
)

// subAccountError writes a refusal of the sub-account registry with the
// codes and messages of the v3 Errors table (HTTP 400: the document gives no
// status for 21001, 21003, 21004).
func (d Deps) subAccountError(err error) *api.Error {
	var se *subaccount.Error
	if !errors.As(err, &se) {
		return api.Internal("%v", err)
	}
	notFound, off := "Subaccount not found", "Sub account is already frozen or disabled"
	if d.Faults.On("V3-SUBACC-ERR-MESSAGES") {
		notFound, off = "Sub-account error", "Sub-account error"
	}
	switch se.Kind {
	case subaccount.NotFound:
		return &api.Error{Status: http.StatusBadRequest, Code: 21001, Message: notFound, Description: se.Msg}
	case subaccount.AlreadyOff:
		return &api.Error{Status: http.StatusBadRequest, Code: 21003, Message: off, Description: se.Msg}
	case subaccount.Unusable:
		return &api.Error{Status: http.StatusBadRequest, Code: 21004, Message: off, Description: se.Msg}
	case subaccount.Insufficient:
		return &api.Error{Status: http.StatusBadRequest, Code: 20001, Message: "Insufficient funds", Description: se.Msg}
	}
	return api.Validation("%s", se.Msg)
}

type subAccountView struct {
	ID     string `json:"sub_account_id"`
	Email  string `json:"email"`
	Status string `json:"status"`
}

type aclView struct {
	SubAccountID             string `json:"sub_account_id"`
	DepositAddressGeneration bool   `json:"deposit_address_generation_enabled"`
	Withdraw                 any    `json:"withdraw_enabled"`
	Description              string `json:"description"`
	CreatedAt                string `json:"created_at"`
	UpdatedAt                string `json:"updated_at"`
}

func (d Deps) aclViews(acls []subaccount.ACL) []aclView {
	out := make([]aclView, 0, len(acls))
	for _, a := range acls {
		v := aclView{SubAccountID: a.SubAccountID, DepositAddressGeneration: a.DepositAddressGeneration, Withdraw: a.Withdraw,
			Description: a.Description, CreatedAt: a.CreatedAt.Format(time.RFC3339Nano), UpdatedAt: a.UpdatedAt.Format(time.RFC3339Nano)}
		if d.Faults.On("V3-SUBACC-ACL-GET") {
			v.Withdraw = map[bool]string{true: "true", false: "false"}[a.Withdraw]
		}
		if d.Faults.On("V3-SUBACC-ACL-TIMES") {
			v.UpdatedAt = a.CreatedAt.Add(-time.Second).Format(time.RFC3339Nano)
		}
		out = append(out, v)
	}
	return out
}

type subBalance struct {
	Currency  string `json:"currency"`
	Available string `json:"available"`
	Reserved  string `json:"reserved"`
}

func subBalances(bs []ledger.Balance) []subBalance {
	if len(bs) == 0 {
		return nil
	}
	out := make([]subBalance, 0, len(bs))
	for _, b := range bs {
		out = append(out, subBalance{Currency: b.Currency, Available: b.Available.String(), Reserved: b.Reserved.String()})
	}
	return out
}

type result struct {
	Result any `json:"result"`
}

// amountAndCurrency reads the amount (a positive decimal) and currency (a
// listed code) of a transfer.
func (d Deps) amountAndCurrency(r *api.Request) (decimal.Decimal, string, *api.Error) {
	amt, ok, err := r.Params.Decimal("amount")
	if err != nil {
		return decimal.Decimal{}, "", err
	}
	if !ok || !amt.IsPositive() {
		return decimal.Decimal{}, "", api.Validation("amount must be a positive decimal")
	}
	cur, ok := r.Params.String("currency")
	if !ok || cur == "" {
		return decimal.Decimal{}, "", api.Validation("currency is required")
	}
	cur = strings.ToUpper(cur)
	if !d.Market.HasCurrency(cur) {
		return decimal.Decimal{}, "", api.CurrencyNotFound(cur)
	}
	return amt, cur, nil
}

func (d Deps) transferResult(id string, err error) (any, *api.Error) {
	if err != nil {
		return nil, d.subAccountError(err)
	}
	if d.Faults.On("V3-SUBACC-TRANSFER-RESULT") {
		return result{Result: len(id)}, nil
	}
	return result{Result: id}, nil
}

func subAccountRoutes(d Deps) []api.Route {
	stateRight, withdraw, payment := "", auth.RightWithdraw, auth.RightPayment
	if d.Faults.On("V3-SUBACC-RIGHT-NONE") {
		stateRight = auth.RightPayment
	}
	if d.Faults.On("V3-SUBACC-RIGHTS-WITHDRAW") {
		withdraw = ""
	}
	aclRight := payment
	if d.Faults.On("V3-SUBACC-RIGHTS-PAYMENT") {
		aclRight = ""
	}
	return []api.Route{
		{Method: "GET", Path: "/sub-account", Handle: d.getSubAccounts},
		{Method: "POST", Path: "/sub-account/freeze", Right: stateRight, Handle: d.freezeSubAccounts},
		{Method: "POST", Path: "/sub-account/activate", Handle: d.activateSubAccounts},
		{Method: "POST", Path: "/sub-account/transfer", Right: withdraw, Handle: d.transferSubAccount},
		{Method: "POST", Path: "/sub-account/transfer/sub-to-super", Right: withdraw, Handle: d.transferSubToSuper},
		{Method: "POST", Path: "/sub-account/transfer/sub-to-sub", Right: withdraw, Handle: d.transferSubToSub},
		{Method: "GET", Path: "/sub-account/acl", Right: aclRight, Handle: d.getSubAccountACLs},
		{Method: "POST", Path: "/sub-account/acl", Right: payment, Handle: d.setSubAccountACLs},
		{Method: "GET", Path: "/sub-account/balance/{sub_acc_id}", Right: payment, Handle: d.getSubAccountBalance},
		{Method: "GET", Path: "/sub-account/crypto/address/{sub_acc_id}/{currency}", Right: payment, Handle: d.getSubAccountAddress},
	}
}

// depositAddress is the Deposit address resource.
type depositAddress struct {
	Address     string `json:"address"`
	PaymentID   string `json:"payment_id,omitempty"`
	PublicKey   string `json:"public_key,omitempty"`
	NetworkCode string `json:"network_code,omitempty"`
}

// subAddress answers a sub-account's deposit address for a listed currency
// and, when networkParam is sent, one of its networks.
func (d Deps) subAddress(r *api.Request, ref, currency, networkParam string) (depositAddress, *api.Error) {
	s, err := d.SubAccounts.Lookup(r.Principal.Account, ref)
	if err != nil {
		return depositAddress{}, d.subAccountError(err)
	}
	cur := strings.ToUpper(currency)
	c, ok := d.Market.Currency(cur)
	if !ok {
		return depositAddress{}, api.CurrencyNotFound(currency)
	}
	network, _ := r.Params.String(networkParam)
	if network != "" {
		found := false
		for _, n := range c.Networks {
			found = found || strings.EqualFold(n.Network, network) || strings.EqualFold(n.Code, network)
		}
		if !found {
			return depositAddress{}, api.Validation("%s is not a network of %s", network, cur)
		}
	}
	return depositAddress{Address: subaccount.Address(s.ID, cur, strings.ToUpper(network)), NetworkCode: strings.ToUpper(network)}, nil
}

func (d Deps) getSubAccounts(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	out := []subAccountView{}
	for _, s := range reg.List(r.Principal.Account) {
		v := subAccountView{ID: s.ID, Email: s.Email, Status: s.Shown()}
		if d.Faults.On("V3-SUBACC-FIELDS") {
			v.Status = strings.ToUpper(v.Status)
		}
		out = append(out, v)
	}
	return out, nil
}

func (d Deps) freezeSubAccounts(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	if len(r.Params.List("sub_account_ids")) == 0 && d.Faults.On("V3-SUBACC-IDS-REQUIRED") {
		return result{Result: true}, nil // the fault: a freeze of nothing succeeds
	}
	if err := reg.Freeze(r.Principal.Account, r.Params.List("sub_account_ids")); err != nil {
		return nil, d.subAccountError(err)
	}
	return result{Result: true}, nil
}

func (d Deps) activateSubAccounts(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	ok, err := reg.Activate(r.Principal.Account, r.Params.List("sub_account_ids"))
	if err != nil {
		return nil, d.subAccountError(err)
	}
	return result{Result: ok}, nil
}

func (d Deps) transferSubAccount(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	id, _ := r.Params.String("sub_account_id")
	v2Names := d.Faults.On("V3-SUBACC-TRANSFER-V2-NAMES")
	if id == "" && v2Names {
		id, _ = r.Params.String("subAccountId")
	}
	if id == "" {
		return nil, api.Validation("sub_account_id is required")
	}
	typ, _ := r.Params.String("type")
	if to, ok := map[string]string{"deposit": subaccount.ToSub, "withdraw": subaccount.FromSub}[typ]; ok && v2Names {
		typ = to
	}
	if typ == "" && d.Faults.On("V3-SUBACC-TRANSFER-REQUIRED") {
		typ = subaccount.ToSub
	}
	if typ != subaccount.ToSub && typ != subaccount.FromSub {
		if !d.Faults.On("V3-SUBACC-TRANSFER-VALIDATION") {
			return nil, api.Validation("type must be to_sub_account or from_sub_account, got %q", typ)
		}
		typ = subaccount.ToSub
	}
	amt, cur, perr := d.amountAndCurrency(r)
	if perr != nil {
		return nil, perr
	}
	return d.transferResult(reg.Transfer(r.Principal.Account, id, cur, typ, amt))
}

func (d Deps) transferSubToSuper(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	amt, cur, perr := d.amountAndCurrency(r)
	if perr != nil {
		return nil, perr
	}
	return d.transferResult(reg.SubToSuper(r.Principal.Account, cur, amt))
}

func (d Deps) transferSubToSub(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	id, _ := r.Params.String("sub_account_id")
	if id == "" {
		return nil, api.Validation("sub_account_id is required")
	}
	amt, cur, perr := d.amountAndCurrency(r)
	if perr != nil {
		return nil, perr
	}
	return d.transferResult(reg.SubToSub(r.Principal.Account, id, cur, amt))
}

func (d Deps) getSubAccountACLs(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	acls, err := reg.ACLs(r.Principal.Account, r.Params.List("sub_account_ids"))
	if err != nil {
		return nil, d.subAccountError(err)
	}
	return result{Result: d.aclViews(acls)}, nil
}

func (d Deps) setSubAccountACLs(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	for _, name := range []string{"sub_account_ids", "deposit_address_generation_enabled", "withdraw_enabled", "description"} {
		if !r.Params.Has(name) && (name != "description" || !d.Faults.On("V3-SUBACC-ACL-REQUIRED")) {
			return nil, api.Validation("%s is required", name)
		}
	}
	dep, perr := r.Params.Bool("deposit_address_generation_enabled", false)
	if perr != nil {
		return nil, perr
	}
	wd, perr := r.Params.Bool("withdraw_enabled", false)
	if perr != nil {
		return nil, perr
	}
	desc, given := r.Params.String("description")
	descp := &desc
	if !given {
		descp = nil // only the V3-SUBACC-ACL-REQUIRED fault gets here: the old description stays
	}
	acls, err := reg.SetACL(r.Principal.Account, r.Params.List("sub_account_ids"), dep, wd, descp)
	if err != nil {
		return nil, d.subAccountError(err)
	}
	return result{Result: d.aclViews(acls)}, nil
}

func (d Deps) getSubAccountBalance(r *api.Request) (any, *api.Error) {
	reg := d.SubAccounts
	b, err := reg.Balance(r.Principal.Account, r.PathValue("sub_acc_id"))
	if err != nil {
		return nil, d.subAccountError(err)
	}
	return result{Result: struct {
		Wallet []subBalance `json:"wallet,omitempty"`
		Spot   []subBalance `json:"spot,omitempty"`
	}{subBalances(b.Wallet), subBalances(b.Spot)}}, nil
}

func (d Deps) getSubAccountAddress(r *api.Request) (any, *api.Error) {
	if r.Params.Has("network_code") && d.Faults.On("V3-SUBACC-ADDRESS-NETWORK") {
		return nil, api.Validation("network_code is not a parameter of the sub-account deposit address")
	}
	addr, perr := d.subAddress(r, r.PathValue("sub_acc_id"), r.PathValue("currency"), "network_code")
	if perr != nil {
		return nil, perr
	}
	if d.Faults.On("V3-SUBACC-ADDRESS") {
		return result{Result: map[string]string{"wallet_address": addr.Address}}, nil
	}
	return result{Result: addr}, nil
}
