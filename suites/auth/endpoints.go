package auth

import (
	"context"
	"fmt"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// v3Endpoints are every authenticated row of the document's v3 tables.
// Wallet management, futures and the other families the document names
// without paths are not here: their paths are not shown.
var v3Endpoints = []trading.Endpoint{
	trading.NewEndpoint("GET", "/spot/balance", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/spot/balance/{currency}", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/spot/order", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/spot/order/{client_order_id}", trading.RightOrderbook),
	trading.NewEndpoint("POST", "/spot/order", trading.RightTrading),
	trading.NewEndpoint("POST", "/spot/order/list", trading.RightTrading),
	trading.NewEndpoint("PATCH", "/spot/order/{client_order_id}", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/spot/order", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/spot/order/{client_order_id}", trading.RightTrading),
	trading.NewEndpoint("GET", "/spot/fee", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/spot/fee/{symbol}", trading.RightTrading),
	trading.NewEndpoint("GET", "/spot/history/order", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/account", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/account/isolated/{symbol}", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/account/cross/{currency}", trading.RightOrderbook),
	trading.NewEndpoint("PUT", "/margin/account/isolated/{symbol}", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/margin/position", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/margin/position/isolated/{symbol}", trading.RightTrading),
	trading.NewEndpoint("GET", "/margin/order", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/order/{client_order_id}", trading.RightOrderbook),
	trading.NewEndpoint("POST", "/margin/order", trading.RightTrading),
	trading.NewEndpoint("POST", "/margin/order/list", trading.RightTrading),
	trading.NewEndpoint("PATCH", "/margin/order/{client_order_id}", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/margin/order", trading.RightTrading),
	trading.NewEndpoint("DELETE", "/margin/order/{client_order_id}", trading.RightTrading),
	trading.NewEndpoint("GET", "/margin/config", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/history/order", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/margin/history/trade", trading.RightOrderbook),
	trading.NewEndpoint("GET", "/sub-account", trading.RightNone),
	trading.NewEndpoint("POST", "/sub-account/freeze", trading.RightNone),
	trading.NewEndpoint("POST", "/sub-account/activate", trading.RightNone),
	trading.NewEndpoint("POST", "/sub-account/transfer", trading.RightWithdraw),
	trading.NewEndpoint("POST", "/sub-account/transfer/sub-to-super", trading.RightWithdraw),
	trading.NewEndpoint("POST", "/sub-account/transfer/sub-to-sub", trading.RightWithdraw),
	trading.NewEndpoint("GET", "/sub-account/acl", trading.RightPayment),
	trading.NewEndpoint("POST", "/sub-account/acl", trading.RightPayment),
	trading.NewEndpoint("GET", "/sub-account/balance/{sub_acc_id}", trading.RightPayment),
	trading.NewEndpoint("GET", "/sub-account/crypto/address/{sub_acc_id}/{currency}", trading.RightPayment),
	trading.NewEndpoint("GET", "/buy-crypto/provider", trading.RightPayment),
	trading.NewEndpoint("GET", "/buy-crypto/provider/{provider_id}/rate", trading.RightPayment),
	trading.NewEndpoint("GET", "/buy-crypto/provider/{provider_id}/order", trading.RightPayment),
	trading.NewEndpoint("POST", "/buy-crypto/provider/{provider_id}/order", trading.RightPayment),
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
