package spot

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

const (
	perSymbolLimit = 2000  // Other limits 1
	perUserLimit   = 25000 // Other limits 1
	// perClient keeps each bulk client under one second's rate plus burst of
	// /spot/order/* (300 + 450), whatever the target's speed.
	perClient = 500
)

// bulkOrders are n cheap resting orders on s: buys of one step at a few
// ticks, and (with stops) the last few parked stop sells, since suspended
// orders count towards the limits too.
func bulkOrders(s trading.Symbol, n int, stops bool) []params {
	out := make([]params, 0, n)
	for i := range n {
		if stops && i >= n-10 {
			out = append(out, parkedStops(s)["stopLimit"].With("quantity", s.Qty(1).String()))
			continue
		}
		out = append(out, restingBuy(s, int64(1+i%50)).With("quantity", s.Qty(1).String()))
	}
	return out
}

// placeBulk rests orders from several clients at once. On a loopback target
// each client has a source address of its own, so the per-IP budget of one
// is never shared; each goroutine has its own context.
func placeBulk(ctx SpecContext, role string, orders []params) {
	GinkgoHelper()
	e := framework.Current()
	// At least 2*trading.Workers clients: over a path of tens of milliseconds
	// each way, four clients of 500 took 22 s for 2000 orders; the clients'
	// pacer keeps one address under its documented rate.
	n := min(max((len(orders)+perClient-1)/perClient, 2*trading.Workers), len(orders))
	clients := make([]*client.Client, n)
	for i := range clients {
		// Unrecorded: a failure shows the refusals below, not thousands of
		// accepted orders.
		clients[i] = e.Signed(role, framework.Basic).With(client.WithRecorder(nil))
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
	)
	per := (len(orders) + n - 1) / n
	for i, c := range clients {
		chunk := orders[min(i*per, len(orders)):min((i+1)*per, len(orders))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			gctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
			defer cancel()
			for _, p := range chunk {
				ex, _ := c.Do(gctx, client.Request{Method: http.MethodPost, Path: "/spot/order", Form: p.Form()})
				if ex != nil && ex.Status == http.StatusOK {
					continue
				}
				mu.Lock()
				failures = append(failures, fmt.Sprint(ex))
				mu.Unlock()
				return // one refusal per client tells enough
			}
		}()
	}
	wg.Wait()
	Expect(failures).To(BeEmpty(), "placing %d resting orders below the limits", len(orders))
}

// cancelAllAtEnd cancels every order of symbol when the spec (or the
// Ordered container) ends: one request instead of one per order.
func cancelAllAtEnd(t *trading.Trader, symbol string) {
	DeferCleanup(func(ctx SpecContext) {
		t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: "/spot/order", Query: url.Values{"symbol": {symbol}}})
		for _, o := range t.Active(ctx, symbol) {
			t.Cancel(ctx, trading.StrField(o, "client_order_id"))
		}
		Expect(t.Active(ctx, symbol)).To(BeEmpty(), "cleanup: orders on %s are left active", symbol)
	})
}

// The limits need thousands of orders of one account: on the emulator, or
// on a sandbox where the account can afford them (cheap buys of one step at
// a few ticks). Per symbol beside other specs (the clients' pacer keeps the
// process under its share of the order budget), and first, since it takes
// seconds; per user Serial, so that its 25000 orders slow no other spec.
var _ = framework.AreaDescribe("Active order limits", func() {
	Context("per symbol", Ordered, SpecPriority(8), func() {
		var (
			t *trading.Trader
			s trading.Symbol
		)
		BeforeAll(func(ctx SpecContext) {
			framework.Current().RequireTrading()
			t = newTrader(target.RoleFull)
			s = restingSymbol(ctx, t)
			cancelAllAtEnd(t, s.Code)
			placeBulk(ctx, target.RoleFull, bulkOrders(s, perSymbolLimit-len(t.Active(ctx, s.Code)), true))
		})
		// atLimit tops the symbol up to the limit: each spec's own cleanups
		// cancel what it placed, which may leave room.
		atLimit := func(ctx SpecContext) {
			GinkgoHelper()
			for range perSymbolLimit - len(t.Active(ctx, s.Code)) {
				t.PlaceOK(ctx, restingBuy(s, 3))
			}
			Expect(t.Active(ctx, s.Code)).To(HaveLen(perSymbolLimit), "active and suspended orders on %s", s)
		}

		framework.ConformanceIt("V3-SPOT-LIMIT-PER-SYMBOL", func(ctx SpecContext) {
			atLimit(ctx)
			trading.ExpectRefusal(t.Place(ctx, restingBuy(s, 3)), fmt.Sprintf("a new order with %d active and suspended orders on %s", perSymbolLimit, s))
			trading.ExpectRefusal(t.Place(ctx, parkedStops(s)["stopLimit"]), fmt.Sprintf("a new stop order with %d active and suspended orders on %s", perSymbolLimit, s))
			// The limit is per symbol: another symbol takes orders.
			for _, o := range restable(ctx, t) {
				if o.Code != s.Code {
					t.PlaceOK(ctx, restingBuy(o, 3))
					break
				}
			}
			// One canceled order makes room for one.
			t.CancelOK(ctx, trading.StrField(t.Active(ctx, s.Code)[0], "client_order_id"))
			t.PlaceOK(ctx, restingBuy(s, 3))
		})

		framework.ConformanceIt("V3-SPOT-LIMIT-CODE", func(ctx SpecContext) {
			atLimit(ctx)
			ex := t.Place(ctx, restingBuy(s, 3))
			framework.Observe("V3-SPOT-LIMIT-CODE", "a new order with %d active orders on the symbol was answered %s", perSymbolLimit, trading.Outcome(ex))
		})
	})

	// On the emulator at once; elsewhere on request: 25000 orders take
	// more than a minute at the documented 300 per second.
	Context("per user", Ordered, Serial, Label(framework.LabelSlow), func() {
		var (
			t    *trading.Trader
			last trading.Symbol
		)
		BeforeAll(func(ctx SpecContext) {
			e := framework.Current()
			e.RequireTrading()
			if !e.Config.Emulator {
				// Minutes of a sandbox's order budget: not even --certify
				// (its filter selects every slow spec) runs it unasked.
				framework.OnRequestByName("V3-SPOT-LIMIT-PER-USER")
			}
			t = newTrader(target.RoleFull)
			syms := trading.WorkingSymbols(ctx)
			bals := t.Balances(ctx)
			// Buys at up to 50 ticks of one step, and stop sells of one step.
			buys := func(s trading.Symbol, n int) decimal.Decimal {
				return s.Low(50).Mul(s.Qty(1)).Mul(decimal.NewFromInt(int64(2 * n)))
			}
			where := "the target lists"
			if !e.Config.Emulator {
				// A sandbox's account must afford the orders itself: the
				// symbols whose quote it holds for a symbol's worth of buys.
				syms = slices.DeleteFunc(syms, func(s trading.Symbol) bool { return bals[s.Quote].Avail.LessThan(buys(s, perSymbolLimit)) })
				where = "the " + t.Role + " account can afford buys on"
			}
			need := (perUserLimit + perSymbolLimit - 1) / perSymbolLimit // 13
			if len(syms) < need {
				Skip(fmt.Sprintf("reaching %d active orders takes %d symbols at %d each; %s %d working spot symbols", perUserLimit, need, perSymbolLimit, where, len(syms)))
			}
			syms = syms[:need]
			existing := len(t.Active(ctx, ""))
			var orders []params
			funds := map[string]decimal.Decimal{}
			for i, s := range syms {
				n := perSymbolLimit
				if i == need-1 {
					n = perUserLimit - existing - perSymbolLimit*(need-1)
				}
				n -= len(t.Active(ctx, s.Code))
				// Stop sells where the account holds base (on the emulator,
				// everywhere: the control plane funds them).
				stops := e.Config.Emulator || bals[s.Base].Avail.Sub(funds[s.Base]).GreaterThanOrEqual(s.Qty(20))
				orders = append(orders, bulkOrders(s, n, stops)...)
				funds[s.Quote] = funds[s.Quote].Add(buys(s, n))
				if stops {
					funds[s.Base] = funds[s.Base].Add(s.Qty(20))
				}
			}
			// The emulator's control plane tops the balances up; a sandbox's
			// account must hold them.
			for _, cur := range slices.Sorted(maps.Keys(funds)) {
				amt, have := funds[cur], t.Balance(ctx, cur).Avail
				switch {
				case e.Config.Emulator:
					setAvailable(ctx, t, cur, have.Add(amt))
				case have.LessThan(amt):
					Skip(fmt.Sprintf("reaching %d active orders needs %s %s available to the %s account, which holds %s", perUserLimit, amt, cur, t.Role, have))
				}
			}
			for _, s := range syms {
				cancelAllAtEnd(t, s.Code)
			}
			last = syms[need-1]
			placeBulk(ctx, target.RoleFull, orders)
			Expect(t.Active(ctx, "")).To(HaveLen(perUserLimit), "active and suspended orders across %d symbols", need)
		})

		framework.ConformanceIt("V3-SPOT-LIMIT-PER-USER", func(ctx SpecContext) {
			Expect(len(t.Active(ctx, last.Code))).To(BeNumerically("<", perSymbolLimit), "%s is below its own limit", last)
			trading.ExpectRefusal(t.Place(ctx, restingBuy(last, 3)), fmt.Sprintf("a new order with %d active and suspended orders across symbols", perUserLimit))
		})
	})
})
