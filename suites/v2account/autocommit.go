package v2account

import (
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// booked is what one withdrawal did: the change of available and reserved
// it made, and how DELETE /account/crypto/withdraw/{id} answered it.
type booked struct {
	avail, reserved string
	deleteStatus    int
	deleteAnswer    any
}

// answerOf is the part of an answer two withdrawals share: the result, or
// the error code (an error's message may name the withdrawal).
func answerOf(ex *client.Exchange) any {
	if e, ok := ex.APIError(); ok {
		return e.Code
	}
	if o, ok := trading.Decoded(ex).(map[string]any); ok {
		return o["result"]
	}
	return trading.Decoded(ex)
}

// book sends a withdrawal with extra parameters and says what it did; ok is
// false when the withdrawal was refused (ex is then the refusal).
func book(ctx SpecContext, c *client.Client, p payout, extra url.Values) (b booked, ex *client.Exchange, ok bool) {
	GinkgoHelper()
	form := url.Values{"currency": {p.cur}, "amount": {p.amount}, "address": {p.address}}
	for k, v := range extra {
		form[k] = v
	}
	before := mainBalance(ctx, c, p.cur)
	ex = send(ctx, c, http.MethodPost, "/account/crypto/withdraw", form)
	if ex.Status != http.StatusOK {
		return booked{}, ex, false
	}
	id, isString := framework.ObjectOf(ex)["id"].(string)
	Expect(isString).To(BeTrue(), "the withdrawal answers id String: %s", ex)
	after := mainBalance(ctx, c, p.cur)
	del, _ := c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/account/crypto/withdraw/" + id})
	Expect(del).NotTo(BeNil(), "DELETE /account/crypto/withdraw/%s", id)
	return booked{after.avail.Sub(before.avail).String(), after.reserved.Sub(before.reserved).String(), del.Status, answerOf(del)}, ex, true
}

var _ = framework.AreaDescribe("v2 account: autoCommit", func() {
	var c *client.Client
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT-DEFAULT", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		explicit, ex, ok := book(ctx, c, p, url.Values{"autoCommit": {"true"}})
		Expect(ok).To(BeTrue(), "a withdrawal with autoCommit true: %s", ex)
		absent, ex, ok := book(ctx, c, p, nil)
		Expect(ok).To(BeTrue(), "a withdrawal without autoCommit: %s", ex)
		Expect(absent).To(Equal(explicit), "a withdrawal without autoCommit is booked and answered as one with autoCommit true (the default): %+v with true, %+v without", explicit, absent)
	})

	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-V3-NAMES", func(ctx SpecContext) {
		p := choosePayout(ctx, c)
		explicit, ex, ok := book(ctx, c, p, url.Values{"autoCommit": {"true"}})
		Expect(ok).To(BeTrue(), "a withdrawal with autoCommit true: %s", ex)
		snake, ex, ok := book(ctx, c, p, url.Values{"auto_commit": {"false"}})
		if !ok {
			_, isErr := ex.APIError()
			Expect(isErr && ex.Status >= 400 && ex.Status < 500).To(BeTrue(), "a withdrawal with version 3's auto_commit is refused with the error JSON, or booked\nexchange: %s", ex)
			return
		}
		Expect(snake).To(Equal(explicit), "auto_commit=false (version 3's name) is not read as autoCommit: the withdrawal is booked and answered as one with autoCommit true (the default): %+v with autoCommit true, %+v with auto_commit false", explicit, snake)
	})
})

var _ = framework.AreaDescribe("v2 account: autoCommit is a Boolean", func() {
	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT-BOOLEAN", func(ctx SpecContext) {
		c := framework.Current().V2Signed(target.RoleFull)
		p := choosePayout(ctx, c)
		before := mainBalance(ctx, c, p.cur)
		_, ex, ok := book(ctx, c, p, url.Values{"autoCommit": {"maybe"}})
		Expect(ok).To(BeFalse(), "a withdrawal with autoCommit maybe (not a Boolean) is refused, yet it was made: %s", ex)
		_, isErr := ex.APIError()
		Expect(ex.Status == http.StatusBadRequest && isErr).To(BeTrue(), "autoCommit maybe is refused with HTTP 400 and the error JSON\nexchange: %s", ex)
		after := mainBalance(ctx, c, p.cur)
		Expect(after.avail.Equal(before.avail)).To(BeTrue(), "the refused withdrawal withdrew nothing: available %s, then %s", before.avail, after.avail)
	})
})
