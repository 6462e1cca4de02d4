package orderlists

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// desk is where a list spec parks its orders: a venue and a symbol; on
// margin, the trader holds an isolated margin account on the symbol for the
// spec's duration (a margin order needs one).
type desk struct {
	v trading.Venue
	s trading.Symbol
}

// openDesk chooses the symbol and, on margin, opens the account.
func openDesk(ctx context.Context, t *trader, v trading.Venue) desk {
	GinkgoHelper()
	d := desk{v: v, s: parkableSymbol(ctx, t, v == trading.Margin)}
	if v == trading.Margin {
		openIsolated(ctx, t, d.s)
	}
	return d
}

// openIsolated funds an isolated margin account on s with a twentieth of the
// trader's available quote (the parked orders cost a few ticks each) and
// closes it with margin_balance "0" when the spec ends; the close is
// registered first, so it runs after the spec's orders are canceled.
func openIsolated(ctx context.Context, t *trader, s trading.Symbol) {
	GinkgoHelper()
	path := "/margin/account/isolated/" + s.Code
	DeferCleanup(func(ctx SpecContext) {
		ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: path, Form: url.Values{"margin_balance": {"0"}}})
		if ex != nil && ex.Status == http.StatusOK {
			return
		}
		// Never opened (the spec failed first), or already closed.
		for _, a := range t.marginAccounts(ctx) {
			Expect(a["type"] == "isolated" && a["symbol"] == s.Code).To(BeFalse(), "cleanup: the isolated margin account on %s could not be closed with margin_balance 0 (%s) and is still listed", s, trading.Outcome(ex))
		}
	})
	amount := t.ChoiceBalances(ctx)[s.Quote].Avail.Div(decimal.NewFromInt(20)).Truncate(4) // of a recent read: see MarginCollateral
	if !amount.IsPositive() {
		Skip("the " + t.Role + " account holds no " + s.Quote + " to fund a margin account on " + s.Code)
	}
	ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: path, Form: url.Values{"margin_balance": {amount.String()}}})
	Expect(ex).To(framework.BeOK(), "opening an isolated margin account on %s with margin_balance %s", s, amount)
}

// Parked orders. None of them trades: buys rest at a few ticks, and every
// trigger sits at a few ticks, where no spec trades (a stop sell fires when
// the price falls to its stop, a take-profit buy likewise). They are cheap
// on both venues: a few ticks of quote, or a few steps of base.
//
// parkedSide is the side each type is parked on.
var parkedSide = map[string]string{
	"limit": "buy", "stopLimit": "sell", "stopMarket": "sell", "takeProfitLimit": "buy", "takeProfitMarket": "buy",
}

// parked returns an order of the type that rests or is suspended without
// trading. Its time_in_force is left to the default.
func parked(s trading.Symbol, typ string) params {
	p := params{"client_order_id": cloids.New(), "symbol": s.Code, "side": parkedSide[typ], "type": typ, "quantity": s.Qty(10).String()}
	switch typ {
	case "limit":
		p["price"] = s.Low(3).String()
	case "stopLimit", "takeProfitLimit":
		p["stop_price"], p["price"] = s.Low(5).String(), s.Low(4).String()
	case "stopMarket", "takeProfitMarket":
		p["stop_price"] = s.Low(5).String()
	}
	return p
}

// companion is a parked order of another type on the same side as typ, so
// that a two-order list never mixes sides.
func companion(s trading.Symbol, typ string) params {
	other := map[string]string{
		"limit": "takeProfitLimit", "takeProfitLimit": "limit", "takeProfitMarket": "limit",
		"stopLimit": "stopMarket", "stopMarket": "stopLimit",
	}[typ]
	return parked(s, other)
}

// lowBuy is a limit buy resting at k ticks.
func lowBuy(s trading.Symbol, k int64) params { return s.RestingBuy(cloids.New(), k) }

// parkedList returns a valid list of the type with n orders (when n is a
// count the type allows) that parks without trading: allOrNone orders are
// FOK buys at a few ticks on distinct symbols (they expire together), the
// others are parked buys on one symbol.
func parkedList(ctx context.Context, t *trader, d desk, typ string, n int) list {
	GinkgoHelper()
	l := list{typ: typ}
	if typ == aon {
		for _, s := range buyableSymbols(ctx, t, n) {
			l.orders = append(l.orders, lowBuy(s, 3).With("time_in_force", "FOK"))
		}
		return l
	}
	pool := []params{lowBuy(d.s, 3), parked(d.s, "takeProfitLimit"), lowBuy(d.s, 2), parked(d.s, "takeProfitMarket"), lowBuy(d.s, 1)}
	l.orders = pool[:n]
	return l
}

// expireIn is an expire_time d after the target's now.
func expireIn(ctx context.Context, d time.Duration) string {
	GinkgoHelper()
	return trading.TargetNow(ctx).Add(d).Truncate(time.Second).Format(time.RFC3339)
}
