// Package v2conventions holds the conformance specs of the conventions of
// API v2 (api-v2.md, What the service does): the address, how finance
// values, timestamps and numbers are carried, and where parameters go.
package v2conventions

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// first returns the first object of an array answer.
func first(ctx SpecContext, c *client.Client, path string, q url.Values) map[string]any {
	GinkgoHelper()
	objs, _ := framework.GetObjects(ctx, c, path, q)
	Expect(objs).NotTo(BeEmpty(), "GET /api/2%s answers at least one record", path)
	return objs[0]
}

var _ = framework.AreaDescribe("v2 conventions", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V2-CONV-ADDRESS", func(ctx SpecContext) {
		ex, _ := e.Public().Do(ctx, client.Request{Path: "/api/2/public/currency", Absolute: true})
		Expect(ex).To(framework.BeOK(), "GET {base_url}/api/2/public/currency")
		Expect(framework.JSONOf(ex)).To(BeAssignableToTypeOf([]any{}), "an array of Currency")
	})

	framework.ConformanceIt("V2-CONV-DECIMAL-STRING", func(ctx SpecContext) {
		cur := first(ctx, e.V2Public(), "/public/currency", nil)
		sym := first(ctx, e.V2Public(), "/public/symbol", nil)
		tick := first(ctx, e.V2Public(), "/public/ticker", nil)
		bals, _ := framework.GetObjects(ctx, e.V2Signed(target.RoleFull), "/account/balance", nil)
		check := func(what string, o map[string]any, keys ...string) {
			for _, k := range keys {
				Expect(o[k]).To(framework.BeDecimalString(), "%s %s", what, k)
			}
		}
		check("currency "+fmt.Sprint(cur["id"]), cur, "payoutFee", "payoutMinimalAmount")
		check("symbol "+fmt.Sprint(sym["id"]), sym, "quantityIncrement", "tickSize", "takeLiquidityRate", "provideLiquidityRate")
		check("ticker "+fmt.Sprint(tick["symbol"]), tick, "volume", "volumeQuote")
		for _, b := range bals {
			check("balance "+fmt.Sprint(b["currency"]), b, "available", "reserved")
		}
	})

	framework.ConformanceIt("V2-CONV-TIMESTAMP", func(ctx SpecContext) {
		tick := first(ctx, e.V2Public(), "/public/ticker", nil)
		Expect(tick["timestamp"]).To(framework.BeISOTimestamp(), "ticker timestamp")
		txs, _ := framework.GetObjects(ctx, e.V2Signed(target.RoleFull), "/account/transactions", url.Values{"limit": {"5"}})
		for _, t := range txs {
			Expect(t["createdAt"]).To(framework.BeISOTimestamp(), "transaction %v createdAt", t["id"])
			Expect(t["updatedAt"]).To(framework.BeISOTimestamp(), "transaction %v updatedAt", t["id"])
		}
	})

	framework.ConformanceIt("V2-CONV-NUMBER-TYPE", func(ctx SpecContext) {
		cur := first(ctx, e.V2Public(), "/public/currency", nil)
		for _, k := range []string{"payinConfirmations", "precisionPayout", "precisionTransfer"} {
			Expect(framework.IsKind(cur[k], framework.Number)).To(BeTrue(), "currency %v %s: %#v is a JSON number", cur["id"], k, cur[k])
		}
		txs, _ := framework.GetObjects(ctx, e.V2Signed(target.RoleFull), "/account/transactions", url.Values{"limit": {"5"}})
		for _, t := range txs {
			Expect(framework.IsKind(t["index"], framework.Number)).To(BeTrue(), "transaction %v index: %#v is a JSON number", t["id"], t["index"])
		}
	})

	framework.ConformanceIt("V2-CONV-GET-QUERY", func(ctx SpecContext) {
		all, _ := framework.GetObjects(ctx, e.V2Public(), "/public/symbol", nil)
		Expect(len(all)).To(BeNumerically(">", 1), "more than one symbol is listed")
		id := fmt.Sprint(all[0]["id"])
		got, _ := framework.GetObjects(ctx, e.V2Public(), "/public/symbol", url.Values{"symbols": {id}})
		Expect(framework.IDsOf(got, "id")).To(Equal([]string{id}), "GET /api/2/public/symbol?symbols=%s", id)
	})

	framework.ConformanceIt("V2-CONV-POST-BODY", func(ctx SpecContext) {
		c := e.V2Signed(target.RoleFull)
		objs, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
		var cur, amt string
		for _, b := range objs {
			if s := fmt.Sprint(b["available"]); s != "0" && s != "" {
				cur, amt = fmt.Sprint(b["currency"]), "0.01"
				break
			}
		}
		if cur == "" {
			Skip("the main balance holds nothing to move")
		}
		for _, typ := range []string{"bankToExchange", "exchangeToBank"} {
			ex, _ := c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/account/transfer",
				Form: url.Values{"currency": {cur}, "amount": {amt}, "type": {typ}}})
			Expect(ex).To(framework.BeOK(), "POST /account/transfer with its parameters in a form body (%s)", typ)
		}
	})
})
