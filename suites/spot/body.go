package spot

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// POST /spot/order is the first POST endpoint, so the body conventions and
// the HS256 body signature are checked here.
var _ = framework.AreaDescribe("POST bodies", func() {
	// expectEchoed checks that the order holds what was sent, so that a body
	// the server did not read (and filled with defaults) cannot pass.
	expectEchoed := func(o order, p params) {
		GinkgoHelper()
		for _, k := range []string{"client_order_id", "symbol", "side", "type"} {
			Expect(o[k]).To(Equal(p[k]), "field %s of the created order", k)
		}
		for _, k := range []string{"quantity", "price"} {
			want, _ := decimal.NewFromString(p[k])
			Expect(o[k]).To(trading.DecEqual(want), "field %s of the created order", k)
		}
	}

	framework.ConformanceIt("V3-CONV-BODY-FORM", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		p := restingBuy(s, 3)
		o := t.PlaceOK(ctx, p, trading.FormBody)
		expectEchoed(o, p)
	})

	framework.ConformanceIt("V3-CONV-BODY-JSON", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		// post_only travels as a JSON boolean: the order must carry it.
		p := restingBuy(s, 3).With("post_only", "true")
		o := t.PlaceOK(ctx, p, trading.JSONBody)
		expectEchoed(o, p)
		Expect(o["post_only"]).To(Equal(true), "post_only sent as JSON true")
	})

	framework.ConformanceIt("V3-AUTH-HS256-BODY", func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		t := newTrader(target.RoleFull)
		a := e.Account(target.RoleFull)
		s := restingSymbol(ctx, t)
		u, err := url.Parse(e.Config.REST)
		Expect(err).NotTo(HaveOccurred(), "the target base URL %q", e.Config.REST)
		path := strings.TrimRight(u.EscapedPath(), "/") + "/api/3/spot/order"
		// send posts body with an HS256 header signed over signed.
		send := func(signed, body []byte) *client.Exchange {
			ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
			h := client.HS256Header(a.APIKey, client.Sign(a.Secret, client.Message(http.MethodPost, path, "", signed, ts, "")), ts, "")
			ex, _ := e.Public().Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order", Body: body,
				ContentType: "application/x-www-form-urlencoded", Header: http.Header{"Authorization": {h}}})
			return ex
		}

		// The same signing over the body as sent is accepted, so the refusal
		// below is about the body alone.
		ok := restingBuy(s, 3)
		t.CancelAtEnd(ok["client_order_id"])
		body := []byte(ok.Form().Encode())
		Expect(send(body, body)).To(framework.BeOK(), "HS256 over the body as sent")

		signed := restingBuy(s, 3)
		changed := signed.With("quantity", s.Qty(20).String())
		t.CancelAtEnd(signed["client_order_id"])
		ex := send([]byte(signed.Form().Encode()), []byte(changed.Form().Encode()))
		Expect(ex).To(framework.BeAPIError(http.StatusUnauthorized, 1001, 1002), "the body was changed after signing")
		Expect(t.IsActive(ctx, signed["client_order_id"])).To(BeFalse(), "a request with a forged body creates no order")
	})

	// "Passing parameters any other way is unsupported": what the target
	// does with a POST whose parameters are all in the query string.
	framework.ConformanceIt("V3-CONV-PARAMS-ELSEWHERE", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		p := restingBuy(s, 3)
		t.CancelAtEnd(p["client_order_id"])
		ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order", Query: p.Form()})
		framework.Observe("V3-CONV-PARAMS-ELSEWHERE", "POST /spot/order with its parameters in the query string and no body was answered %s; an order was created: %v",
			trading.Outcome(ex), t.IsActive(ctx, p["client_order_id"]))
	})

	// The Conventions place GET parameters in the query string and POST
	// ones in the body; PATCH and DELETE are not named. Each is tried the
	// other way from the one the suites use (PATCH with a body, DELETE with
	// a query string).
	framework.ConformanceIt("V3-CONV-OTHER-METHODS", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		s := restingSymbol(ctx, t)
		old := restingBuy(s, 3)
		t.PlaceOK(ctx, old)
		newID := cloids.New()
		t.CancelAtEnd(newID)
		q := params{"new_client_order_id": newID, "quantity": s.Qty(20).String(), "price": s.Low(4).String()}
		patch, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPatch, Path: "/spot/order/" + old["client_order_id"], Query: q.Form()})
		replaced := t.IsActive(ctx, newID)

		t.PlaceOK(ctx, restingBuy(s, 3))
		del, _ := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/spot/order", Form: url.Values{"symbol": {s.Code}}})
		framework.Observe("V3-CONV-OTHER-METHODS", "PATCH /spot/order/{id} with its parameters in the query string: %s (replaced: %v); DELETE /spot/order with symbol in a form body: %s",
			trading.Outcome(patch), replaced, trading.Outcome(del))
	})
})
