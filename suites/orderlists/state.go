package orderlists

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// state is everything a refused list must leave as it was: every spot
// balance (available and reserved alike), the active orders of both venues
// and, on margin, the funds of every margin account.
type state struct {
	balances map[string]trading.Balance
	active   map[string][]string // venue -> sorted client_order_ids
	margin   map[string]string   // account -> its currencies and positions, normalised
}

// state reads the account's state; margin accounts and orders are read only
// when the spec trades on margin (a spot-only target has no margin paths).
func (t *trader) state(ctx context.Context, withMargin bool) state {
	GinkgoHelper()
	s := state{active: map[string][]string{}}
	var spot, margin []string
	// The reads are independent: side by side, one round trip instead of
	// four over a path tens of milliseconds away.
	reads := []func(){
		func() { s.balances = t.Balances(ctx) },
		func() { spot = t.activeIDs(ctx, trading.Spot) },
	}
	if withMargin {
		reads = append(reads, func() { margin = t.activeIDs(ctx, trading.Margin) }, func() { s.margin = t.marginFunds(ctx) })
	}
	trading.Each(len(reads), func(i int) { reads[i]() })
	s.active["spot"] = spot
	if withMargin {
		s.active["margin"] = margin
	}
	return s
}

// marginFunds renders each margin account's currencies and positions with
// decimals normalised, so two readings compare as strings.
func (t *trader) marginFunds(ctx context.Context) map[string]string {
	GinkgoHelper()
	out := map[string]string{}
	for _, a := range t.marginAccounts(ctx) {
		key := fmt.Sprintf("%v %v", a["type"], a["symbol"])
		var parts []string
		cs, _ := a["currencies"].([]any)
		for _, c := range cs {
			m, _ := c.(map[string]any)
			parts = append(parts, fmt.Sprintf("%v: margin_balance %s, reserved_orders %s, reserved_positions %s",
				m["code"], norm(m["margin_balance"]), norm(m["reserved_orders"]), norm(m["reserved_positions"])))
		}
		ps, _ := a["positions"].([]any)
		for _, p := range ps {
			m, _ := p.(map[string]any)
			parts = append(parts, fmt.Sprintf("position %v %v", m["symbol"], norm(m["quantity"])))
		}
		sort.Strings(parts)
		out[key] = strings.Join(parts, "; ")
	}
	return out
}

// norm renders a decimal string without trailing zeros ("1.50" as "1.5").
func norm(v any) string {
	if d, ok := trading.AsDecimal(v); ok {
		return d.String()
	}
	return fmt.Sprint(v)
}

// expectSameState checks that nothing changed between two readings.
func expectSameState(before, after state, why string) {
	GinkgoHelper()
	var diffs []string
	curs := map[string]bool{}
	for c := range before.balances {
		curs[c] = true
	}
	for c := range after.balances {
		curs[c] = true
	}
	for c := range curs {
		if b, a := before.balances[c], after.balances[c]; !b.Equal(a) {
			diffs = append(diffs, fmt.Sprintf("spot balance %s: before {%s}, after {%s}", c, b, a))
		}
	}
	for v, ids := range before.active {
		if got := after.active[v]; strings.Join(got, ",") != strings.Join(ids, ",") {
			diffs = append(diffs, fmt.Sprintf("active %s orders: before %v, after %v", v, ids, got))
		}
	}
	for k, b := range before.margin {
		if a := after.margin[k]; a != b {
			diffs = append(diffs, fmt.Sprintf("margin account %s: before {%s}, after {%s}", k, b, a))
		}
	}
	for k, a := range after.margin {
		if _, ok := before.margin[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("margin account %s appeared: {%s}", k, a))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		Fail(fmt.Sprintf("%s: a refused list creates nothing and reserves nothing (V3-LIST-ATOMIC), yet:\n  %s", why, strings.Join(diffs, "\n  ")))
	}
}

// marginAccounts reads GET /margin/account.
func (t *trader) marginAccounts(ctx context.Context) []order {
	GinkgoHelper()
	ex, _ := t.Client.Get(ctx, "/margin/account", nil)
	Expect(ex).To(framework.BeOK(), "reading the margin accounts of %s", t.Role)
	return trading.Objects(ex)
}
