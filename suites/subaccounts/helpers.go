// Package subaccounts holds the specs of the v3 Sub-accounts family: the
// Sub-account resource, its states and transitions (freeze, activate), the
// transfers, ACLs, balances and deposit addresses, and the errors 21001,
// 21003, 21004 and 20001 where the document puts them.
//
// Every Ginkgo process works on its own super account (role full) and its
// own sub-accounts (roles sub and sub2, plus those GET /sub-account lists in
// states new and disable). Specs that freeze a sub-account activate it when
// they end. Nothing freezes or moves funds on a target that may not trade.
package subaccounts

import (
	"context"
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

// super is the super account (the full key) and what it does to its
// sub-accounts.
type super struct {
	c *client.Client
}

func newSuper() *super {
	GinkgoHelper()
	return &super{c: framework.Current().Signed(target.RoleFull, framework.Basic)}
}

// do sends a request with a form body (POST) or query (GET).
func do(ctx context.Context, c *client.Client, method, path string, p url.Values) *client.Exchange {
	GinkgoHelper()
	req := client.Request{Method: method, Path: path}
	if method == http.MethodGet {
		req.Query = p
	} else {
		req.Form = p
	}
	ex, _ := c.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "%s %s: no exchange", method, path)
	return ex
}

// list reads GET /sub-account.
func (s *super) list(ctx context.Context) []map[string]any {
	GinkgoHelper()
	ex := do(ctx, s.c, http.MethodGet, "/sub-account", nil)
	Expect(ex).To(framework.BeOK(), "listing the sub-accounts")
	var out []map[string]any
	for _, v := range framework.ArrayOf(ex) {
		m, ok := v.(map[string]any)
		Expect(ok).To(BeTrue(), "a sub-account is a JSON object: %s", ex)
		out = append(out, m)
	}
	return out
}

// withStatus answers the id of a listed sub-account in status, skipping the
// spec when the super account has none.
func (s *super) withStatus(ctx context.Context, status string) string {
	GinkgoHelper()
	for _, m := range s.list(ctx) {
		if m["status"] == status {
			id, _ := m["sub_account_id"].(string)
			return id
		}
	}
	Skip(fmt.Sprintf("the target lists no sub-account in status %q for this account", status))
	return ""
}

// statusOf answers the listed status of a sub-account.
func (s *super) statusOf(ctx context.Context, id string) any {
	GinkgoHelper()
	for _, m := range s.list(ctx) {
		if m["sub_account_id"] == id {
			return m["status"]
		}
	}
	return nil
}

// subID answers the sub_account_id of a sub-account role, skipping when
// the target config names none.
func subID(role string) string {
	GinkgoHelper()
	a := framework.Current().Account(role)
	if a.SubAccountID == "" {
		Skip(fmt.Sprintf("the %s key's sub_account_id is not configured (accounts.%s.sub_account_id in the target config)", role, role))
	}
	return a.SubAccountID
}

// mayChange skips a spec that freezes sub-accounts or moves funds unless
// the target may trade (the emulator or a declared sandbox).
func mayChange() {
	GinkgoHelper()
	if ok, why := framework.Current().Config.MayTrade(); !ok {
		Skip("freezes sub-accounts or moves funds: " + why)
	}
}

func (s *super) freeze(ctx context.Context, ids ...string) *client.Exchange {
	GinkgoHelper()
	return do(ctx, s.c, http.MethodPost, "/sub-account/freeze", url.Values{"sub_account_ids": {strings.Join(ids, ",")}})
}

func (s *super) activate(ctx context.Context, ids ...string) *client.Exchange {
	GinkgoHelper()
	return do(ctx, s.c, http.MethodPost, "/sub-account/activate", url.Values{"sub_account_ids": {strings.Join(ids, ",")}})
}

// freezeForSpec freezes the sub-accounts, expecting result true, and
// activates them again when the spec ends.
func (s *super) freezeForSpec(ctx context.Context, ids ...string) {
	GinkgoHelper()
	s.activateAtEnd(ids...)
	ex := s.freeze(ctx, ids...)
	Expect(ex).To(framework.BeOK(), "freezing %v", ids)
	Expect(resultOf(ex)).To(Equal(true), "freeze answers result true: %s", ex)
}

func (s *super) activateAtEnd(ids ...string) {
	DeferCleanup(func(ctx SpecContext) {
		ex := s.activate(ctx, ids...)
		Expect(ex).To(framework.BeOK(), "cleanup: activating %v again", ids)
	})
}

// resultOf answers the result member of an answer.
func resultOf(ex *client.Exchange) any {
	GinkgoHelper()
	o := framework.ObjectOf(ex)
	Expect(o).To(HaveKey("result"), "the answer carries result: %s", ex)
	return o["result"]
}

// transfer sends POST /sub-account/transfer.
func (s *super) transfer(ctx context.Context, id, amount, cur, typ string) *client.Exchange {
	GinkgoHelper()
	return do(ctx, s.c, http.MethodPost, "/sub-account/transfer", url.Values{"sub_account_id": {id}, "amount": {amount}, "currency": {cur}, "type": {typ}})
}

// transferOK sends a transfer the spec expects to succeed.
func (s *super) transferOK(ctx context.Context, id string, amount decimal.Decimal, cur, typ string) {
	GinkgoHelper()
	ex := s.transfer(ctx, id, amount.String(), cur, typ)
	Expect(ex).To(framework.BeOK(), "%s of %s %s with sub-account %s", typ, amount, cur, id)
}

// spot is the super account's available trading balance in cur.
func (s *super) spot(ctx context.Context, cur string) decimal.Decimal {
	GinkgoHelper()
	ex := do(ctx, s.c, http.MethodGet, "/spot/balance/"+cur, nil)
	Expect(ex).To(framework.BeOK(), "reading the super account's %s balance", cur)
	return trading.DecField(framework.ObjectOf(ex), "available")
}

// balances reads GET /sub-account/balance/{id}: the wallet and spot items
// by currency.
func (s *super) balances(ctx context.Context, id string) (wallet, spot map[string]map[string]any) {
	GinkgoHelper()
	ex := do(ctx, s.c, http.MethodGet, "/sub-account/balance/"+id, nil)
	Expect(ex).To(framework.BeOK(), "reading the balance of sub-account %s", id)
	res, ok := resultOf(ex).(map[string]any)
	Expect(ok).To(BeTrue(), "result is the balance object: %s", ex)
	items := func(k string) map[string]map[string]any {
		out := map[string]map[string]any{}
		arr, _ := res[k].([]any)
		for _, v := range arr {
			if m, ok := v.(map[string]any); ok {
				c, _ := m["currency"].(string)
				out[c] = m
			}
		}
		return out
	}
	return items("wallet"), items("spot")
}

// subSpot is a sub-account's available trading balance in cur (zero when
// not listed: only non-zero balances appear).
func (s *super) subSpot(ctx context.Context, id, cur string) decimal.Decimal {
	GinkgoHelper()
	_, spot := s.balances(ctx, id)
	if m, ok := spot[cur]; ok {
		return trading.DecField(m, "available")
	}
	return decimal.Zero
}

// amountIn picks a currency the super account holds and an amount of it
// with five significant digits at the currency's transfer precision (so
// that any rounding shows), far below what is held.
func (s *super) amountIn(ctx context.Context) (string, decimal.Decimal) {
	GinkgoHelper()
	ex := do(ctx, s.c, http.MethodGet, "/spot/balance", nil)
	Expect(ex).To(framework.BeOK(), "reading the super account's balances")
	for _, v := range framework.ArrayOf(ex) {
		m, _ := v.(map[string]any)
		cur, _ := m["currency"].(string)
		avail := trading.DecField(m, "available")
		if cur == "" || !avail.IsPositive() {
			continue
		}
		unit := precision(ctx, cur)
		amt := unit.Mul(decimal.NewFromInt(12345))
		if unit.IsPositive() && unit.LessThan(decimal.New(1, -4)) && amt.Mul(decimal.NewFromInt(100)).LessThan(avail) {
			return cur, amt
		}
	}
	Skip("the super account holds no currency with a transfer precision finer than 0.0001 and enough of it")
	return "", decimal.Zero
}

// precision reads a currency's precision_transfer.
func precision(ctx context.Context, cur string) decimal.Decimal {
	GinkgoHelper()
	ex, _ := framework.Current().Public().Get(ctx, "/public/currency/"+cur, nil)
	if ex == nil || ex.Status != http.StatusOK {
		return decimal.Zero
	}
	return trading.DecField(framework.ObjectOf(ex), "precision_transfer")
}

// subClient is a client with a sub-account role's key.
func subClient(role string) *client.Client {
	GinkgoHelper()
	return framework.Current().Signed(role, framework.Basic)
}

// expectRefusedKey asserts that a request made with a frozen sub-account's
// key was refused: the document gives no code, so any 401 or 403 with the
// error body (the key is unusable) is a refusal.
func expectRefusedKey(ex *client.Exchange, why string) {
	GinkgoHelper()
	trading.ExpectRefusal(ex, why)
	Expect(ex.Status).To(BeElementOf(http.StatusUnauthorized, http.StatusForbidden), "%s: the key is refused (HTTP 401 or 403)\nexchange: %s", why, ex)
}

// expectCode asserts an error answer with code (any 4xx: the document gives
// no HTTP status for 21001, 21003 and 21004).
func expectCode(ex *client.Exchange, code int, why string) {
	GinkgoHelper()
	trading.ExpectRefusal(ex, why)
	e, _ := ex.APIError()
	Expect(e.Code).To(Equal(code), "%s: error.code %d\nexchange: %s", why, code, ex)
}

// expectMessage asserts an error answer with code and the message the
// Errors table gives it.
func expectMessage(ex *client.Exchange, code int, message, why string) {
	GinkgoHelper()
	expectCode(ex, code, why)
	e, _ := ex.APIError()
	Expect(e.Message).To(Equal(message), "%s: the Errors table gives code %d the message %q\nexchange: %s", why, code, message, ex)
}

// jsonTransfer is a to_sub_account transfer with a JSON body, the
// sub_account_id as given (a String or a json.Number).
func jsonTransfer(id any, amount decimal.Decimal, cur string) client.Request {
	return client.Request{Method: http.MethodPost, Path: "/sub-account/transfer",
		JSON: map[string]any{"sub_account_id": id, "amount": amount.String(), "currency": cur, "type": "to_sub_account"}}
}
