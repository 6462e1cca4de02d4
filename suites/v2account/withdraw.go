package v2account

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var noCommit = url.Values{"autoCommit": {"false"}}

var _ = framework.AreaDescribe("v2 account: withdrawals", func() {
	var c *client.Client
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-INCLUDE-FEE", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		fee := estimate(ctx, c, p)
		amount := decimal.RequireFromString(p.amount)
		for _, inc := range []bool{false, true} {
			before := mainBalance(ctx, c, p.cur)
			extra := url.Values{"autoCommit": {"false"}}
			want := amount.Add(fee)
			if inc {
				extra.Set("includeFee", "true")
				want = amount
			}
			id := withdraw(ctx, c, p, extra)
			rollbackAtEnd(c, id)
			after := mainBalance(ctx, c, p.cur)
			Expect(before.avail.Sub(after.avail).Equal(want)).To(BeTrue(),
				"includeFee=%t: %s %s with fee %s (estimate-withdraw) spends %s; available went from %s to %s", inc, p.amount, p.cur, fee, want, before.avail, after.avail)
			Expect(okObject(send(ctx, c, http.MethodDelete, "/account/crypto/withdraw/"+id, nil), "rollback")["result"]).To(Equal(true), "DELETE /account/crypto/withdraw/{id} (rollback) answers {\"result\": true}")
		}
	})

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-COMMIT", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		fee := estimate(ctx, c, p)
		before := mainBalance(ctx, c, p.cur)
		id := withdraw(ctx, c, p, noCommit)
		for i := 1; i <= 2; i++ {
			o := okObject(send(ctx, c, http.MethodPut, "/account/crypto/withdraw/"+id, nil), "commit")
			Expect(o["result"]).To(BeTrue(), "commit number %d of withdrawal %s", i, id)
		}
		after := mainBalance(ctx, c, p.cur)
		spent := decimal.RequireFromString(p.amount).Add(fee)
		Expect(before.avail.Sub(after.avail).Equal(spent)).To(BeTrue(), "a committed withdrawal of %s plus fee %s stays spent: available %s -> %s", p.amount, fee, before.avail, after.avail)
	})

	framework.ConformanceIt("V2-BALANCE-RESERVED", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		fee := estimate(ctx, c, p)
		before := mainBalance(ctx, c, p.cur)
		id := withdraw(ctx, c, p, noCommit)
		rollbackAtEnd(c, id)
		held := mainBalance(ctx, c, p.cur)
		spent := decimal.RequireFromString(p.amount).Add(fee)
		Expect(held.reserved.Sub(before.reserved).Equal(spent)).To(BeTrue(), "an uncommitted withdrawal of %s plus fee %s is reserved: %s, then %s", p.amount, fee, before, held)
		Expect(okObject(send(ctx, c, http.MethodDelete, "/account/crypto/withdraw/"+id, nil), "rollback")["result"]).To(Equal(true), "DELETE /account/crypto/withdraw/{id} (rollback) answers {\"result\": true}")
		after := mainBalance(ctx, c, p.cur)
		Expect(after.reserved.Equal(before.reserved)).To(BeTrue(), "the rollback frees the reservation: %s, then %s", held, after)
	})

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-ROLLBACK", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		before := mainBalance(ctx, c, p.cur)
		id := withdraw(ctx, c, p, noCommit)
		for i := 1; i <= 2; i++ {
			o := okObject(send(ctx, c, http.MethodDelete, "/account/crypto/withdraw/"+id, nil), "rollback")
			Expect(o["result"]).To(BeTrue(), "rollback number %d of withdrawal %s", i, id)
		}
		after := mainBalance(ctx, c, p.cur)
		// Available is exactly as before and nothing of this withdrawal stays
		// reserved. Reserved may be lower: on a sandbox account an earlier
		// withdrawal's reservation can end meanwhile (seen through the
		// remote stand-in), which is not this rollback's doing.
		Expect(after.avail.Equal(before.avail) && after.reserved.LessThanOrEqual(before.reserved)).To(BeTrue(),
			"after the rollback the balance is as before (reserved no higher): %s, then %s", before, after)
	})

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		before := mainBalance(ctx, c, p.cur)
		id := withdraw(ctx, c, p, nil)
		after := mainBalance(ctx, c, p.cur)
		ex, _ := c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/account/crypto/withdraw/" + id})
		framework.Observe("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT", "without autoCommit: available %s -> %s, reserved %s -> %s; DELETE then answered HTTP %d %v",
			before.avail, after.avail, before.reserved, after.reserved, ex.Status, trading.Decoded(ex))
	})

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-NETWORK", func(ctx SpecContext) {
		p, net := choosePayoutOn(ctx, c)
		// Committed, as V2-ACCOUNT-USED-ADDRESSES does: the document lists
		// addresses used for withdrawal, which an uncommitted one may not be.
		withdraw(ctx, c, p, url.Values{"networkCode": {net}})
		used, _ := framework.GetObjects(ctx, c, "/account/crypto/used-addresses/"+p.cur, url.Values{"networkCode": {net}})
		var rec map[string]any
		for _, a := range used {
			if a["address"] == p.address {
				rec = a
			}
		}
		Expect(rec).NotTo(BeNil(), "the address just withdrawn to over network %s (%s) is among the used %s addresses of that network: %v", net, p.address, p.cur, used)
		if n, ok := rec["networkCode"]; ok {
			Expect(n).To(Equal(net), "networkCode of the used-address record")
		}
	})

	// Errors: 20001 for "any account operation": a withdrawal too.
	It("V2-ERR-20001 a withdrawal of more than the available balance is refused with 20001 and HTTP 400", framework.Checks("V2-ERR-20001"), func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		before := mainBalance(ctx, c, p.cur)
		amount := before.avail.Add(decimal.NewFromInt(1000))
		ex := send(ctx, c, http.MethodPost, "/account/crypto/withdraw", url.Values{"currency": {p.cur}, "amount": {amount.String()}, "address": {p.address}, "autoCommit": {"false"}})
		if o, ok := trading.Decoded(ex).(map[string]any); ok && o["id"] != nil {
			rollbackAtEnd(c, fmt.Sprint(o["id"]))
		}
		Expect(ex).To(framework.BeAPIError(http.StatusBadRequest, 20001), "withdrawing %s %s with %s available", amount, p.cur, before.avail)
		after := mainBalance(ctx, c, p.cur)
		Expect(after.avail.Equal(before.avail)).To(BeTrue(), "the refused withdrawal moves nothing: available %s, then %s", before.avail, after.avail)
	})

	framework.ConformanceIt("V2-TX-PAYOUT", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		comment := "conform payout " + strings.Repeat("x", 8)
		id := withdraw(ctx, c, p, url.Values{"autoCommit": {"false"}, "publicComment": {comment}})
		rollbackAtEnd(c, id)
		t := okObject(send(ctx, c, http.MethodGet, "/account/transactions/"+id, nil), "the withdrawal's transaction")
		Expect(t["id"]).To(Equal(id), "transaction id")
		Expect(t["type"]).To(Equal("payout"), "a withdrawal is a payout")
		Expect(t["currency"]).To(Equal(p.cur), "currency")
		Expect(t["address"]).To(Equal(p.address), "address")
		Expect(t["publicComment"]).To(Equal(comment), "publicComment")
	})
})
