package v2account

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var balanceSchema = framework.Schema{
	"currency":  {Kind: framework.String},
	"available": {Kind: framework.Decimal},
	"reserved":  {Kind: framework.Decimal},
}

// addressSchema is the Deposit address resource; usedAddressSchema the
// used-address record.
var (
	addressSchema = framework.Schema{"address": {Kind: framework.String}, "paymentId": {Kind: framework.String, Optional: true},
		"publicKey": {Kind: framework.String, Optional: true}, "networkCode": {Kind: framework.String, Optional: true}}
	usedAddressSchema = framework.Schema{"address": {Kind: framework.String}, "paymentId": {Kind: framework.String, Optional: true},
		"networkCode": {Kind: framework.String, Optional: true}}
)

var feeLevelSchema = framework.Schema{
	"feeLevelId": {Kind: framework.Number},
	"comment":    {Kind: framework.String},
	"fee":        {Kind: framework.String},
	"isDefault":  {Kind: framework.Bool},
}

var _ = framework.AreaDescribe("v2 account: balance and deposit addresses", func() {
	var c *client.Client
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-BALANCE-FIELDS", func(ctx SpecContext) {
		objs, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
		for _, o := range objs {
			Expect(o).To(framework.MatchSchema(balanceSchema), "balance %v", o["currency"])
		}
	})

	framework.ConformanceIt("V2-ACCOUNT-ADDRESS-CURRENT", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		a := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address")
		Expect(a["address"]).To(And(BeAssignableToTypeOf(""), Not(BeEmpty())), "address String")
		b := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address again")
		Expect(b["address"]).To(Equal(a["address"]), "the current address stays until a new one is made")
	})

	framework.ConformanceIt("V2-ACCOUNT-ADDRESS-NEW", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		before := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address")
		made := okObject(send(ctx, c, http.MethodPost, "/account/crypto/address/"+cur, nil), "new address")
		Expect(made["address"]).To(And(BeAssignableToTypeOf(""), Not(BeEmpty()), Not(Equal(before["address"]))), "a new address")
		now := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address after POST")
		Expect(now["address"]).To(Equal(made["address"]), "the new address is the current one")
	})

	framework.ConformanceIt("V2-ACCOUNT-ADDRESSES-LAST10", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		var last any
		for i := 0; i < 11; i++ {
			last = okObject(send(ctx, c, http.MethodPost, "/account/crypto/address/"+cur, nil), "new address")["address"]
		}
		objs, _ := framework.GetObjects(ctx, c, "/account/crypto/addresses/"+cur, nil)
		Expect(len(objs)).To(BeNumerically("<=", 10), "at most the last 10 of 11 new addresses")
		Expect(framework.IDsOf(objs, "address")).To(ContainElement(last), "the newest address is among the last 10")
	})

	framework.ConformanceIt("V2-ACCOUNT-IS-MINE", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		a := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address")
		addr, _ := a["address"].(string)
		mine := okObject(send(ctx, c, http.MethodGet, "/account/crypto/is-mine/"+url.PathEscape(addr), nil), "is-mine of the own address")
		Expect(mine["result"]).To(BeTrue(), "is-mine/%s", addr)
		other := okObject(send(ctx, c, http.MethodGet, "/account/crypto/is-mine/conformNotAnAddressOfThisAccount0000", nil), "is-mine of a made-up address")
		Expect(other["result"]).To(BeFalse(), "is-mine of an address the account never had")
	})

	framework.ConformanceIt("V2-ACCOUNT-ESTIMATE-LEVELS", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		objs, _ := framework.GetObjects(ctx, c, "/account/crypto/estimate-withdraw-levels", url.Values{"currency": {cur}, "amount": {"1"}})
		Expect(objs).NotTo(BeEmpty(), "fee levels of %s", cur)
		defaults := 0
		for _, o := range objs {
			Expect(o).To(framework.MatchSchema(feeLevelSchema), "fee level %v", o["feeLevelId"])
			if o["isDefault"] == true {
				defaults++
			}
		}
		Expect(defaults).To(Equal(1), "one level is the default: %v", objs)
	})

	framework.ConformanceIt("V2-ACCOUNT-USED-ADDRESSES", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		withdraw(ctx, c, p, nil)
		objs, _ := framework.GetObjects(ctx, c, "/account/crypto/used-addresses/"+p.cur, nil)
		Expect(len(objs)).To(BeNumerically("<=", 10), "at most 10 used addresses")
		n := 0
		for _, o := range objs {
			if o["address"] == p.address {
				n++
			}
		}
		Expect(n).To(Equal(1), "the address just withdrawn to (%s) is listed once: %v", p.address, objs)
	})
})

var _ = framework.AreaDescribe("v2 account: networks and estimates", func() {
	var c *client.Client
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-ACCOUNT-ADDRESS-NETWORK", func(ctx SpecContext) {
		cur, net, pattern := secondNetwork(ctx)
		a := okObject(send(ctx, c, http.MethodPost, "/account/crypto/address/"+cur, url.Values{"networkCode": {net}}), "new address on network "+net)
		if n, ok := a["networkCode"]; ok {
			Expect(n).To(Equal(net), "networkCode of the answer")
		}
		Expect(a["address"]).To(MatchRegexp(pattern), "a %s address on network %s matches its pattern", cur, net)
	})

	framework.ConformanceIt("V2-ADDRESS-FIELDS", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		recs := []map[string]any{
			okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, nil), "current address"),
			okObject(send(ctx, c, http.MethodPost, "/account/crypto/address/"+cur, nil), "new address"),
		}
		last, _ := framework.GetObjects(ctx, c, "/account/crypto/addresses/"+cur, nil)
		for _, a := range append(recs, last...) {
			Expect(a).To(framework.MatchSchema(addressSchema), "deposit address record %v", a["address"])
		}
		used, _ := framework.GetObjects(ctx, c, "/account/crypto/used-addresses/"+cur, nil)
		for _, a := range used {
			Expect(a).To(framework.MatchSchema(usedAddressSchema), "used-address record %v", a["address"])
		}
	})

	framework.ConformanceIt("V2-ACCOUNT-ADDRESS-NETWORK-GET", func(ctx SpecContext) {
		cur, net, pattern := secondNetwork(ctx)
		q := url.Values{"networkCode": {net}}
		a := okObject(send(ctx, c, http.MethodGet, "/account/crypto/address/"+cur, q), "current address on network "+net)
		if n, ok := a["networkCode"]; ok {
			Expect(n).To(Equal(net), "networkCode of the answer")
		}
		Expect(a["address"]).To(MatchRegexp(pattern), "the current %s address on network %s matches its pattern", cur, net)
		as, _ := framework.GetObjects(ctx, c, "/account/crypto/addresses/"+cur, q)
		Expect(as).NotTo(BeEmpty(), "GET /account/crypto/addresses/%s?networkCode=%s lists the current address", cur, net)
		for _, x := range as {
			Expect(x["address"]).To(MatchRegexp(pattern), "each %s address listed for network %s matches its pattern", cur, net)
		}
	})

	framework.ConformanceIt("V2-ACCOUNT-ESTIMATE", func(ctx SpecContext) {
		cur := addressCurrency(ctx)
		o := okObject(send(ctx, c, http.MethodGet, "/account/crypto/estimate-withdraw", url.Values{"currency": {cur}, "amount": {"1"}}), "estimate-withdraw")
		Expect(o).To(HaveKeyWithValue("fee", framework.BeDecimalString()), "the fee of withdrawing 1 %s", cur)
	})
})

// secondNetwork is a currency whose deposits run on a non-default network
// with an address pattern of its own (v3 /public/currency lists them): the
// currency, the network and its pattern. It skips the spec without one.
func secondNetwork(ctx context.Context) (cur, net, pattern string) {
	GinkgoHelper()
	v3, _ := framework.GetObject(ctx, framework.Current().Public(), "/public/currency", nil)
	for code, v := range v3 {
		m, _ := v.(map[string]any)
		nets, _ := m["networks"].([]any)
		def := ""
		for _, n := range nets {
			if nm, _ := n.(map[string]any); nm["default"] == true {
				def, _ = nm["address_regex"].(string)
			}
		}
		for _, n := range nets {
			nm, _ := n.(map[string]any)
			re, _ := nm["address_regex"].(string)
			if nm["default"] != true && nm["payin_enabled"] == true && re != "" && re != def && m["payin_enabled"] == true {
				cur, net, pattern = code, fmt.Sprint(nm["code"]), re
			}
		}
	}
	if cur == "" {
		Skip("no currency takes deposits on a second network with an address pattern of its own")
	}
	return cur, net, pattern
}
