package v2subaccounts

import (
	"context"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// cloids are the client_order_ids of the orders the sub role places here,
// recognisable as this suite's on a shared target.
var cloids = trading.Cloids("v2sub")

// hexID is the v3 sub_account_id of a sub-account role, skipping when the
// target config names none: v2 has no order placement (not shown), so the
// sub-account is funded and trades through version 3, which names it so.
func hexID(role string) string {
	GinkgoHelper()
	hex := framework.Current().Account(role).SubAccountID
	if hex == "" {
		Skip("the " + role + " key's v3 sub_account_id is not configured (accounts." + role + ".sub_account_id in the target config): the sub-account is funded through version 3")
	}
	return hex
}

// fundSub moves a fiftieth of what the super account holds in the quote
// currency of a working symbol to the sub role's trading balance (v3's
// to_sub_account, the transfer the v3 document lands on the spot balance),
// and answers the symbol. v2's own deposit is not used: the document does
// not say whether it lands on main or trading.
func fundSub(ctx context.Context) trading.Symbol {
	GinkgoHelper()
	v3 := framework.Current().Signed(target.RoleFull, framework.Basic)
	hex := hexID(target.RoleSub)
	for _, sym := range trading.WorkingSymbols(ctx) {
		ex, _ := v3.Get(ctx, "/spot/balance/"+sym.Quote, nil)
		if ex == nil || ex.Status != http.StatusOK {
			continue
		}
		amt := trading.DecField(framework.ObjectOf(ex), "available").Div(decimal.NewFromInt(50)).Truncate(trading.TransferPlaces(ctx, sym.Quote))
		if !amt.IsPositive() {
			continue
		}
		ex, _ = v3.Do(ctx, client.Request{Method: http.MethodPost, Path: "/sub-account/transfer",
			Form: url.Values{"sub_account_id": {hex}, "amount": {amt.String()}, "currency": {sym.Quote}, "type": {"to_sub_account"}}})
		Expect(ex).To(framework.BeOK(), "funding the sub-account with %s %s", amt, sym.Quote)
		return sym
	}
	Skip("the super account holds the quote currency of no working symbol to fund its sub-account with")
	return trading.Symbol{}
}

// tradingItems reads GET /sub-acc/balance/{id} and answers the items of its
// trading array.
func tradingItems(ctx context.Context, id string) []map[string]any {
	GinkgoHelper()
	ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/balance/"+id, nil)
	Expect(ex).To(framework.BeOK(), "the balance of sub-account %s", id)
	res, ok := resultOf(ex).(map[string]any)
	Expect(ok).To(BeTrue(), "result is the balance object: %s", ex)
	arr, ok := res["trading"].([]any)
	Expect(ok).To(BeTrue(), "the balance has a trading array: %s", ex)
	var out []map[string]any
	for _, v := range arr {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// onTrading is what a trading item holds: available plus reserved.
func onTrading(m map[string]any) decimal.Decimal {
	return trading.DecField(m, "available").Add(trading.DecField(m, "reserved"))
}

// freezeAndActivate freezes a sub-account through v2 and activates it again
// through v2 (its key is refused while frozen, so its orders can be read
// only afterwards). Should the activation fail, the spec's end tries again.
func freezeAndActivate(ctx context.Context, id string) {
	GinkgoHelper()
	c := v2(target.RoleFull)
	active := false
	DeferCleanup(func(ctx SpecContext) {
		if !active {
			Expect(do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})).To(framework.BeOK(), "cleanup: activating %s", id)
		}
	})
	ex := do(ctx, c, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {id}})
	Expect(ex).To(framework.BeOK(), "freezing %s", id)
	Expect(resultOf(ex)).To(Equal(true), "freeze answers result true: %s", ex)
	ex = do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})
	Expect(ex).To(framework.BeOK(), "activating %s to read its orders", id)
	Expect(resultOf(ex)).To(Equal(true), "activate of the frozen sub-account answers result true: %s", ex)
	active = true
}
