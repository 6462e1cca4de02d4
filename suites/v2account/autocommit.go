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

var _ = Describe("v2 account: autoCommit defaults to true", func() {
	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-AUTOCOMMIT-DEFAULT", func(ctx SpecContext) {
		c := framework.Current().V2Signed(target.RoleFull)
		p := choosePayout(ctx, c)
		book := func(extra url.Values) booked {
			before := mainBalance(ctx, c, p.cur)
			id := withdraw(ctx, c, p, extra)
			after := mainBalance(ctx, c, p.cur)
			ex, _ := c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/account/crypto/withdraw/" + id})
			Expect(ex).NotTo(BeNil(), "DELETE /account/crypto/withdraw/%s", id)
			return booked{after.avail.Sub(before.avail).String(), after.reserved.Sub(before.reserved).String(), ex.Status, answerOf(ex)}
		}
		explicit := book(url.Values{"autoCommit": {"true"}})
		absent := book(nil)
		Expect(absent).To(Equal(explicit), "a withdrawal without autoCommit is booked and answered as one with autoCommit true (the default): %+v with true, %+v without", explicit, absent)
	})
})
