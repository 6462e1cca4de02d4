package v2account

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// bal is one currency of a v2 Balance list.
type bal struct{ avail, reserved decimal.Decimal }

func (b bal) String() string { return fmt.Sprintf("available %s, reserved %s", b.avail, b.reserved) }

// mainBalance reads one currency of GET /account/balance (zero when not
// listed).
func mainBalance(ctx context.Context, c *client.Client, cur string) bal {
	GinkgoHelper()
	objs, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
	for _, o := range objs {
		if o["currency"] == cur {
			return bal{trading.DecField(o, "available"), trading.DecField(o, "reserved")}
		}
	}
	return bal{}
}

// send sends a form-encoded request and returns the exchange.
func send(ctx context.Context, c *client.Client, method, path string, form url.Values) *client.Exchange {
	GinkgoHelper()
	req := client.Request{Method: method, Path: path}
	if method == http.MethodGet {
		req.Query = form
	} else if form != nil {
		req.Form = form
	}
	ex, _ := c.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "%s %s: no exchange", method, path)
	return ex
}

// okObject expects HTTP 200 with an object.
func okObject(ex *client.Exchange, why string) map[string]any {
	GinkgoHelper()
	Expect(ex).To(framework.BeOK(), why)
	return framework.ObjectOf(ex)
}

// payout is a currency the account may withdraw, with an amount that is
// small beside its balance, and an address to send it to.
type payout struct {
	cur, amount, address string
	fee                  decimal.Decimal
}

// choosePayout finds a crypto currency with withdrawals enabled and a main
// balance of at least 30 times (amount plus fee), where amount is ten fees
// (or ten payout units when the fee is zero), and an address: the
// counterparty account's deposit address when its key may read it, else
// this account's own. It skips the spec when there is none.
func choosePayout(ctx context.Context, c *client.Client) payout {
	GinkgoHelper()
	e := framework.Current()
	curs, _ := framework.GetObjects(ctx, e.V2Public(), "/public/currency", nil)
	bals, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
	avail := map[string]decimal.Decimal{}
	for _, b := range bals {
		avail[fmt.Sprint(b["currency"])] = trading.DecField(b, "available")
	}
	var why []string
	for _, cu := range curs {
		id := fmt.Sprint(cu["id"])
		if cu["crypto"] != true || cu["payoutEnabled"] != true || cu["payinEnabled"] != true {
			continue
		}
		fee := trading.DecField(cu, "payoutFee")
		prec, _ := decimal.NewFromString(fmt.Sprint(cu["precisionPayout"]))
		unit := decimal.New(1, -int32(prec.IntPart()))
		amount := fee.Mul(decimal.NewFromInt(10))
		if !amount.IsPositive() {
			amount = unit.Mul(decimal.NewFromInt(10))
		}
		amount = decimal.Max(amount, trading.DecField(cu, "payoutMinimalAmount").Mul(decimal.NewFromInt(2)))
		if avail[id].LessThan(amount.Add(fee).Mul(decimal.NewFromInt(30))) {
			why = append(why, id+": main balance "+avail[id].String()+" is short")
			continue
		}
		return payout{cur: id, amount: amount.String(), fee: fee, address: depositAddress(ctx, id)}
	}
	Skip(fmt.Sprintf("no crypto currency with withdrawals enabled and a main balance to spare: %v", why))
	return payout{}
}

// choosePayoutOn is a withdrawal over a non-default network of a currency
// (v3 /public/currency lists the networks) with payouts and deposits on and
// a main balance to spare: the payout, to an address of that network, and
// the network. A non-default network is what makes networkCode observable.
// It skips the spec without one.
func choosePayoutOn(ctx context.Context, c *client.Client) (payout, string) {
	GinkgoHelper()
	e := framework.Current()
	bals, _ := framework.GetObjects(ctx, c, "/account/balance", nil)
	avail := map[string]decimal.Decimal{}
	for _, b := range bals {
		avail[fmt.Sprint(b["currency"])] = trading.DecField(b, "available")
	}
	nets := e.NonDefaultNetworks(ctx, func(cur, net map[string]any) bool {
		return framework.PayinOn(cur, net) && cur["payout_enabled"] == true && net["payout_enabled"] == true
	})
	var why []string
	for _, n := range nets {
		// precision_payout is the network's minimum withdrawal amount.
		fee, _ := decimal.NewFromString(fmt.Sprint(n.Net["payout_fee"]))
		least, _ := decimal.NewFromString(fmt.Sprint(n.Net["precision_payout"]))
		amount := decimal.Max(fee.Mul(decimal.NewFromInt(10)), least.Mul(decimal.NewFromInt(10)))
		if !amount.IsPositive() || avail[n.Currency].LessThan(amount.Add(fee).Mul(decimal.NewFromInt(2))) {
			why = append(why, n.Currency+" on "+n.Code+": main balance "+avail[n.Currency].String()+" is short")
			continue
		}
		return payout{cur: n.Currency, amount: amount.String(), fee: fee, address: depositAddressOn(ctx, n.Currency, n.Code)}, n.Code
	}
	Skip(fmt.Sprintf("no crypto currency takes withdrawals on a non-default network with a main balance to spare: %v", why))
	return payout{}, ""
}

// depositAddress is where the spec's withdrawals go: the counterparty's
// current deposit address when its key has Payment information, else the
// account's own.
func depositAddress(ctx context.Context, cur string) string {
	GinkgoHelper()
	return depositAddressOn(ctx, cur, "")
}

// depositAddressOn is depositAddress on network net ("" for the default).
func depositAddressOn(ctx context.Context, cur, net string) string {
	GinkgoHelper()
	e := framework.Current()
	role := target.RoleFull
	if a, ok := e.Config.Accounts[target.RoleCounterparty]; ok {
		for _, r := range a.Rights {
			if r == "payment" {
				role = target.RoleCounterparty
			}
		}
	}
	var q url.Values
	if net != "" {
		q = url.Values{"networkCode": {net}}
	}
	o := okObject(send(ctx, e.V2Signed(role), http.MethodGet, "/account/crypto/address/"+cur, q), "the deposit address withdrawals go to")
	addr, _ := o["address"].(string)
	Expect(addr).NotTo(BeEmpty(), "deposit address of %s", cur)
	return addr
}

// withdraw sends POST /account/crypto/withdraw and returns the id; extra
// adds or overrides parameters.
func withdraw(ctx context.Context, c *client.Client, p payout, extra url.Values) string {
	GinkgoHelper()
	form := url.Values{"currency": {p.cur}, "amount": {p.amount}, "address": {p.address}}
	for k, v := range extra {
		form[k] = v
	}
	o := okObject(send(ctx, c, http.MethodPost, "/account/crypto/withdraw", form), "POST /account/crypto/withdraw "+form.Encode())
	id, ok := o["id"].(string)
	Expect(ok).To(BeTrue(), "the withdrawal answers id String: %v", o)
	return id
}

// rollbackAtEnd rolls back a withdrawal created with autoCommit false when
// the spec ends, whatever happened.
func rollbackAtEnd(c *client.Client, id string) {
	DeferCleanup(func(ctx SpecContext) {
		_, _ = c.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/account/crypto/withdraw/" + id})
	})
}

// estimate reads GET /account/crypto/estimate-withdraw's fee.
func estimate(ctx context.Context, c *client.Client, p payout) decimal.Decimal {
	GinkgoHelper()
	o := okObject(send(ctx, c, http.MethodGet, "/account/crypto/estimate-withdraw", url.Values{"currency": {p.cur}, "amount": {p.amount}}), "estimate-withdraw")
	return trading.DecField(o, "fee")
}

// addressCurrency is a crypto currency taking deposits.
func addressCurrency(ctx context.Context) string {
	GinkgoHelper()
	curs, _ := framework.GetObjects(ctx, framework.Current().V2Public(), "/public/currency", nil)
	for _, cu := range curs {
		if cu["crypto"] == true && cu["payinEnabled"] == true && cu["delisted"] != true {
			return fmt.Sprint(cu["id"])
		}
	}
	Skip("no crypto currency takes deposits")
	return ""
}
