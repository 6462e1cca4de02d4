package subaccounts

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var aclSchema = framework.Schema{
	"sub_account_id":                     {Kind: framework.String},
	"deposit_address_generation_enabled": {Kind: framework.Bool},
	"withdraw_enabled":                   {Kind: framework.Bool},
	"description":                        {Kind: framework.String},
	"created_at":                         {Kind: framework.DateTime},
	"updated_at":                         {Kind: framework.DateTime},
}

var balanceItem = framework.Schema{
	"currency":  {Kind: framework.String},
	"available": {Kind: framework.Decimal},
	"reserved":  {Kind: framework.Decimal},
}

// acls reads GET /sub-account/acl, with sub_account_ids when ids is not empty.
func (s *super) acls(ctx SpecContext, ids ...string) []map[string]any {
	GinkgoHelper()
	q := url.Values{}
	if len(ids) > 0 {
		q.Set("sub_account_ids", join(ids))
	}
	ex := do(ctx, s.c, http.MethodGet, "/sub-account/acl", q)
	Expect(ex).To(framework.BeOK(), "reading the ACL of %v", ids)
	arr, ok := resultOf(ex).([]any)
	Expect(ok).To(BeTrue(), "result is an array of ACL: %s", ex)
	var out []map[string]any
	for _, v := range arr {
		m, _ := v.(map[string]any)
		out = append(out, m)
	}
	return out
}

func join(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ","
		}
		out += id
	}
	return out
}

func setACL(ids string, dep, wd bool, desc string) url.Values {
	return url.Values{"sub_account_ids": {ids}, "deposit_address_generation_enabled": {fmt.Sprint(dep)},
		"withdraw_enabled": {fmt.Sprint(wd)}, "description": {desc}}
}

var _ = framework.AreaDescribe("Sub-account ACL, balance and deposit address", func() {
	framework.ConformanceIt("V3-SUBACC-ACL-GET", func(ctx SpecContext) {
		s := newSuper()
		recs := s.acls(ctx, subID(target.RoleSub))
		Expect(recs).NotTo(BeEmpty(), "the ACL of an active sub-account")
		for _, m := range recs {
			Expect(m).To(framework.MatchSchema(aclSchema))
		}
	})

	framework.ConformanceIt("V3-SUBACC-ACL-FILTER", func(ctx SpecContext) {
		s, a := newSuper(), subID(target.RoleSub)
		subID(target.RoleSub2) // a second usable sub-account that must not show
		recs := s.acls(ctx, a)
		Expect(recs).To(HaveLen(1), "one sub-account listed in sub_account_ids, one ACL record: %v", recs)
		Expect(recs[0]["sub_account_id"]).To(Equal(a))
	})

	framework.ConformanceIt("V3-SUBACC-ACL-SET", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		before := s.acls(ctx, id)
		Expect(before).To(HaveLen(1))
		old := before[0]
		DeferCleanup(func(ctx SpecContext) {
			desc, _ := old["description"].(string)
			dep, _ := old["deposit_address_generation_enabled"].(bool)
			wd, _ := old["withdraw_enabled"].(bool)
			do(ctx, s.c, http.MethodPost, "/sub-account/acl", setACL(id, dep, wd, desc))
		})
		dep, _ := old["deposit_address_generation_enabled"].(bool)
		wd, _ := old["withdraw_enabled"].(bool)
		desc := "conform " + cloids.New()
		ex := do(ctx, s.c, http.MethodPost, "/sub-account/acl", setACL(id, !dep, !wd, desc))
		Expect(ex).To(framework.BeOK(), "changing the ACL")
		arr, ok := resultOf(ex).([]any)
		Expect(ok && len(arr) == 1).To(BeTrue(), "result is an array with the changed ACL: %s", ex)
		want := And(HaveKeyWithValue("sub_account_id", id), HaveKeyWithValue("deposit_address_generation_enabled", !dep),
			HaveKeyWithValue("withdraw_enabled", !wd), HaveKeyWithValue("description", desc))
		Expect(arr[0]).To(And(framework.MatchSchema(aclSchema), want), "the answer carries the new values")
		Expect(s.acls(ctx, id)[0]).To(want, "a later read shows the new values")
	})

	framework.ConformanceContext("V3-SUBACC-ACL-REQUIRED", func() {
		DescribeTable("a change without a required parameter is refused with 10001 and changes nothing",
			func(ctx SpecContext, missing string) {
				mayChange()
				s, id := newSuper(), subID(target.RoleSub)
				before := s.acls(ctx, id)
				Expect(before).To(HaveLen(1))
				old := before[0]
				dep, _ := old["deposit_address_generation_enabled"].(bool)
				wd, _ := old["withdraw_enabled"].(bool)
				desc, _ := old["description"].(string)
				DeferCleanup(func(ctx SpecContext) { do(ctx, s.c, http.MethodPost, "/sub-account/acl", setACL(id, dep, wd, desc)) })
				p := setACL(id, !dep, !wd, "conform "+cloids.New())
				p.Del(missing)
				Expect(do(ctx, s.c, http.MethodPost, "/sub-account/acl", p)).To(framework.BeAPIError(http.StatusBadRequest, 10001), "POST /sub-account/acl without %s", missing)
				Expect(s.acls(ctx, id)[0]).To(And(HaveKeyWithValue("deposit_address_generation_enabled", dep), HaveKeyWithValue("withdraw_enabled", wd),
					HaveKeyWithValue("description", desc)), "the ACL after the refused change without %s", missing)
			},
			Entry("without sub_account_ids", "sub_account_ids"),
			Entry("without deposit_address_generation_enabled", "deposit_address_generation_enabled"),
			Entry("without withdraw_enabled", "withdraw_enabled"),
			Entry("without description", "description"),
		)
	})

	framework.ConformanceContext("V3-SUBACC-ACL-FROZEN", func() {
		DescribeTable("ACL read and change on a frozen or disabled sub-account yield 21004",
			func(ctx SpecContext, state, method string) {
				mayChange()
				s := newSuper()
				var id string
				if state == "frozen" {
					id = subID(target.RoleSub2)
					s.freezeForSpec(ctx, id)
				} else {
					id = s.withStatus(ctx, "disable")
				}
				var ex *client.Exchange
				if method == http.MethodGet {
					ex = do(ctx, s.c, method, "/sub-account/acl", url.Values{"sub_account_ids": {id}})
				} else {
					ex = do(ctx, s.c, method, "/sub-account/acl", setACL(id, true, true, ""))
				}
				expectCode(ex, 21004, method+" /sub-account/acl of a "+state+" sub-account")
			},
			Entry(nil, "frozen", http.MethodGet), Entry(nil, "frozen", http.MethodPost),
			Entry(nil, "disabled", http.MethodGet), Entry(nil, "disabled", http.MethodPost),
		)
	})
})

var _ = framework.AreaDescribe("Sub-account ACL, balance and deposit address", func() {
	framework.ConformanceIt("V3-SUBACC-BALANCE", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		if ok, _ := framework.Current().Config.MayTrade(); ok {
			// A currency the sub-account held and gave back entirely leaves
			// a zero balance behind, which must not appear.
			cur, amt := s.amountIn(ctx)
			if held := s.subSpot(ctx, id, cur); held.IsPositive() {
				s.transferOK(ctx, id, held, cur, "from_sub_account")
			} else {
				s.transferOK(ctx, id, amt, cur, "to_sub_account")
				s.transferOK(ctx, id, amt, cur, "from_sub_account")
			}
		}
		ex := do(ctx, s.c, http.MethodGet, "/sub-account/balance/"+id, nil)
		Expect(ex).To(framework.BeOK(), "reading the sub-account balance")
		res, ok := resultOf(ex).(map[string]any)
		Expect(ok).To(BeTrue(), "result is an object: %s", ex)
		Expect(res).To(framework.MatchSchema(framework.Schema{"wallet": {Kind: framework.Array, Optional: true}, "spot": {Kind: framework.Array, Optional: true}}))
		for _, k := range []string{"wallet", "spot"} {
			arr, _ := res[k].([]any)
			for _, v := range arr {
				Expect(v).To(framework.MatchSchema(balanceItem), "a %s item", k)
				m, _ := v.(map[string]any)
				Expect(trading.DecField(m, "available").IsZero() && trading.DecField(m, "reserved").IsZero()).To(BeFalse(),
					"only non-zero balances appear, yet %s lists %v", k, m)
			}
		}
	})

	framework.ConformanceContext("V3-SUBACC-BALANCE-ANY-STATE", func() {
		DescribeTable("the balance is answered in any state", func(ctx SpecContext, state string) {
			s := newSuper()
			var id string
			switch state {
			case "frozen":
				mayChange()
				id = subID(target.RoleSub2)
				s.freezeForSpec(ctx, id)
			case "active":
				id = subID(target.RoleSub)
			default:
				id = s.withStatus(ctx, state)
			}
			ex := do(ctx, s.c, http.MethodGet, "/sub-account/balance/"+id, nil)
			Expect(ex).To(framework.BeOK(), "the balance of a %s sub-account", state)
			Expect(resultOf(ex)).To(BeAssignableToTypeOf(map[string]any{}), "result is the balance object: %s", ex)
		}, Entry(nil, "active"), Entry(nil, "new"), Entry(nil, "frozen"), Entry(nil, "disable"))
	})

	framework.ConformanceIt("V3-SUBACC-ADDRESS", func(ctx SpecContext) {
		s, id := newSuper(), subID(target.RoleSub)
		cur := cryptoCurrency(ctx)
		ex := do(ctx, s.c, http.MethodGet, "/sub-account/crypto/address/"+id+"/"+cur, nil)
		Expect(ex).To(framework.BeOK(), "the sub-account's %s deposit address", cur)
		Expect(resultOf(ex)).To(framework.MatchSchema(framework.Schema{
			"address":    {Kind: framework.String},
			"payment_id": {Kind: framework.String, Optional: true},
			"public_key": {Kind: framework.String, Optional: true},
		}))
	})

	// The v3 Deposit address resource names no network, so all the document
	// lets a spec see is that network_code is taken.
	framework.ConformanceIt("V3-SUBACC-ADDRESS-NETWORK", func(ctx SpecContext) {
		nets := framework.Current().NonDefaultNetworks(ctx, framework.PayinOn)
		if len(nets) == 0 {
			Skip("the target lists no crypto currency taking deposits on a non-default network")
		}
		s, id := newSuper(), subID(target.RoleSub)
		cur, net := nets[0].Currency, nets[0].Code
		ex := do(ctx, s.c, http.MethodGet, "/sub-account/crypto/address/"+id+"/"+cur, url.Values{"network_code": {net}})
		Expect(ex).To(framework.BeOK(), "the sub-account's %s deposit address with network_code=%s", cur, net)
		Expect(resultOf(ex)).To(HaveKeyWithValue("address", And(BeAssignableToTypeOf(""), Not(BeEmpty()))), "result is a deposit address: %s", ex)
	})

	framework.ConformanceContext("V3-SUBACC-RIGHTS-WITHDRAW", func() {
		DescribeTable("a transfer with a key lacking Withdraw cryptocurrencies is refused with 1003",
			func(ctx SpecContext, role string) {
				mayChange()
				s, id := newSuper(), subID(target.RoleSub)
				cur, amt := s.amountIn(ctx)
				before := s.spot(ctx, cur)
				k := framework.Current().Signed(role, framework.Basic)
				ex := do(ctx, k, http.MethodPost, "/sub-account/transfer", url.Values{"sub_account_id": {id}, "amount": {amt.String()}, "currency": {cur}, "type": {"to_sub_account"}})
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "a transfer with the %s key", role)
				Expect(s.spot(ctx, cur)).To(trading.DecEqual(before), "the refused transfer moved nothing")
			},
			Entry(nil, target.RoleReadOnly), Entry(nil, target.RoleTradeOnly), Entry(nil, target.RoleNoRights),
		)
	})

	framework.ConformanceContext("V3-SUBACC-RIGHTS-PAYMENT", func() {
		DescribeTable("the ACL, balance and address endpoints refuse a key lacking Payment information with 1003",
			func(ctx SpecContext, role, name string) {
				id := subID(target.RoleSub)
				k := framework.Current().Signed(role, framework.Basic)
				var ex *client.Exchange
				switch name {
				case "GET /sub-account/acl":
					ex = do(ctx, k, http.MethodGet, "/sub-account/acl", url.Values{"sub_account_ids": {id}})
				case "POST /sub-account/acl":
					mayChange()
					ex = do(ctx, k, http.MethodPost, "/sub-account/acl", setACL(id, true, true, ""))
				case "GET /sub-account/balance":
					ex = do(ctx, k, http.MethodGet, "/sub-account/balance/"+id, nil)
				default:
					ex = do(ctx, k, http.MethodGet, "/sub-account/crypto/address/"+id+"/"+cryptoCurrency(ctx), nil)
				}
				Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with the %s key", name, role)
			},
			rightsEntries(),
		)
	})
})

func rightsEntries() []TableEntry {
	var out []TableEntry
	for _, name := range []string{"GET /sub-account/acl", "POST /sub-account/acl", "GET /sub-account/balance", "GET /sub-account/crypto/address"} {
		for _, role := range []string{target.RoleReadOnly, target.RoleTradeOnly, target.RoleNoRights} {
			out = append(out, Entry(fmt.Sprintf("%s key: %s", role, name), role, name))
		}
	}
	return out
}

// cryptoCurrency answers the first crypto currency the target lists with
// deposits enabled.
func cryptoCurrency(ctx SpecContext) string {
	GinkgoHelper()
	ex, _ := framework.Current().Public().Get(ctx, "/public/currency", nil)
	Expect(ex).To(framework.BeOK(), "reading the currencies")
	var codes []string
	for code, v := range framework.ObjectOf(ex) {
		if m, ok := v.(map[string]any); ok && m["crypto"] == true && m["payin_enabled"] == true {
			codes = append(codes, code)
		}
	}
	if len(codes) == 0 {
		Skip("the target lists no crypto currency with deposits enabled")
	}
	slices.Sort(codes)
	return codes[0]
}
