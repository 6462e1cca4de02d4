package engine

import (
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// t0 is a Monday noon, far from a day boundary.
var t0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func dp(s string) *decimal.Decimal { d := dec(s); return &d }

func sp(s string) *string { return &s }

// testSymbols cover a quote-fee symbol, a quote-fee symbol with a maker
// rebate, a base-fee symbol with a rebate, and a suspended one.
func testSymbols() []Symbol {
	return []Symbol{
		{Code: "ETHBTC", Base: "ETH", Quote: "BTC", FeeCurrency: "BTC", TickSize: dec("0.000001"), QuantityStep: dec("0.0001"),
			TakeRate: dec("0.0025"), MakeRate: dec("0.001"), Status: "working"},
		{Code: "BTCUSDT", Base: "BTC", Quote: "USDT", FeeCurrency: "USDT", TickSize: dec("0.01"), QuantityStep: dec("0.00001"),
			TakeRate: dec("0.0009"), MakeRate: dec("-0.0001"), Status: "working"},
		{Code: "XRPETH", Base: "XRP", Quote: "ETH", FeeCurrency: "XRP", TickSize: dec("0.0000005"), QuantityStep: dec("1"),
			TakeRate: dec("0.002"), MakeRate: dec("-0.0005"), Status: "working"},
		{Code: "LTCBTC", Base: "LTC", Quote: "BTC", FeeCurrency: "BTC", TickSize: dec("0.0000001"), QuantityStep: dec("0.001"),
			TakeRate: dec("0.0025"), MakeRate: dec("0.001"), Status: "suspended"},
	}
}

// env is an engine over a fresh ledger and a fake clock, remembering what
// was funded so that invariants can be checked.
type env struct {
	t      testing.TB
	e      *Engine
	l      *ledger.Ledger
	clk    *clock.Manual
	funded map[string]decimal.Decimal
}

// testMargin trades ETHBTC and BTCUSDT on margin in both modes.
func testMargin() []margin.Params {
	p := func(sym string, mode margin.Mode, lev string) margin.Params {
		return margin.Params{Symbol: sym, Mode: mode, MaxLeverage: dec(lev), MarginCallMul: dec("1.5"), LiquidationMul: dec("2"), Enabled: true}
	}
	return []margin.Params{p("ETHBTC", margin.Isolated, "10"), p("ETHBTC", margin.Cross, "5"), p("BTCUSDT", margin.Isolated, "10"), p("BTCUSDT", margin.Cross, "10")}
}

func newEnv(t testing.TB, opts Options, faultIDs ...string) *env {
	t.Helper()
	if opts.Margin == nil {
		opts.Margin = testMargin()
	}
	fs, err := faults.New(faultIDs...)
	if err != nil {
		t.Fatal(err)
	}
	l := ledger.New(fs)
	clk := clock.NewManual(t0)
	return &env{t: t, e: New(testSymbols(), l, clk, fs, opts), l: l, clk: clk, funded: map[string]decimal.Decimal{}}
}

func (v *env) fund(acct, cur, amt string) {
	v.t.Helper()
	if err := v.l.Credit(acct, cur, dec(amt)); err != nil {
		v.t.Fatal(err)
	}
	v.funded[cur] = v.funded[cur].Add(dec(amt))
}

// bal answers available and reserved as strings.
func (v *env) bal(acct, cur string) (string, string) {
	b := v.l.Balance(acct, cur)
	return b.Available.String(), b.Reserved.String()
}

type mod func(*PlaceRequest)

func withTIF(t TimeInForce) mod  { return func(r *PlaceRequest) { r.TimeInForce = &t } }
func withID(id string) mod       { return func(r *PlaceRequest) { r.ClientOrderID = &id } }
func withPostOnly() mod          { return func(r *PlaceRequest) { r.PostOnly = true } }
func withStrict() mod            { return func(r *PlaceRequest) { r.StrictValidate = true } }
func withTake(s string) mod      { return func(r *PlaceRequest) { r.TakeRate = dp(s) } }
func withMake(s string) mod      { return func(r *PlaceRequest) { r.MakeRate = dp(s) } }
func withExpire(t time.Time) mod { return func(r *PlaceRequest) { r.ExpireTime = &t } }
func withDisplay(s string) mod   { return func(r *PlaceRequest) { r.DisplayQuantity = &s } }
func withType(t Type) mod        { return func(r *PlaceRequest) { r.Type = &t } }
func withStop(t Type, s string) mod {
	return func(r *PlaceRequest) { r.Type = &t; r.StopPrice = dp(s) }
}

// lim is a limit order request; price "" leaves price out.
func lim(acct, sym string, side Side, qty, price string, mods ...mod) PlaceRequest {
	r := PlaceRequest{Account: acct, Symbol: sym, Side: &side}
	if qty != "" {
		r.Quantity = dp(qty)
	}
	if price != "" {
		r.Price = dp(price)
	}
	for _, m := range mods {
		m(&r)
	}
	return r
}

func mkt(acct, sym string, side Side, qty string, mods ...mod) PlaceRequest {
	return lim(acct, sym, side, qty, "", append([]mod{withType(Market)}, mods...)...)
}

func (v *env) place(r PlaceRequest) Order {
	v.t.Helper()
	o, err := v.e.Place(r)
	if err != nil {
		v.t.Fatalf("place %+v: %v", r, err)
	}
	v.check()
	return o
}

func kindOf(err error) (ErrorKind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

func (v *env) refuse(r PlaceRequest, want ErrorKind) {
	v.t.Helper()
	_, err := v.e.Place(r)
	if k, ok := kindOf(err); !ok || k != want {
		v.t.Fatalf("place: got %v (kind %v), want kind %v", err, k, want)
	}
	v.check()
}

func (v *env) status(acct, cloid string) Status {
	v.t.Helper()
	h, err := v.e.History(HistoryQuery{Account: acct, ClientOrderID: cloid})
	if err != nil || len(h) == 0 {
		v.t.Fatalf("no history for %s: %v", cloid, err)
	}
	return h[0].Status
}

// check asserts the ledger invariants: every currency's total over all
// accounts (fee account included) is what was funded; reserved is never
// negative, nor available outside the fee account; and every account's
// reserved amount is exactly what its active orders hold.
func (v *env) check() {
	v.t.Helper()
	if err := v.invariants(); err != nil {
		v.t.Fatal(err)
	}
}

// invariants is check's test, safe to call from any goroutine: it holds
// the engine's lock, under which every ledger change but funding is made.
// Margin accounts may be below zero (the borrowed part) but never hold a
// base currency other than their positions, and every order list keeps
// its orders in place.
func (v *env) invariants() error {
	e := v.e
	e.mu.Lock()
	defer e.mu.Unlock()
	held := map[[2]string]decimal.Decimal{}
	for _, a := range e.accounts {
		for _, o := range a.active {
			if o.resv.IsNegative() {
				return fmt.Errorf("order %d holds %s", o.id, o.resv)
			}
			k := [2]string{o.resvAccount(), o.resvCurrency()}
			held[k] = held[k].Add(o.resv.Decimal())
			if o.list != nil && o.list.orders[o.listIdx()] != o {
				return fmt.Errorf("order %d is not in its list's place %d", o.id, o.listIdx())
			}
			if o.inactive && (o.lvl != nil || o.status != cNew) {
				return fmt.Errorf("inactive order %d is %s, resting %v", o.id, o.status, o.lvl != nil)
			}
			if o.mg != nil && e.margin[o.mg.acct.ledgerID] != o.mg.acct {
				return fmt.Errorf("margin order %d trades on a closed account %s", o.id, o.mg.acct.ledgerID)
			}
		}
	}
	curs := map[string]bool{}
	for c := range v.funded {
		curs[c] = true
	}
	for _, acct := range v.l.Accounts() {
		for _, b := range v.l.Balances(acct) {
			curs[b.Currency] = true
			if b.Reserved.IsNegative() || (b.Available.IsNegative() && acct != e.opts.FeeAccount && !IsMarginLedgerAccount(acct)) {
				return fmt.Errorf("%s %s: available %s reserved %s", acct, b.Currency, b.Available, b.Reserved)
			}
			if h := held[[2]string{acct, b.Currency}]; !h.Equal(b.Reserved) {
				return fmt.Errorf("%s %s: ledger reserves %s, active orders hold %s", acct, b.Currency, b.Reserved, h)
			}
			delete(held, [2]string{acct, b.Currency})
			if IsMarginLedgerAccount(acct) && e.margin[acct] == nil && !(b.Available.IsZero() && b.Reserved.IsZero()) {
				return fmt.Errorf("closed margin account %s still holds %s %s", acct, b.Available, b.Currency)
			}
		}
	}
	for k, h := range held {
		if !h.IsZero() {
			return fmt.Errorf("%v: orders hold %s the ledger does not reserve", k, h)
		}
	}
	for c := range curs {
		if got := v.l.Total(c); !got.Equal(v.funded[c]) {
			return fmt.Errorf("total %s is %s, funded %s", c, got, v.funded[c])
		}
	}
	for id, ma := range e.margin {
		for _, bk := range e.bookList {
			if bk.sym.Quote != ma.cur || (ma.mode == margin.Isolated && bk.sym.Code != ma.instr) {
				continue
			}
			var want decimal.Decimal
			if p := ma.pos[bk.idx]; p != nil {
				if p.lots == 0 {
					return fmt.Errorf("%s keeps a flat position in %s", id, bk.sym.Code)
				}
				want = lotsDecimal(bk, p.lots)
			}
			b := v.l.Balance(id, bk.sym.Base)
			if got := b.Available.Add(b.Reserved); !got.Equal(want) {
				return fmt.Errorf("%s holds %s %s, its %s position is %s", id, got, bk.sym.Base, bk.sym.Code, want)
			}
		}
	}
	return nil
}

func ids(os []Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.ClientOrderID()
	}
	return out
}

func sortedStrings(xs []string) []string {
	xs = append([]string(nil), xs...)
	sort.Strings(xs)
	return xs
}
