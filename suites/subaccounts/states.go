package subaccounts

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// unknownID is a well-formed hex identifier no target gives a sub-account.
const unknownID = "c0f0c0f0c0f0c0f0c0f0c0f0c0f0c0f0"

var _ = framework.AreaDescribe("Sub-account resource and states", func() {
	framework.ConformanceIt("V3-SUBACC-FIELDS", func(ctx SpecContext) {
		subs := newSuper().list(ctx)
		if len(subs) == 0 {
			Skip("the target lists no sub-account for this account")
		}
		for _, m := range subs {
			Expect(m).To(framework.MatchSchema(framework.Schema{
				"sub_account_id": {Kind: framework.String},
				"email":          {Kind: framework.String},
				"status":         {Kind: framework.String},
			}))
			Expect(m["sub_account_id"]).To(MatchRegexp(`^[0-9a-fA-F]+$`), "sub_account_id is a hex identifier")
			Expect(m["status"]).To(BeElementOf("new", "active", "disable"), "status of %v", m["sub_account_id"])
		}
	})

	framework.ConformanceIt("V3-SUBACC-RIGHT-NONE", func(ctx SpecContext) {
		mayChange()
		s := newSuper()
		disabled := s.withStatus(ctx, "disable")
		none := framework.Current().Signed(target.RoleNoRights, framework.Basic)
		Expect(do(ctx, none, http.MethodGet, "/sub-account", nil)).To(framework.BeOK(), "GET /sub-account with a key without rights")
		// Freezing a disabled sub-account changes nothing (21003); the key
		// was admitted if the answer is not 1003.
		ex := do(ctx, none, http.MethodPost, "/sub-account/freeze", map[string][]string{"sub_account_ids": {disabled}})
		expectCode(ex, 21003, "freeze of a disabled sub-account with a key without rights")
		ex = do(ctx, none, http.MethodPost, "/sub-account/activate", map[string][]string{"sub_account_ids": {disabled}})
		Expect(ex).To(framework.BeOK(), "activate with a key without rights")
	})

	framework.ConformanceIt("V3-SUBACC-FREEZE", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, id, amt, cur, "to_sub_account")
		s.freezeForSpec(ctx, id)
		expectCode(s.transfer(ctx, id, amt.String(), cur, "to_sub_account"), 21004, "a transfer to the sub-account just frozen")
	})

	framework.ConformanceIt("V3-SUBACC-FREEZE-LIST", func(ctx SpecContext) {
		mayChange()
		s, a, b := newSuper(), subID(target.RoleSub), subID(target.RoleSub2)
		cur, amt := s.amountIn(ctx)
		s.freezeForSpec(ctx, a, b)
		for _, id := range []string{a, b} {
			expectCode(s.transfer(ctx, id, amt.String(), cur, "to_sub_account"), 21004, "a transfer to "+id+", frozen by the list")
		}
	})

	framework.ConformanceIt("V3-SUBACC-ACTIVATE", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		s.freezeForSpec(ctx, id)
		ex := s.activate(ctx, id)
		Expect(ex).To(framework.BeOK(), "activating the frozen sub-account")
		Expect(resultOf(ex)).To(Equal(true), "activate of a frozen sub-account answers result true: %s", ex)
		Expect(do(ctx, subClient(target.RoleSub), http.MethodGet, "/spot/balance", nil)).To(framework.BeOK(), "the activated sub-account's key works again")
		cur, amt := s.amountIn(ctx)
		s.transferOK(ctx, id, amt, cur, "to_sub_account")
	})

	framework.ConformanceIt("V3-SUBACC-ACTIVATE-DISABLED", func(ctx SpecContext) {
		mayChange()
		s := newSuper()
		id := s.withStatus(ctx, "disable")
		ex := s.activate(ctx, id)
		Expect(ex).To(framework.BeOK(), "activating a disabled sub-account is no error")
		Expect(resultOf(ex)).To(Equal(false), "activate of a disabled sub-account answers result false: %s", ex)
		Expect(s.statusOf(ctx, id)).To(Equal("disable"), "the sub-account stays disabled")
	})

	framework.ConformanceIt("V3-SUBACC-ERR-21001", func(ctx SpecContext) {
		mayChange()
		expectCode(newSuper().activate(ctx, unknownID), 21001, "activate of an unknown sub-account")
	})

	framework.ConformanceIt("V3-SUBACC-ERR-21003", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		s.freezeForSpec(ctx, id)
		expectCode(s.freeze(ctx, id), 21003, "freeze of a frozen sub-account")
	})

	framework.ConformanceIt("V3-SUBACC-ERR-21003-DISABLED", func(ctx SpecContext) {
		mayChange()
		s := newSuper()
		expectCode(s.freeze(ctx, s.withStatus(ctx, "disable")), 21003, "freeze of a disabled sub-account")
	})

	framework.ConformanceIt("V3-SUBACC-ERR-MESSAGES", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		expectMessage(s.activate(ctx, unknownID), 21001, "Subaccount not found", "activate of an unknown sub-account")
		s.freezeForSpec(ctx, id)
		expectMessage(s.freeze(ctx, id), 21003, "Sub account is already frozen or disabled", "freeze of a frozen sub-account")
		expectMessage(s.transfer(ctx, id, amt.String(), cur, "to_sub_account"), 21004, "Sub account is already frozen or disabled", "a transfer to a frozen sub-account")
	})

	framework.ConformanceIt("V3-SUBACC-FROZEN-STATUS", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		s.freezeForSpec(ctx, id)
		framework.Observe("V3-SUBACC-FROZEN-STATUS", "a frozen sub-account is listed with status %v", s.statusOf(ctx, id))
	})

	framework.ConformanceIt("V3-SUBACC-ID-TYPE", func(ctx SpecContext) {
		mayChange()
		s, id := newSuper(), subID(target.RoleSub)
		cur, amt := s.amountIn(ctx)
		form := s.transfer(ctx, id, amt.String(), cur, "to_sub_account")
		asString, _ := s.c.Do(ctx, jsonTransfer(id, amt, cur))
		note := "the resource's hex id is not decimal digits, so it cannot be sent as a Number"
		var number json.Number
		if _, err := decimal.NewFromString(id); err == nil {
			number = json.Number(id)
			ex, _ := s.c.Do(ctx, jsonTransfer(number, amt, cur))
			note = "as a JSON Number: " + trading.Outcome(ex)
		}
		if uid := framework.Current().Account(target.RoleSub).SubAccountUserID; uid != 0 {
			ex, _ := s.c.Do(ctx, jsonTransfer(json.Number(fmt.Sprint(uid)), amt, cur))
			note += "; the numeric user id (v2's subAccountId) as a JSON Number: " + trading.Outcome(ex)
		}
		framework.Observe("V3-SUBACC-ID-TYPE", "the hex String form-encoded: %s; as a JSON String: %s; %s",
			trading.Outcome(form), trading.Outcome(asString), note)
	})
})
