// Package v2subaccounts holds the specs of the v2 Sub-accounts family
// (/api/2/sub-acc/*): freeze and activate, transfers, withdrawal settings,
// balances and deposit addresses, the errors 10021 and 500 of the v2 table,
// and one state with version 3. Each Ginkgo process works on its own super
// account and sub-accounts (roles sub and sub2 with their numeric user ids).
package v2subaccounts

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// v2 is a client of role on /api/2, within the v2 per-user budget.
func v2(role string) *client.Client {
	GinkgoHelper()
	return framework.Current().V2Signed(role)
}

// do sends a v2 request (query for GET, form body otherwise).
func do(ctx context.Context, c *client.Client, method, path string, p url.Values) *client.Exchange {
	GinkgoHelper()
	req := client.Request{Method: method, Path: path}
	if method == http.MethodGet {
		req.Query = p
	} else {
		req.Form = p
	}
	ex, _ := c.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "%s /api/2%s: no exchange", method, path)
	return ex
}

// userID is the numeric user id of a sub-account role, skipping when the
// target config names none.
func userID(role string) string {
	GinkgoHelper()
	a := framework.Current().Account(role)
	if a.SubAccountUserID == 0 {
		Skip(fmt.Sprintf("the %s key's sub_account_user_id is not configured (accounts.%s.sub_account_user_id in the target config)", role, role))
	}
	return strconv.FormatInt(a.SubAccountUserID, 10)
}

// disabledUserID is the numeric user id of a disabled sub-account of the
// super account, skipping when the target config names none: v2 cannot
// list one (the response of GET /sub-acc is not shown) and v3's listing
// gives hex ids v2 is not documented to take.
func disabledUserID() string {
	GinkgoHelper()
	a := framework.Current().Account(target.RoleFull)
	if a.DisabledSubAccountUserID == 0 {
		Skip("no disabled sub-account is configured (accounts.full.disabled_sub_account_user_id in the target config)")
	}
	return strconv.FormatInt(a.DisabledSubAccountUserID, 10)
}

func mayChange() {
	GinkgoHelper()
	if ok, why := framework.Current().Config.MayTrade(); !ok {
		Skip("freezes sub-accounts or moves funds: " + why)
	}
}

func resultOf(ex *client.Exchange) any {
	GinkgoHelper()
	o := framework.ObjectOf(ex)
	Expect(o).To(HaveKey("result"), "the answer carries result: %s", ex)
	return o["result"]
}

// freezeForSpec freezes a sub-account through v2 and activates it through
// v2 when the spec ends.
func freezeForSpec(ctx context.Context, id string) {
	GinkgoHelper()
	c := v2(target.RoleFull)
	DeferCleanup(func(ctx SpecContext) {
		Expect(do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})).To(framework.BeOK(), "cleanup: activating %s", id)
	})
	ex := do(ctx, c, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {id}})
	Expect(ex).To(framework.BeOK(), "freezing %s", id)
	Expect(resultOf(ex)).To(Equal(true), "freeze answers result true: %s", ex)
}

// acl reads the withdrawal settings of ids.
func acl(ctx context.Context, ids ...string) []any {
	GinkgoHelper()
	q := url.Values{"subAccountIds": {joinIDs(ids)}}
	ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/acl", q)
	Expect(ex).To(framework.BeOK(), "reading the settings of %v", ids)
	arr, ok := resultOf(ex).([]any)
	Expect(ok).To(BeTrue(), "result is an array: %s", ex)
	return arr
}

func joinIDs(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ","
		}
		out += id
	}
	return out
}

// total is a sub-account's main plus trading balance in cur.
func total(ctx context.Context, id, cur string) decimal.Decimal {
	GinkgoHelper()
	ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/balance/"+id, nil)
	Expect(ex).To(framework.BeOK(), "the balance of %s", id)
	res, _ := resultOf(ex).(map[string]any)
	sum := decimal.Zero
	for _, k := range []string{"main", "trading"} {
		arr, _ := res[k].([]any)
		for _, v := range arr {
			if m, ok := v.(map[string]any); ok && m["currency"] == cur {
				sum = sum.Add(trading.DecField(m, "available"))
			}
		}
	}
	return sum
}

// amountIn picks a currency the super account holds (read through v3's
// spot balance, the same account) and a small amount with five significant
// digits below 0.0001, where any rounding shows.
func amountIn(ctx context.Context) (string, decimal.Decimal) {
	GinkgoHelper()
	ex, _ := framework.Current().Signed(target.RoleFull, framework.Basic).Get(ctx, "/spot/balance", nil)
	Expect(ex).To(framework.BeOK(), "reading the super account's balances")
	for _, v := range framework.ArrayOf(ex) {
		m, _ := v.(map[string]any)
		cur, _ := m["currency"].(string)
		if trading.DecField(m, "available").GreaterThan(decimal.NewFromInt(1)) {
			pub, _ := framework.Current().Public().Get(ctx, "/public/currency/"+cur, nil)
			if pub != nil && pub.Status == http.StatusOK {
				unit := trading.DecField(framework.ObjectOf(pub), "precision_transfer")
				if unit.IsPositive() && unit.LessThan(decimal.New(1, -4)) {
					return cur, unit.Mul(decimal.NewFromInt(12345))
				}
			}
		}
	}
	Skip("the super account holds no currency with a transfer precision finer than 0.0001")
	return "", decimal.Zero
}

func transfer(ctx context.Context, c *client.Client, id, cur, typ string, amt decimal.Decimal) *client.Exchange {
	GinkgoHelper()
	return do(ctx, c, http.MethodPost, "/sub-acc/transfer", url.Values{"subAccountId": {id}, "amount": {amt.String()}, "currency": {cur}, "type": {typ}})
}

// unknownUserID is a user id no target gives a sub-account of this account.
const unknownUserID = "987654321"

var settingsSchema = framework.Schema{
	"subAccountId":    {Kind: framework.Number},
	"isPayoutEnabled": {Kind: framework.Bool},
	"description":     {Kind: framework.String},
}

var _ = framework.AreaDescribe("v2 sub-accounts: states", func() {
	BeforeEach(func() { mayChange() })

	framework.ConformanceIt("V2-SUBACC-FREEZE", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		Expect(acl(ctx, id)).To(HaveLen(1), "the active sub-account's settings before the freeze")
		freezeForSpec(ctx, id)
		Expect(acl(ctx, id)).To(BeEmpty(), "the frozen sub-account's settings read as an empty array")
	})

	framework.ConformanceIt("V2-SUBACC-FREEZE-CANCELS", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		sym := fundSub(ctx)
		t := trading.NewTrader(target.RoleSub, trading.Spot)
		p := sym.RestingBuy(cloids.New(), 3)
		// Registered before the freeze, so it runs after the activation:
		// an order the freeze left active must not outlive the spec.
		t.CancelAtEnd(p["client_order_id"])
		t.PlaceOK(ctx, p)
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeTrue(), "the resting buy %s is active before the freeze", p["client_order_id"])
		freezeAndActivate(ctx, id)
		Expect(t.IsActive(ctx, p["client_order_id"])).To(BeFalse(), "the order %s was canceled by the v2 freeze (\"all their orders are canceled\")", p["client_order_id"])
	})

	framework.ConformanceIt("V2-SUBACC-FREEZE-FUNDS", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		sym := fundSub(ctx)
		held := decimal.Zero
		for _, m := range tradingItems(ctx, id) {
			if m["currency"] == sym.Quote {
				held = onTrading(m)
			}
		}
		Expect(held.IsPositive()).To(BeTrue(), "the funded sub-account holds %s on its trading balance before the freeze", sym.Quote)
		freezeForSpec(ctx, id)
		for _, m := range tradingItems(ctx, id) {
			Expect(onTrading(m).IsZero()).To(BeTrue(), "after the v2 freeze no funds stay on the trading balance (\"funds moved off the trading balance\"), yet trading lists %v", m)
		}
	})

	framework.ConformanceIt("V2-SUBACC-ACTIVATE", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		freezeForSpec(ctx, id)
		ex := do(ctx, v2(target.RoleFull), http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})
		Expect(ex).To(framework.BeOK())
		Expect(resultOf(ex)).To(Equal(true), "activate of a frozen sub-account answers result true: %s", ex)
		Expect(acl(ctx, id)).To(HaveLen(1), "the activated sub-account's settings are read again")
	})

	framework.ConformanceIt("V2-SUBACC-ACTIVATE-DISABLED", func(ctx SpecContext) {
		id := disabledUserID()
		ex := do(ctx, v2(target.RoleFull), http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})
		Expect(ex).To(framework.BeOK(), "activating a disabled sub-account is no error")
		Expect(resultOf(ex)).To(Equal(false), "activate of a disabled sub-account answers result false: %s", ex)
		Expect(acl(ctx, id)).To(BeEmpty(), "the sub-account stays disabled: its settings still read as an empty array")
	})

	framework.ConformanceIt("V2-SUBACC-IDS-LIST", func(ctx SpecContext) {
		a, b := userID(target.RoleSub), userID(target.RoleSub2)
		both := a + "," + b
		Expect(acl(ctx, a, b)).To(HaveLen(2), "subAccountIds=%s reads the settings of both active sub-accounts", both)
		c := v2(target.RoleFull)
		DeferCleanup(func(ctx SpecContext) {
			for _, id := range []string{a, b} {
				do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})
			}
		})
		ex := do(ctx, c, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {both}})
		Expect(ex).To(framework.BeOK(), "freezing ids=%s", both)
		for _, id := range []string{a, b} {
			Expect(acl(ctx, id)).To(BeEmpty(), "sub-account %s, listed in ids=%s, is frozen: its settings read as an empty array", id, both)
		}
		Expect(do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {both}})).To(framework.BeOK(), "activating ids=%s", both)
		Expect(acl(ctx, a, b)).To(HaveLen(2), "both sub-accounts, listed in ids=%s, are active again", both)
	})

	framework.ConformanceIt("V2-SUBACC-RIGHT-NONE", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		none := v2(target.RoleNoRights)
		DeferCleanup(func(ctx SpecContext) { do(ctx, none, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}}) })
		Expect(do(ctx, none, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {id}})).To(framework.BeOK(), "freeze with a key without rights")
		Expect(do(ctx, none, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {id}})).To(framework.BeOK(), "activate with a key without rights")
		Expect(do(ctx, none, http.MethodGet, "/sub-acc/deposit-address/"+id+"/"+cryptoCurrency(ctx), nil)).To(framework.BeOK(), "the deposit address with a key without rights")
	})

	framework.ConformanceIt("V2-SUBACC-ERR-10021", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		freezeForSpec(ctx, id)
		c := v2(target.RoleFull)
		Expect(do(ctx, c, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {id}})).To(framework.BeAPIError(http.StatusBadRequest, 10021), "freezing the frozen sub-account")
		Expect(do(ctx, c, http.MethodPut, "/sub-acc/acl/"+id, url.Values{"isPayoutEnabled": {"true"}, "description": {""}})).To(framework.BeAPIError(http.StatusBadRequest, 10021), "changing the frozen sub-account's settings")
	})

	framework.ConformanceIt("V2-SUBACC-ERR-MESSAGES", func(ctx SpecContext) {
		c := v2(target.RoleFull)
		message := func(ex *client.Exchange, status, code int, want, why string) {
			GinkgoHelper()
			Expect(ex).To(framework.BeAPIError(status, code), why)
			e, _ := ex.APIError()
			Expect(e.Message).To(Equal(want), "%s: the v2 Errors table gives code %d the message %q\nexchange: %s", why, code, want, ex)
		}
		message(do(ctx, c, http.MethodPost, "/sub-acc/activate", url.Values{"ids": {unknownUserID}}), http.StatusInternalServerError, 500,
			"Internal Server Error", "activating a sub-account that cannot be found")
		id := userID(target.RoleSub)
		freezeForSpec(ctx, id)
		message(do(ctx, c, http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {id}}), http.StatusBadRequest, 10021,
			"user disabled", "freezing the frozen sub-account")
	})

	framework.ConformanceContext("V2-SUBACC-ERR-500", func() {
		DescribeTable("an unknown sub-account yields HTTP 500 with code 500", func(ctx SpecContext, method, path string, p url.Values) {
			Expect(do(ctx, v2(target.RoleFull), method, path, p)).To(framework.BeAPIError(http.StatusInternalServerError, 500), "%s %s of an unknown sub-account", method, path)
		},
			Entry("freeze", http.MethodPost, "/sub-acc/freeze", url.Values{"ids": {unknownUserID}}),
			Entry("activate", http.MethodPost, "/sub-acc/activate", url.Values{"ids": {unknownUserID}}),
			Entry("transfer", http.MethodPost, "/sub-acc/transfer", url.Values{"subAccountId": {unknownUserID}, "amount": {"0.0001"}, "currency": {"BTC"}, "type": {"deposit"}}),
			Entry("balance", http.MethodGet, "/sub-acc/balance/"+unknownUserID, url.Values(nil)),
		)
	})

	framework.ConformanceIt("V2-SUBACC-V3-STATE", func(ctx SpecContext) {
		id := userID(target.RoleSub)
		hex := framework.Current().Account(target.RoleSub).SubAccountID
		if hex == "" {
			Skip("the sub role's v3 sub_account_id is not configured")
		}
		v3 := framework.Current().Signed(target.RoleFull, framework.Basic)
		cur, amt := amountIn(ctx)
		v3transfer := func() *client.Exchange {
			ex, _ := v3.Do(ctx, client.Request{Method: http.MethodPost, Path: "/sub-account/transfer",
				Form: url.Values{"sub_account_id": {hex}, "amount": {amt.String()}, "currency": {cur}, "type": {"to_sub_account"}}})
			return ex
		}
		freezeForSpec(ctx, id)
		ex := v3transfer()
		trading.ExpectRefusal(ex, "a v3 transfer to the sub-account frozen through v2")
		e, _ := ex.APIError()
		Expect(e.Code).To(Equal(21004), "v3 sees the v2 freeze: 21004\nexchange: %s", ex)
		ex, _ = v3.Do(ctx, client.Request{Method: http.MethodPost, Path: "/sub-account/activate", Form: url.Values{"sub_account_ids": {hex}}})
		Expect(ex).To(framework.BeOK(), "activating through v3")
		Expect(acl(ctx, id)).To(HaveLen(1), "v2 sees the v3 activation: the settings are read again")
	})

	framework.ConformanceIt("V2-SUBACC-ID", func(ctx SpecContext) {
		hex := framework.Current().Account(target.RoleSub).SubAccountID
		if hex == "" {
			Skip("the sub role's v3 sub_account_id is not configured")
		}
		ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/acl", url.Values{"subAccountIds": {hex}})
		framework.Observe("V2-SUBACC-ID", "GET /api/2/sub-acc/acl with the v3 hex sub_account_id: %s %s", trading.Outcome(ex), string(ex.Body))
	})
})

var _ = framework.AreaDescribe("v2 sub-accounts: transfers, settings, balances, addresses", func() {
	framework.ConformanceIt("V2-SUBACC-TRANSFER-DEPOSIT", func(ctx SpecContext) {
		mayChange()
		id := userID(target.RoleSub)
		cur, amt := amountIn(ctx)
		before := total(ctx, id, cur)
		ex := transfer(ctx, v2(target.RoleFull), id, cur, "deposit", amt)
		Expect(ex).To(framework.BeOK(), "a deposit to the sub-account")
		Expect(resultOf(ex)).To(BeAssignableToTypeOf(""), "result is a String: %s", ex)
		Expect(total(ctx, id, cur)).To(trading.DecEqual(before.Add(amt)), "the sub-account's %s is more by exactly %s", cur, amt)
	})

	framework.ConformanceIt("V2-SUBACC-TRANSFER-WITHDRAW", func(ctx SpecContext) {
		mayChange()
		id := userID(target.RoleSub)
		cur, amt := amountIn(ctx)
		c := v2(target.RoleFull)
		Expect(transfer(ctx, c, id, cur, "deposit", amt.Add(amt))).To(framework.BeOK(), "funding the sub-account")
		before := total(ctx, id, cur)
		Expect(transfer(ctx, c, id, cur, "withdraw", amt)).To(framework.BeOK(), "a withdraw from the sub-account")
		Expect(total(ctx, id, cur)).To(trading.DecEqual(before.Sub(amt)), "the sub-account's %s is less by exactly %s", cur, amt)
	})

	framework.ConformanceIt("V2-SUBACC-TRANSFER-FUNDS", func(ctx SpecContext) {
		mayChange()
		id := userID(target.RoleSub)
		cur, _ := amountIn(ctx)
		before := total(ctx, id, cur)
		over := before.Add(decimal.NewFromInt(1))
		Expect(transfer(ctx, v2(target.RoleFull), id, cur, "withdraw", over)).To(framework.BeAPIError(http.StatusBadRequest, 20001), "withdrawing more than the sub-account holds")
		Expect(total(ctx, id, cur)).To(trading.DecEqual(before), "nothing moved")
	})

	framework.ConformanceIt("V2-SUBACC-TRANSFER-FROZEN", func(ctx SpecContext) {
		mayChange()
		id := userID(target.RoleSub2)
		cur, amt := amountIn(ctx)
		freezeForSpec(ctx, id)
		Expect(transfer(ctx, v2(target.RoleFull), id, cur, "deposit", amt)).To(framework.BeAPIError(http.StatusInternalServerError, 500), "a deposit to a frozen sub-account")
	})

	framework.ConformanceContext("V2-SUBACC-RIGHTS", func() {
		DescribeTable("a key lacking the right is refused with 1003", func(ctx SpecContext, role, name string) {
			id := userID(target.RoleSub)
			c := v2(role)
			var ex *client.Exchange
			switch name {
			case "POST /sub-acc/transfer":
				mayChange()
				ex = transfer(ctx, c, id, "BTC", "deposit", decimal.New(1, -4))
			case "GET /sub-acc/acl":
				ex = do(ctx, c, http.MethodGet, "/sub-acc/acl", url.Values{"subAccountIds": {id}})
			default:
				ex = do(ctx, c, http.MethodGet, "/sub-acc/balance/"+id, nil)
			}
			Expect(ex).To(framework.BeAPIError(http.StatusForbidden, 1003), "%s with the %s key", name, role)
		},
			Entry(nil, target.RoleReadOnly, "POST /sub-acc/transfer"), Entry(nil, target.RoleTradeOnly, "POST /sub-acc/transfer"),
			Entry(nil, target.RoleNoRights, "GET /sub-acc/acl"), Entry(nil, target.RoleTradeOnly, "GET /sub-acc/acl"),
			Entry(nil, target.RoleNoRights, "GET /sub-acc/balance"), Entry(nil, target.RoleReadOnly, "GET /sub-acc/balance"),
		)
	})

	framework.ConformanceIt("V2-SUBACC-ACL-GET", func(ctx SpecContext) {
		recs := acl(ctx, userID(target.RoleSub))
		Expect(recs).To(HaveLen(1))
		Expect(recs[0]).To(framework.MatchSchema(settingsSchema))
	})

	framework.ConformanceIt("V2-SUBACC-ACL-FROZEN", func(ctx SpecContext) {
		mayChange()
		a, b := userID(target.RoleSub), userID(target.RoleSub2)
		freezeForSpec(ctx, b)
		recs := acl(ctx, a, b)
		Expect(recs).To(HaveLen(1), "only the active one of an active and a frozen sub-account: %v", recs)
		Expect(fmt.Sprint(recs[0].(map[string]any)["subAccountId"])).To(Equal(a))
	})

	framework.ConformanceIt("V2-SUBACC-ACL-PUT", func(ctx SpecContext) {
		mayChange()
		id := userID(target.RoleSub)
		c := v2(target.RoleFull)
		old := acl(ctx, id)[0].(map[string]any)
		DeferCleanup(func(ctx SpecContext) {
			do(ctx, c, http.MethodPut, "/sub-acc/acl/"+id, url.Values{"isPayoutEnabled": {fmt.Sprint(old["isPayoutEnabled"])}, "description": {fmt.Sprint(old["description"])}})
		})
		wd, _ := old["isPayoutEnabled"].(bool)
		desc := "conform v2 " + id
		ex := do(ctx, c, http.MethodPut, "/sub-acc/acl/"+id, url.Values{"isPayoutEnabled": {fmt.Sprint(!wd)}, "description": {desc}})
		Expect(ex).To(framework.BeOK(), "changing the settings")
		arr, _ := resultOf(ex).([]any)
		Expect(arr).To(HaveLen(1), "result is an array of settings: %s", ex)
		Expect(arr[0]).To(And(framework.MatchSchema(settingsSchema), HaveKeyWithValue("isPayoutEnabled", !wd), HaveKeyWithValue("description", desc)),
			"the settings echo the request values")
	})

	framework.ConformanceContext("V2-SUBACC-BALANCE", func() {
		DescribeTable("the balance has main and trading arrays in any state", func(ctx SpecContext, frozen bool) {
			id := userID(target.RoleSub2)
			if frozen {
				mayChange()
				freezeForSpec(ctx, id)
			}
			ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/balance/"+id, nil)
			Expect(ex).To(framework.BeOK(), "the balance (frozen: %v)", frozen)
			res := resultOf(ex)
			Expect(res).To(framework.MatchSchema(framework.Schema{"main": {Kind: framework.Array}, "trading": {Kind: framework.Array}}))
			for _, k := range []string{"main", "trading"} {
				arr, _ := res.(map[string]any)[k].([]any)
				for _, v := range arr {
					Expect(v).To(framework.MatchSchema(framework.Schema{"currency": {Kind: framework.String}, "available": {Kind: framework.Decimal}, "reserved": {Kind: framework.Decimal}}), "a %s item", k)
				}
			}
		}, Entry("active", false), Entry("frozen", true))
	})

	framework.ConformanceIt("V2-SUBACC-ADDRESS", func(ctx SpecContext) {
		ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/deposit-address/"+userID(target.RoleSub)+"/"+cryptoCurrency(ctx), nil)
		Expect(ex).To(framework.BeOK())
		Expect(resultOf(ex)).To(framework.MatchSchema(framework.Schema{
			"address": {Kind: framework.String}, "paymentId": {Kind: framework.String, Optional: true},
			"publicKey": {Kind: framework.String, Optional: true}, "networkCode": {Kind: framework.String, Optional: true},
		}))
	})

	framework.ConformanceIt("V2-SUBACC-ADDRESS-NETWORK", func(ctx SpecContext) {
		// A non-default network: a server ignoring networkCode would answer
		// the default one, which the networkCode field then gives away.
		nets := framework.Current().NonDefaultNetworks(ctx, framework.PayinOn)
		if len(nets) == 0 {
			Skip("the target lists no crypto currency taking deposits on a non-default network")
		}
		cur, net := nets[0].Currency, nets[0].Code
		ex := do(ctx, v2(target.RoleFull), http.MethodGet, "/sub-acc/deposit-address/"+userID(target.RoleSub)+"/"+cur, url.Values{"networkCode": {net}})
		Expect(ex).To(framework.BeOK(), "the sub-account's %s deposit address on network %s", cur, net)
		a, _ := resultOf(ex).(map[string]any)
		Expect(a).To(HaveKeyWithValue("address", And(BeAssignableToTypeOf(""), Not(BeEmpty()))), "result is a deposit address: %s", ex)
		if n, ok := a["networkCode"]; ok {
			Expect(n).To(Equal(net), "networkCode of the address answered for networkCode=%s", net)
		}
	})
})

// cryptoCurrency answers the first crypto currency with deposits enabled
// (read through v3's currency list, the same catalogue).
func cryptoCurrency(ctx context.Context) string {
	GinkgoHelper()
	ex, _ := framework.Current().Public().Get(ctx, "/public/currency", nil)
	Expect(ex).To(framework.BeOK(), "reading the currencies")
	best := ""
	for code, v := range framework.ObjectOf(ex) {
		if m, ok := v.(map[string]any); ok && m["crypto"] == true && m["payin_enabled"] == true && (best == "" || code < best) {
			best = code
		}
	}
	if best == "" {
		Skip("the target lists no crypto currency with deposits enabled")
	}
	return best
}
