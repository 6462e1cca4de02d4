package v2auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// v2Endpoints are every authenticated row of the document's version 2
// tables (Trading history, Account management, Sub-accounts, Buy crypto:
// "Payment information right for all"). The sub-account listing GET
// /sub-acc is named without its response and is left out.
var v2Endpoints = []trading.Endpoint{
	trading.NewEndpoint("GET", "/history/trades", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/history/order/{orderId}/trades", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/account/balance", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/address/{currency}", trading.RightPayment),
	trading.NewEndpoint("POST", "/account/crypto/address/{currency}", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/addresses/{currency}", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/used-addresses/{currency}", trading.RightPayment),
	trading.NewEndpoint("POST", "/account/crypto/withdraw", trading.RightWithdraw),
	trading.NewEndpoint("PUT", "/account/crypto/withdraw/{id}", trading.RightWithdraw),
	trading.NewEndpoint("DELETE", "/account/crypto/withdraw/{id}", trading.RightWithdraw),
	trading.NewEndpoint("POST", "/account/crypto/transfer-convert", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/estimate-withdraw", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/estimate-withdraw-levels", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/crypto/is-mine/{address}", trading.RightPayment),
	trading.NewEndpoint("POST", "/account/transfer", trading.RightPayment),
	trading.NewEndpoint("POST", "/account/transfer/internal", trading.RightWithdraw),
	trading.NewEndpoint("GET", "/account/transactions", trading.RightPayment),
	trading.NewEndpoint("GET", "/account/transactions/{id}", trading.RightPayment),
	trading.NewEndpoint("POST", "/sub-acc/freeze", trading.RightNone),
	trading.NewEndpoint("POST", "/sub-acc/activate", trading.RightNone),
	trading.NewEndpoint("POST", "/sub-acc/transfer", trading.RightWithdraw),
	trading.NewEndpoint("GET", "/sub-acc/acl", trading.RightPayment),
	trading.NewEndpoint("PUT", "/sub-acc/acl/{unknownSubAccountUserId}", trading.RightPayment),
	trading.NewEndpoint("GET", "/sub-acc/balance/{subAccountUserId}", trading.RightPayment),
	trading.NewEndpoint("GET", "/sub-acc/deposit-address/{subAccountUserId}/{currency}", trading.RightNone),
	trading.NewEndpoint("GET", "/buy-crypto/provider", trading.RightPayment),
	trading.NewEndpoint("GET", "/buy-crypto/provider/{providerID}/rate", trading.RightPayment),
	trading.NewEndpoint("GET", "/buy-crypto/provider/{providerID}/order", trading.RightPayment),
	trading.NewEndpoint("POST", "/buy-crypto/provider/{providerID}/order", trading.RightPayment),
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
