package v2account

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A write's parameters that the Account management table does not mark
// optional are required: a request without one is refused with 10001
// (Errors: "for example a required parameter missing") and moves nothing.
// Each row sends the complete, well-formed request less one parameter.

// writeForm is a complete request of one write and the currency whose main
// balance it would move.
type writeForm func(ctx SpecContext, c *client.Client) (form url.Values, cur string)

var requiredWrites = map[string]struct {
	rule, path string
	params     []string
	form       writeForm
}{
	"withdraw": {"V2-ACCOUNT-WITHDRAW-REQUIRED", "/account/crypto/withdraw", []string{"currency", "amount", "address"},
		func(ctx SpecContext, c *client.Client) (url.Values, string) {
			p := choosePayout(ctx, c)
			// autoCommit false: a withdrawal a faulty target creates is rolled back.
			return url.Values{"currency": {p.cur}, "amount": {p.amount}, "address": {p.address}, "autoCommit": {"false"}}, p.cur
		}},
	"transfer": {"V2-ACCOUNT-TRANSFER-REQUIRED", "/account/transfer", []string{"currency", "amount", "type"},
		func(ctx SpecContext, c *client.Client) (url.Values, string) {
			cur, amt := transferAmount(ctx, c)
			return url.Values{"currency": {cur}, "amount": {amt.String()}, "type": {"bankToExchange"}}, cur
		}},
	"internal": {"V2-ACCOUNT-INTERNAL-REQUIRED", "/account/transfer/internal", []string{"currency", "amount", "by", "identifier"},
		func(ctx SpecContext, c *client.Client) (url.Values, string) {
			user, _ := recipient()
			cur, amt := transferAmount(ctx, c)
			return url.Values{"currency": {cur}, "amount": {amt.String()}, "by": {"username"}, "identifier": {user}}, cur
		}},
	"convert": {"V2-ACCOUNT-CONVERT-REQUIRED", "/account/crypto/transfer-convert", []string{"fromCurrency", "toCurrency", "amount"}, convertForm},
}

// convertForm converts 1 between two currencies v3 marks stable (the pair
// the transfer-convert spec uses; the document does not say which convert),
// from the one the main balance holds most of.
func convertForm(ctx SpecContext, c *client.Client) (url.Values, string) {
	v3, _ := framework.GetObject(ctx, framework.Current().Public(), "/public/currency", nil)
	var stable []string
	for code, v := range v3 {
		if m, ok := v.(map[string]any); ok && m["stable"] == true {
			stable = append(stable, code)
		}
	}
	slices.Sort(stable)
	if len(stable) < 2 {
		Skip(fmt.Sprintf("needs two stable currencies, found %v", stable))
	}
	from, most := stable[0], mainBalance(ctx, c, stable[0])
	for _, s := range stable[1:] {
		if b := mainBalance(ctx, c, s); b.avail.GreaterThan(most.avail) {
			from, most = s, b
		}
	}
	to := stable[0]
	if to == from {
		to = stable[1]
	}
	return url.Values{"fromCurrency": {from}, "toCurrency": {to}, "amount": {"1"}}, from
}

func requiredEntries() []TableEntry {
	var out []TableEntry
	for _, name := range slices.Sorted(maps.Keys(requiredWrites)) {
		w := requiredWrites[name]
		for _, p := range w.params {
			out = append(out, Entry(fmt.Sprintf("POST %s without %s", w.path, p), framework.Checks(w.rule, "V2-ERR-10001"), name, p))
		}
	}
	return out
}

var _ = framework.AreaDescribe("v2 account: required parameters of the writes", func() {
	DescribeTable("a write without a parameter its row does not mark optional is refused with 10001 and moves nothing",
		func(ctx SpecContext, name, missing string) {
			e := framework.Current()
			e.RequireTrading()
			c := e.V2Signed(target.RoleFull)
			w := requiredWrites[name]
			form, cur := w.form(ctx, c)
			before := mainBalance(ctx, c, cur)
			form.Del(missing)
			ex := send(ctx, c, http.MethodPost, w.path, form)
			if o, ok := framework.JSONOf(ex).(map[string]any); ok && ex.Status == http.StatusOK && name == "withdraw" {
				if id, ok := o["id"].(string); ok {
					rollbackAtEnd(c, id)
				}
			}
			Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST %s without %s", w.path, missing)
			after := mainBalance(ctx, c, cur)
			Expect(after.avail.Equal(before.avail)).To(BeTrue(), "a refused POST %s moved %s: main available %s -> %s", w.path, cur, before.avail, after.avail)
		},
		requiredEntries(),
	)
})

// The fee estimates take "currency, networkCode optional, amount" and
// "currency, amount": currency and amount are required there too.
var _ = framework.AreaDescribe("v2 account: required parameters of the fee estimates", func() {
	framework.ConformanceContext("V2-ACCOUNT-ESTIMATE-REQUIRED", func() {
		DescribeTable("an estimate without currency or amount is refused with 10001",
			func(ctx SpecContext, path, missing string) {
				c := framework.Current().V2Signed(target.RoleFull)
				p := choosePayout(ctx, c)
				q := url.Values{"currency": {p.cur}, "amount": {p.amount}}
				q.Del(missing)
				Expect(send(ctx, c, http.MethodGet, path, q)).To(framework.BeAPIError(http.StatusBadRequest, 10001), "GET %s without %s", path, missing)
			},
			Entry(nil, "/account/crypto/estimate-withdraw", "currency"), Entry(nil, "/account/crypto/estimate-withdraw", "amount"),
			Entry(nil, "/account/crypto/estimate-withdraw-levels", "currency"), Entry(nil, "/account/crypto/estimate-withdraw-levels", "amount"),
		)
	})
})
