package v2

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/buycrypto"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/subaccount"
)

// Accounts is what the v2 sub-account and buy-crypto handlers work on: the
// same registry and service as version 3, so both versions show one state.
type Accounts struct {
	Market      *market.Catalogue
	SubAccounts *subaccount.Registry
	BuyCrypto   *buycrypto.Service
	Faults      *faults.Set
}

// subAccountError maps a registry refusal to the v2 error table: 10021
// (HTTP 400) for a frozen or disabled sub-account, HTTP 500 with code 500
// for an unknown one, as the v2 Errors table says.
func (a Accounts) subAccountError(err error) *api.Error {
	var se *subaccount.Error
	if !errors.As(err, &se) {
		return api.Internal("%v", err)
	}
	wrongMessages := a.Faults.On("V2-SUBACC-ERR-MESSAGES")
	switch se.Kind {
	case subaccount.NotFound:
		if a.Faults.On("V2-SUBACC-ERR-500") {
			return api.Validation("%s", se.Msg)
		}
		if wrongMessages {
			return &api.Error{Status: http.StatusInternalServerError, Code: 500, Message: "Sub-account not found", Description: se.Msg}
		}
		return api.Internal("%s", se.Msg)
	case subaccount.AlreadyOff, subaccount.Unusable:
		msg := "user disabled"
		if wrongMessages {
			msg = "Sub-account is disabled"
		}
		return &api.Error{Status: http.StatusBadRequest, Code: 10021, Message: msg, Description: se.Msg}
	case subaccount.Insufficient:
		return &api.Error{Status: http.StatusBadRequest, Code: 20001, Message: "Insufficient funds", Description: se.Msg}
	}
	return api.Validation("%s", se.Msg)
}

type result struct {
	Result any `json:"result"`
}

type settings struct {
	SubAccountID    any    `json:"subAccountId"`
	IsPayoutEnabled bool   `json:"isPayoutEnabled"`
	Description     string `json:"description"`
}

type balanceItem struct {
	Currency  string `json:"currency"`
	Available string `json:"available"`
	Reserved  string `json:"reserved"`
}

func items(bs []ledger.Balance) []balanceItem {
	out := make([]balanceItem, 0, len(bs))
	for _, b := range bs {
		out = append(out, balanceItem{Currency: b.Currency, Available: b.Available.String(), Reserved: b.Reserved.String()})
	}
	return out
}

func (a Accounts) settingsOf(acls []subaccount.ACL) []settings {
	out := make([]settings, 0, len(acls))
	for _, c := range acls {
		s := settings{SubAccountID: c.UserID, IsPayoutEnabled: c.Withdraw, Description: c.Description}
		if a.Faults.On("V2-SUBACC-ACL-GET") {
			s.SubAccountID = c.SubAccountID
		}
		out = append(out, s)
	}
	return out
}

// subAccountHandlers answer the v2 Sub-accounts endpoints.
type subAccountHandlers struct {
	Accounts
	// shadow is the V2-SUBACC-V3-STATE fault: a v2 freeze kept apart from
	// the registry that version 3 reads.
	shadow *sync.Map
}

// SubAccountRoutes are the v2 Sub-accounts endpoints (/sub-acc/*).
func SubAccountRoutes(acc Accounts) []api.Route {
	f := acc.Faults
	withdraw, payment := auth.RightWithdraw, auth.RightPayment
	if f.On("V2-SUBACC-RIGHTS") {
		withdraw = ""
	}
	addrRight := ""
	if f.On("V2-SUBACC-RIGHT-NONE") {
		addrRight = payment
	}
	a := subAccountHandlers{Accounts: acc, shadow: &sync.Map{}}
	return []api.Route{
		{Method: "POST", Path: "/sub-acc/freeze", Handle: a.freeze},
		{Method: "POST", Path: "/sub-acc/activate", Handle: a.activate},
		{Method: "POST", Path: "/sub-acc/transfer", Right: withdraw, Handle: a.transfer},
		{Method: "GET", Path: "/sub-acc/acl", Right: payment, Handle: a.getACL},
		{Method: "PUT", Path: "/sub-acc/acl/{subAccountUserId}", Right: payment, Handle: a.putACL},
		{Method: "GET", Path: "/sub-acc/balance/{subAccountUserID}", Right: payment, Handle: a.balance},
		{Method: "GET", Path: "/sub-acc/deposit-address/{subAccountUserId}/{currency}", Right: addrRight, Handle: a.depositAddress},
	}
}

func (a subAccountHandlers) freeze(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	ids := r.Params.List("ids")
	if len(ids) == 0 && f.On("V2-SUBACC-IDS-REQUIRED") {
		return result{Result: true}, nil // the fault: a freeze of nothing succeeds
	}
	if len(ids) > 1 && f.On("V2-SUBACC-IDS-LIST") {
		ids = ids[:1]
	}
	if f.On("V2-SUBACC-V3-STATE") || f.On("V2-SUBACC-FREEZE") {
		for _, id := range ids {
			s, err := reg.Lookup(r.Principal.Account, id)
			if err != nil {
				return nil, a.subAccountError(err)
			}
			if f.On("V2-SUBACC-V3-STATE") {
				a.shadow.Store(s.ID, true)
			}
		}
		return result{Result: true}, nil
	}
	if f.On("V2-SUBACC-ERR-10021") {
		// Freezing again is answered true, as if it were new.
		if _, err := reg.Activate(r.Principal.Account, ids); err != nil {
			return nil, a.subAccountError(err)
		}
	}
	// The v2 faults of the freeze's effects travel down as flags:
	// the registry is shared with version 3, whose freeze must
	// still cancel and move funds.
	opt := subaccount.FreezeOptions{KeepOrders: f.On("V2-SUBACC-FREEZE-CANCELS"), KeepFunds: f.On("V2-SUBACC-FREEZE-FUNDS")}
	if err := reg.FreezeWith(r.Principal.Account, ids, opt); err != nil {
		return nil, a.subAccountError(err)
	}
	return result{Result: true}, nil
}

func (a subAccountHandlers) activate(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	if f.On("V2-SUBACC-ACTIVATE") {
		return result{Result: true}, nil
	}
	for _, id := range r.Params.List("ids") {
		if s, err := reg.Lookup(r.Principal.Account, id); err == nil {
			a.shadow.Delete(s.ID)
		}
	}
	ok, err := reg.Activate(r.Principal.Account, r.Params.List("ids"))
	if err != nil {
		return nil, a.subAccountError(err)
	}
	// The registry answers false when a listed sub-account is
	// disabled (v2 follows the v3 rules); the fault hides that.
	if !ok && f.On("V2-SUBACC-ACTIVATE-DISABLED") {
		ok = true
	}
	return result{Result: ok}, nil
}

func (a subAccountHandlers) transfer(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	id, _ := r.Params.String("subAccountId")
	v3Names := f.On("V2-SUBACC-TRANSFER-V3-NAMES")
	if id == "" && v3Names {
		id, _ = r.Params.String("sub_account_id")
	}
	if id == "" {
		return nil, api.Validation("subAccountId is required")
	}
	typ, _ := r.Params.String("type")
	if typ == "" && f.On("V2-SUBACC-TRANSFER-REQUIRED") {
		typ = "deposit" // the fault: a missing type reads as deposit
	}
	dir := map[string]string{"deposit": subaccount.ToSub, "withdraw": subaccount.FromSub}[typ]
	if v3Names && (typ == subaccount.ToSub || typ == subaccount.FromSub) {
		dir = typ
	}
	if dir == "" {
		return nil, api.Validation("type must be deposit or withdraw, got %q", typ)
	}
	if f.On("V2-SUBACC-TRANSFER-WITHDRAW") && dir == subaccount.FromSub {
		dir = subaccount.ToSub
	}
	amt, ok, perr := r.Params.Decimal("amount")
	if perr != nil {
		return nil, perr
	}
	if !ok || !amt.IsPositive() {
		return nil, api.Validation("amount must be a positive decimal")
	}
	if f.On("V2-SUBACC-TRANSFER-DEPOSIT") && dir == subaccount.ToSub {
		amt = amt.Truncate(4)
	}
	cur, _ := r.Params.String("currency")
	if cur == "" {
		return nil, api.Validation("currency is required")
	}
	cur = strings.ToUpper(cur)
	if !a.Market.HasCurrency(cur) {
		return nil, api.CurrencyNotFound(cur)
	}
	tx, err := reg.Transfer(r.Principal.Account, id, cur, dir, amt, f.On("V2-SUBACC-TRANSFER-FUNDS"))
	if err != nil {
		var se *subaccount.Error
		// A transfer with a frozen or disabled sub-account surfaces
		// as 500, like an unknown one (v2 Errors).
		if errors.As(err, &se) && se.Kind == subaccount.Unusable && !f.On("V2-SUBACC-TRANSFER-FROZEN") {
			return nil, api.Internal("%s", se.Msg)
		}
		return nil, a.subAccountError(err)
	}
	return result{Result: tx}, nil
}

func (a subAccountHandlers) getACL(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	ids := r.Params.List("subAccountIds")
	if len(ids) == 0 {
		return nil, api.Validation("subAccountIds is required")
	}
	var out []subaccount.ACL
	for _, id := range ids {
		acls, err := reg.ACLs(r.Principal.Account, []string{id})
		var se *subaccount.Error
		switch {
		case errors.As(err, &se) && se.Kind == subaccount.Unusable:
			// frozen or disabled: left out (an empty array for them)
			if f.On("V2-SUBACC-ACL-FROZEN") {
				s, _ := reg.Lookup(r.Principal.Account, id)
				out = append(out, subaccount.ACL{SubAccountID: s.ID, UserID: s.UserID})
			}
		case err != nil:
			return nil, a.subAccountError(err)
		default:
			for _, c := range acls {
				if _, frozen := a.shadow.Load(c.SubAccountID); !frozen {
					out = append(out, c)
				}
			}
		}
	}
	return result{Result: a.settingsOf(out)}, nil
}

func (a subAccountHandlers) putACL(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	if !r.Params.Has("isPayoutEnabled") {
		return nil, api.Validation("isPayoutEnabled is required")
	}
	if !r.Params.Has("description") && !f.On("V2-SUBACC-ACL-PUT-REQUIRED") { // the fault: keeps the old description
		return nil, api.Validation("description is required")
	}
	wd, perr := r.Params.Bool("isPayoutEnabled", false)
	if perr != nil {
		return nil, perr
	}
	id := r.PathValue("subAccountUserId")
	var desc *string
	if d, ok := r.Params.String("description"); ok {
		desc = &d
	}
	cur, err := reg.ACLs(r.Principal.Account, []string{id})
	if err != nil && f.On("V2-SUBACC-UNKNOWN-VERBS") {
		return result{Result: []any{}}, nil // the fault: an unknown sub-account's change answers an empty array
	}
	if err != nil {
		return nil, a.subAccountError(err)
	}
	acls, err := reg.SetACL(r.Principal.Account, []string{id}, cur[0].DepositAddressGeneration, wd, desc)
	if err != nil {
		return nil, a.subAccountError(err)
	}
	if f.On("V2-SUBACC-ACL-PUT") {
		acls[0].Withdraw = !wd
	}
	return result{Result: a.settingsOf(acls)}, nil
}

func (a subAccountHandlers) balance(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	b, err := reg.Balance(r.Principal.Account, r.PathValue("subAccountUserID"))
	if err != nil {
		return nil, a.subAccountError(err)
	}
	out := map[string][]balanceItem{"main": items(b.Wallet), "trading": items(b.Spot)}
	if f.On("V2-SUBACC-BALANCE") {
		delete(out, "main")
	}
	return result{Result: out}, nil
}

func (a subAccountHandlers) depositAddress(r *api.Request) (any, *api.Error) {
	reg, f := a.SubAccounts, a.Faults
	s, err := reg.Lookup(r.Principal.Account, r.PathValue("subAccountUserId"))
	if err != nil {
		return nil, a.subAccountError(err)
	}
	cur := strings.ToUpper(r.PathValue("currency"))
	c, ok := a.Market.Currency(cur)
	if !ok {
		return nil, api.CurrencyNotFound(cur)
	}
	network, _ := r.Params.String("networkCode")
	if network != "" {
		found := false
		for _, n := range c.Networks {
			found = found || strings.EqualFold(n.Network, network) || strings.EqualFold(n.Code, network)
		}
		if !found {
			return nil, api.Validation("%s is not a network of %s", network, cur)
		}
		if f.On("V2-SUBACC-ADDRESS-NETWORK") {
			// The fault: the request's network is dropped and the
			// default one answered, as a server ignoring it would.
			for _, n := range c.Networks {
				if n.Default {
					network = n.Code
				}
			}
		}
	}
	out := map[string]string{"address": subaccount.Address(s.ID, cur, strings.ToUpper(network))}
	if network != "" {
		out["networkCode"] = strings.ToUpper(network)
	}
	if f.On("V2-SUBACC-ADDRESS") {
		out["address_"] = out["address"]
		delete(out, "address")
	}
	return result{Result: out}, nil
}
