package v2auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// The access rights as version 2's Authentication section names them.
const (
	rightOrderbook = "Orderbook, History, Trading balance"
	rightTrading   = "Place/cancel orders"
	rightPayment   = "Payment information"
	rightWithdraw  = "Withdraw cryptocurrencies"
	rightNone      = "none" // any authenticated key
)

// singleRight is the role holding each right alone.
var singleRight = map[string]string{
	rightOrderbook: target.RoleReadOnly,
	rightTrading:   target.RoleTradeOnly,
	rightPayment:   target.RolePaymentOnly,
	rightWithdraw:  target.RoleWithdrawOnly,
}

// rightOrder lists the four rights in a fixed order: every Ginkgo process
// must build the same spec tree.
var rightOrder = []string{rightOrderbook, rightTrading, rightPayment, rightWithdraw}

// endpoint is one row of the version 2 endpoint tables with its access
// right; segments in braces are filled in at run time (fill).
type endpoint struct {
	method, path, right string
}

func (p endpoint) String() string { return p.method + " " + p.path }

// v2Endpoints are every authenticated row of the document's version 2
// tables (Trading history, Account management, Sub-accounts, Buy crypto:
// "Payment information right for all"). The sub-account listing GET
// /sub-acc is named without its response and is left out.
var v2Endpoints = []endpoint{
	{"GET", "/history/trades", rightOrderbook},
	{"GET", "/history/order/{orderId}/trades", rightOrderbook},
	{"GET", "/account/balance", rightPayment},
	{"GET", "/account/crypto/address/{currency}", rightPayment},
	{"POST", "/account/crypto/address/{currency}", rightPayment},
	{"GET", "/account/crypto/addresses/{currency}", rightPayment},
	{"GET", "/account/crypto/used-addresses/{currency}", rightPayment},
	{"POST", "/account/crypto/withdraw", rightWithdraw},
	{"PUT", "/account/crypto/withdraw/{id}", rightWithdraw},
	{"DELETE", "/account/crypto/withdraw/{id}", rightWithdraw},
	{"POST", "/account/crypto/transfer-convert", rightPayment},
	{"GET", "/account/crypto/estimate-withdraw", rightPayment},
	{"GET", "/account/crypto/estimate-withdraw-levels", rightPayment},
	{"GET", "/account/crypto/is-mine/{address}", rightPayment},
	{"POST", "/account/transfer", rightPayment},
	{"POST", "/account/transfer/internal", rightWithdraw},
	{"GET", "/account/transactions", rightPayment},
	{"GET", "/account/transactions/{id}", rightPayment},
	{"POST", "/sub-acc/freeze", rightNone},
	{"POST", "/sub-acc/activate", rightNone},
	{"POST", "/sub-acc/transfer", rightWithdraw},
	{"GET", "/sub-acc/acl", rightPayment},
	{"PUT", "/sub-acc/acl/{unknownSubAccountUserId}", rightPayment},
	{"GET", "/sub-acc/balance/{subAccountUserId}", rightPayment},
	{"GET", "/sub-acc/deposit-address/{subAccountUserId}/{currency}", rightNone},
	{"GET", "/buy-crypto/provider", rightPayment},
	{"GET", "/buy-crypto/provider/{providerID}/rate", rightPayment},
	{"GET", "/buy-crypto/provider/{providerID}/order", rightPayment},
	{"POST", "/buy-crypto/provider/{providerID}/order", rightPayment},
}

// fill replaces the path's placeholders. Identifiers of things the spec
// does not own are ones no account has (a withdrawal, a transaction, an
// order, and the sub-account whose settings an empty PUT would otherwise
// change); with keyed true the currency is a listed one and the
// sub-account the one of role sub.
func fill(ctx context.Context, e *framework.Env, path string, keyed bool) string {
	GinkgoHelper()
	if !strings.Contains(path, "{") {
		return path
	}
	cur, sub := "BTC", "100011"
	if keyed {
		cur = e.AnyCurrency(ctx)
		if strings.Contains(path, "{subAccountUserId}") {
			sub = strconv.FormatInt(e.Account(target.RoleSub).SubAccountUserID, 10)
		}
	}
	r := strings.NewReplacer("{currency}", cur, "{orderId}", "1", "{id}", "conform-no-such-id",
		"{address}", "conform-no-address", "{unknownSubAccountUserId}", "0", "{subAccountUserId}", sub, "{providerID}", "1")
	out := r.Replace(path)
	if strings.Contains(out, "{") {
		panic(fmt.Sprintf("v2auth: unfilled placeholder in %s", out))
	}
	return out
}

// bareEntries are the rows of the table of requests without credentials:
// every endpoint of v2Endpoints.
func bareEntries() []TableEntry {
	out := make([]TableEntry, 0, len(v2Endpoints))
	for _, p := range v2Endpoints {
		out = append(out, Entry(p.String(), p))
	}
	return out
}
