package auth

import (
	"context"
	"fmt"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// The access rights as the Authentication section names them.
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

// endpoint is one row of the v3 endpoint tables (Spot trading, Margin
// trading, Sub-accounts, Buy crypto) with its access right. Path segments
// in braces are filled in at run time (fill).
type endpoint struct {
	method, path, right string
}

func (p endpoint) String() string { return p.method + " " + p.path }

// v3Endpoints are every authenticated row of the document's v3 tables.
// Wallet management, futures and the other families the document names
// without paths are not here: their paths are not shown.
var v3Endpoints = []endpoint{
	{"GET", "/spot/balance", rightOrderbook},
	{"GET", "/spot/balance/{currency}", rightOrderbook},
	{"GET", "/spot/order", rightOrderbook},
	{"GET", "/spot/order/{client_order_id}", rightOrderbook},
	{"POST", "/spot/order", rightTrading},
	{"POST", "/spot/order/list", rightTrading},
	{"PATCH", "/spot/order/{client_order_id}", rightTrading},
	{"DELETE", "/spot/order", rightTrading},
	{"DELETE", "/spot/order/{client_order_id}", rightTrading},
	{"GET", "/spot/fee", rightOrderbook},
	{"GET", "/spot/fee/{symbol}", rightTrading},
	{"GET", "/spot/history/order", rightOrderbook},
	{"GET", "/margin/account", rightOrderbook},
	{"GET", "/margin/account/isolated/{symbol}", rightOrderbook},
	{"GET", "/margin/account/cross/{currency}", rightOrderbook},
	{"PUT", "/margin/account/isolated/{symbol}", rightTrading},
	{"DELETE", "/margin/position", rightTrading},
	{"DELETE", "/margin/position/isolated/{symbol}", rightTrading},
	{"GET", "/margin/order", rightOrderbook},
	{"GET", "/margin/order/{client_order_id}", rightOrderbook},
	{"POST", "/margin/order", rightTrading},
	{"POST", "/margin/order/list", rightTrading},
	{"PATCH", "/margin/order/{client_order_id}", rightTrading},
	{"DELETE", "/margin/order", rightTrading},
	{"DELETE", "/margin/order/{client_order_id}", rightTrading},
	{"GET", "/margin/config", rightOrderbook},
	{"GET", "/margin/history/order", rightOrderbook},
	{"GET", "/margin/history/trade", rightOrderbook},
	{"GET", "/sub-account", rightNone},
	{"POST", "/sub-account/freeze", rightNone},
	{"POST", "/sub-account/activate", rightNone},
	{"POST", "/sub-account/transfer", rightWithdraw},
	{"POST", "/sub-account/transfer/sub-to-super", rightWithdraw},
	{"POST", "/sub-account/transfer/sub-to-sub", rightWithdraw},
	{"GET", "/sub-account/acl", rightPayment},
	{"POST", "/sub-account/acl", rightPayment},
	{"GET", "/sub-account/balance/{sub_acc_id}", rightPayment},
	{"GET", "/sub-account/crypto/address/{sub_acc_id}/{currency}", rightPayment},
	{"GET", "/buy-crypto/provider", rightPayment},
	{"GET", "/buy-crypto/provider/{provider_id}/rate", rightPayment},
	{"GET", "/buy-crypto/provider/{provider_id}/order", rightPayment},
	{"POST", "/buy-crypto/provider/{provider_id}/order", rightPayment},
}

// unknownOrder is a client_order_id no spec ever places.
const unknownOrder = "conformNoSuchOrder01"

// fill replaces the path's placeholders. With keyed false (requests sent
// without credentials, which must be refused before anything is looked
// up) identifiers are fixed well-formed values; otherwise they are the
// target's: a listed symbol and currency, the sub-account of role sub.
func fill(ctx context.Context, e *framework.Env, path string, keyed bool) string {
	GinkgoHelper()
	if !strings.Contains(path, "{") {
		return path
	}
	sym, cur, sub := "BTCUSDT", "BTC", "cedaa5cd2773e3f2ff53a5f5f802d4fe"
	if keyed {
		sym, cur = e.AnySymbol(ctx, "spot"), e.AnyCurrency(ctx)
		if strings.Contains(path, "{sub_acc_id}") {
			sub = e.Account(target.RoleSub).SubAccountID
		}
	}
	r := strings.NewReplacer("{symbol}", sym, "{currency}", cur, "{client_order_id}", unknownOrder,
		"{sub_acc_id}", sub, "{provider_id}", "1")
	out := r.Replace(path)
	if strings.Contains(out, "{") {
		panic(fmt.Sprintf("auth: unfilled placeholder in %s", out))
	}
	return out
}

// bareEntries are the rows of the table of requests without credentials:
// every endpoint of v3Endpoints.
func bareEntries() []TableEntry {
	out := make([]TableEntry, 0, len(v3Endpoints))
	for _, p := range v3Endpoints {
		out = append(out, Entry(p.String(), p))
	}
	return out
}
