package v2versioning

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// decEq compares two decimal strings by value.
func decEq(a, b any) bool {
	x, err1 := decimal.NewFromString(fmt.Sprint(a))
	y, err2 := decimal.NewFromString(fmt.Sprint(b))
	return err1 == nil && err2 == nil && x.Equal(y)
}

// eachDefaultNetwork calls check with every v2 currency and the default
// network v3 lists for it; it counts the calls that checked something.
func eachDefaultNetwork(ctx SpecContext, check func(id string, v2 map[string]any, net map[string]any) bool) int {
	e := framework.Current()
	v3, _ := framework.GetObject(ctx, e.Public(), "/public/currency", nil)
	v2, _ := framework.GetObjects(ctx, e.V2Public(), "/public/currency", nil)
	checked := 0
	for _, c := range v2 {
		id := fmt.Sprint(c["id"])
		r, _ := v3[id].(map[string]any)
		nets, _ := r["networks"].([]any)
		for _, n := range nets {
			if nm, _ := n.(map[string]any); nm["default"] == true && check(id, c, nm) {
				checked++
			}
		}
	}
	return checked
}

var _ = framework.AreaDescribe("v2 beside v3", func() {
	framework.ConformanceIt("V2-V3-SYMBOL-SAME", func(ctx SpecContext) {
		e := framework.Current()
		v3, _ := framework.GetObject(ctx, e.Public(), "/public/symbol", nil)
		v2, _ := framework.GetObjects(ctx, e.V2Public(), "/public/symbol", nil)
		Expect(v2).NotTo(BeEmpty(), "v2 lists symbols")
		for _, s := range v2 {
			id := fmt.Sprint(s["id"])
			r, ok := v3[id].(map[string]any)
			Expect(ok).To(BeTrue(), "v2 symbol %s is listed by v3 /public/symbol", id)
			Expect(s["baseCurrency"]).To(Equal(r["base_currency"]), "%s base currency", id)
			Expect(s["quoteCurrency"]).To(Equal(r["quote_currency"]), "%s quote currency", id)
			Expect(s["feeCurrency"]).To(Equal(r["fee_currency"]), "%s fee currency", id)
			for v2k, v3k := range map[string]string{"quantityIncrement": "quantity_increment", "tickSize": "tick_size",
				"takeLiquidityRate": "take_rate", "provideLiquidityRate": "make_rate"} {
				Expect(decEq(s[v2k], r[v3k])).To(BeTrue(), "%s: v2 %s %v, v3 %s %v", id, v2k, s[v2k], v3k, r[v3k])
			}
		}
	})

	framework.ConformanceIt("V2-V3-CURRENCY-SAME", func(ctx SpecContext) {
		e := framework.Current()
		v3, _ := framework.GetObject(ctx, e.Public(), "/public/currency", nil)
		v2, _ := framework.GetObjects(ctx, e.V2Public(), "/public/currency", nil)
		Expect(v2).NotTo(BeEmpty(), "v2 lists currencies")
		for _, c := range v2 {
			id := fmt.Sprint(c["id"])
			r, ok := v3[id].(map[string]any)
			Expect(ok).To(BeTrue(), "v2 currency %s is listed by v3 /public/currency", id)
			for v2k, v3k := range map[string]string{"fullName": "full_name", "crypto": "crypto", "payinEnabled": "payin_enabled",
				"payoutEnabled": "payout_enabled", "transferEnabled": "transfer_enabled", "delisted": "delisted"} {
				Expect(c[v2k]).To(Equal(r[v3k]), "%s: v2 %s, v3 %s", id, v2k, v3k)
			}
		}
	})

	framework.ConformanceIt("V2-V3-PAYOUT-FEE-SAME", func(ctx SpecContext) {
		checked := eachDefaultNetwork(ctx, func(id string, c, net map[string]any) bool {
			if net["payout_fee"] == nil {
				return false
			}
			Expect(decEq(c["payoutFee"], net["payout_fee"])).To(BeTrue(), "%s: v2 payoutFee %v, v3 default network %v payout_fee %v", id, c["payoutFee"], net["code"], net["payout_fee"])
			return true
		})
		if checked == 0 {
			Skip("no v3 currency gives a default network's payout_fee")
		}
	})

	// digitsOf is the number of digits after the point of a v3 precision.
	digitsOf := func(v any) string {
		_, frac, _ := strings.Cut(fmt.Sprint(v), ".")
		return fmt.Sprint(len(frac))
	}

	framework.ConformanceIt("V2-V3-NETWORK-SAME", func(ctx SpecContext) {
		checked := eachDefaultNetwork(ctx, func(id string, c, nm map[string]any) bool {
			Expect(c["payinPaymentId"]).To(Equal(nm["payin_payment_id"]), "%s payinPaymentId", id)
			Expect(c["payoutIsPaymentId"]).To(Equal(nm["payout_is_payment_id"]), "%s payoutIsPaymentId", id)
			Expect(fmt.Sprint(c["payinConfirmations"])).To(Equal(fmt.Sprint(nm["payin_confirmations"])), "%s payinConfirmations", id)
			Expect(fmt.Sprint(c["precisionPayout"])).To(Equal(digitsOf(nm["precision_payout"])), "%s precisionPayout, v3 precision_payout %v", id, nm["precision_payout"])
			return true
		})
		if checked == 0 {
			Skip("no v3 currency marks a default network")
		}
	})

	framework.ConformanceIt("V2-V3-PRECISION-TRANSFER-SAME", func(ctx SpecContext) {
		e := framework.Current()
		v3, _ := framework.GetObject(ctx, e.Public(), "/public/currency", nil)
		v2, _ := framework.GetObjects(ctx, e.V2Public(), "/public/currency", nil)
		for _, c := range v2 {
			id := fmt.Sprint(c["id"])
			r, _ := v3[id].(map[string]any)
			Expect(fmt.Sprint(c["precisionTransfer"])).To(Equal(digitsOf(r["precision_transfer"])), "%s precisionTransfer, v3 precision_transfer %v", id, r["precision_transfer"])
		}
	})

	It("V2-V3-TRADE-SAME a trade placed over v3 shows in v2 history with the same fields", framework.Checks("V2-V3-TRADE-SAME"), func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		maker, taker := trading.NewTrader(target.RoleCounterparty, trading.Spot), trading.NewTrader(target.RoleFull, trading.Spot)
		ms := trading.FillMarkets(ctx, maker, taker, trading.FillPlan{Symbols: trading.WorkingSymbols(ctx), N: 1, Ticks: 2, Cloids: "v2v",
			Need: func(m trading.Market) (quote, base decimal.Decimal) {
				return m.At(m.Room).Mul(m.Q).Mul(decimal.NewFromInt(4)), m.Q.Mul(decimal.NewFromInt(2))
			}})
		_, to := ms[0].Trade(ctx, maker, taker, "sell", 1, 1)
		trades, _ := to["trades"].([]any)
		Expect(trades).To(HaveLen(1), "the v3 taker order traded once: %v", to)
		tr := trades[0].(map[string]any)
		id := fmt.Sprint(tr["id"])
		got, _ := framework.GetObjects(ctx, e.V2Signed(target.RoleFull), "/history/trades", url.Values{"from": {id}, "till": {id}})
		Expect(got).To(HaveLen(1), "GET /api/2/history/trades?from=%s&till=%s", id, id)
		g := got[0]
		Expect(fmt.Sprint(g["id"])).To(Equal(id), "trade id")
		Expect(fmt.Sprint(g["orderId"])).To(Equal(fmt.Sprint(to["id"])), "order id")
		Expect(g["clientOrderId"]).To(Equal(to["client_order_id"]), "client order id")
		Expect(g["symbol"]).To(Equal(to["symbol"]), "symbol")
		for _, k := range []string{"quantity", "price", "fee"} {
			Expect(decEq(g[k], tr[k])).To(BeTrue(), "%s: v2 %v, v3 %v", k, g[k], tr[k])
		}
	})
})
