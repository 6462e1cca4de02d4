// Package v2limits holds the conformance specs of the v2 Limits section:
// the rates (V2-LIMIT-MARKETDATA, V2-LIMIT-OTHER) and the readings of
// V2-LIMIT-BURST and V2-LIMIT-TRADING, judged from the limits batch
// (BatchSpecs, declared inside suites/limits' container, which offers the
// rows of both sections at once), the history maxima and the length of a
// withdrawal's publicComment.
package v2limits

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// outcome says what an answer was, for observations.
func outcome(ex *client.Exchange) string {
	if ae, ok := ex.APIError(); ok {
		return fmt.Sprintf("HTTP %d error %d", ae.Status, ae.Code)
	}
	if a, ok := framework.JSONOf(ex).([]any); ok {
		return fmt.Sprintf("HTTP %d, %d records", ex.Status, len(a))
	}
	return fmt.Sprintf("HTTP %d", ex.Status)
}

var _ = framework.AreaDescribe("v2 limits", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V2-LIMIT-HISTORY-MAX", func(ctx SpecContext) {
		c := e.V2Signed(target.RoleFull)
		for _, path := range []string{"/history/trades", "/account/transactions"} {
			for _, q := range []url.Values{{"limit": {"1001"}}, {"offset": {"100001"}}} {
				ex, _ := c.Get(ctx, path, q)
				framework.Observe("V2-LIMIT-HISTORY-MAX", "%s?%s -> %s", path, q.Encode(), outcome(ex))
			}
		}
	})

	framework.ConformanceIt("V2-LIMIT-PUBLIC-COMMENT", func(ctx SpecContext) {
		c := e.V2Signed(target.RoleFull)
		curs, _ := framework.GetObjects(ctx, e.V2Public(), "/public/currency", nil)
		bals, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
		avail := map[string]decimal.Decimal{}
		for _, b := range bals {
			avail[fmt.Sprint(b["currency"])], _ = decimal.NewFromString(fmt.Sprint(b["available"]))
		}
		var cur string
		var amount decimal.Decimal
		for _, cu := range curs {
			fee, _ := decimal.NewFromString(fmt.Sprint(cu["payoutFee"]))
			min, _ := decimal.NewFromString(fmt.Sprint(cu["payoutMinimalAmount"]))
			amt := decimal.Max(fee.Mul(decimal.NewFromInt(10)), min.Mul(decimal.NewFromInt(2)))
			id := fmt.Sprint(cu["id"])
			if cu["crypto"] == true && cu["payoutEnabled"] == true && cu["payinEnabled"] == true && amt.IsPositive() &&
				avail[id].GreaterThan(amt.Add(fee).Mul(decimal.NewFromInt(3))) {
				cur, amount = id, amt
				break
			}
		}
		if cur == "" {
			Skip("no crypto currency with withdrawals enabled and a main balance to spare")
		}
		addr, _ := framework.ObjectOf(mustGet(ctx, c, "/account/crypto/address/"+cur))["address"].(string)
		post := func(comment string) *client.Exchange {
			ex, _ := c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/account/crypto/withdraw", Form: url.Values{
				"currency": {cur}, "amount": {amount.String()}, "address": {addr}, "autoCommit": {"false"}, "publicComment": {comment}}})
			if ex != nil && ex.Status == http.StatusOK {
				if id, ok := framework.ObjectOf(ex)["id"].(string); ok {
					DeferCleanup(func(ctx SpecContext) {
						_, _ = c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/account/crypto/withdraw/" + id})
					})
				}
			}
			return ex
		}
		long := post(strings.Repeat("c", 256))
		Expect(long.Status).To(Equal(http.StatusBadRequest), "a publicComment of 256 characters is refused: %s", long)
		if ae, ok := long.APIError(); ok {
			framework.Record("V2-LIMIT-PUBLIC-COMMENT", "256 characters: error %d", ae.Code)
		}
		Expect(post(strings.Repeat("c", 255))).To(framework.BeOK(), "a publicComment of 255 characters is accepted")
	})
})

func mustGet(ctx SpecContext, c *client.Client, path string) *client.Exchange {
	GinkgoHelper()
	ex, _ := c.Get(ctx, path, nil)
	Expect(ex).To(framework.BeOK(), "GET %s", path)
	return ex
}
