package engine

import (
	"errors"
	"testing"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// newFuturesEnv is newEnv with the contract BTCUSDT_PERP (leverage at most
// 20, both modes) beside the spot symbols.
func newFuturesEnv(t *testing.T) *env {
	t.Helper()
	fs, err := faults.New()
	if err != nil {
		t.Fatal(err)
	}
	perp := Symbol{Code: "BTCUSDT_PERP", Base: "BTCUSDT_PERP", Quote: "USDT", FeeCurrency: "USDT", TickSize: dec("0.1"),
		QuantityStep: dec("0.001"), TakeRate: dec("0.0007"), MakeRate: dec("-0.0001"), Status: "working", Futures: true}
	p := func(mode margin.Mode) margin.Params {
		return margin.Params{Symbol: "BTCUSDT_PERP", Mode: mode, MaxLeverage: dec("20"), MarginCallMul: dec("1.2"), LiquidationMul: dec("2"), Enabled: true}
	}
	l := ledger.New(fs)
	clk := clock.NewManual(t0)
	e := New(testSymbols(), l, clk, fs, Options{Margin: testMargin(), Futures: []Symbol{perp},
		FuturesMargin: []margin.Params{p(margin.Isolated), p(margin.Cross)}})
	return &env{t: t, e: e, l: l, clk: clk, funded: map[string]decimal.Decimal{}}
}

func futures(r PlaceRequest, mode string) PlaceRequest {
	r.Margin = &MarginParams{Futures: true, Mode: mode}
	return r
}

func kindOfErr(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return -1
}

// TestFuturesTrade: two traders fund futures accounts from their futures
// balances, trade the contract, and hold opposite positions; funds and
// contracts are conserved; the position closes; the accounts close back
// into the futures balances.
func TestFuturesTrade(t *testing.T) {
	v := newFuturesEnv(t)
	v.fund(FuturesBalanceKey("A"), "USDT", "10000")
	v.fund(FuturesBalanceKey("B"), "USDT", "10000")
	v.fund("A", "USDT", "5000")

	// Spot and margin orders never reach a contract, futures orders never a spot symbol.
	v.refuse(lim("A", "BTCUSDT_PERP", Buy, "0.01", "60000"), ErrSymbolNotFound)
	if _, err := v.e.Place(futures(lim("A", "BTCUSDT", Buy, "0.01", "60000"), "")); kindOfErr(err) != ErrSymbolNotFound {
		t.Fatalf("futures order on a spot symbol: %v", err)
	}
	// No account yet: 20001.
	if _, err := v.e.Place(futures(lim("A", "BTCUSDT_PERP", Buy, "0.01", "60000"), "isolated")); kindOfErr(err) != ErrInsufficientFunds {
		t.Fatalf("futures order without an account: %v", err)
	}
	// Leverage above the contract's: 10001; more than the futures balance: 20001.
	if _, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", dec("100"), dp("21")); kindOfErr(err) != ErrValidation {
		t.Fatalf("leverage 21: %v", err)
	}
	if _, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", dec("10001"), nil); kindOfErr(err) != ErrInsufficientFunds {
		t.Fatalf("margin_balance over the futures balance: %v", err)
	}
	a, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", dec("1000"), dp("10"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Leverage == nil || !a.Leverage.Equal(dec("10")) || !a.Currencies[0].MarginBalance.Equal(dec("1000")) {
		t.Fatalf("account after PUT: %+v", a)
	}
	if got, _ := v.bal(FuturesBalanceKey("A"), "USDT"); got != "9000" {
		t.Fatalf("futures balance after funding: %s", got)
	}
	if got, _ := v.bal("A", "USDT"); got != "5000" {
		t.Fatalf("spot balance moved: %s", got)
	}
	if _, err := v.e.SetFuturesAccount("B", "cross", "USDT", dec("2000"), nil); err != nil {
		t.Fatal(err)
	}
	// At leverage 10, 0.2 at 60000 needs 1200 of margin: more than 1000.
	if _, err := v.e.Place(futures(lim("A", "BTCUSDT_PERP", Buy, "0.2", "60000"), "isolated")); kindOfErr(err) != ErrInsufficientFunds {
		t.Fatalf("order over the free margin: %v", err)
	}
	v.place(futures(lim("A", "BTCUSDT_PERP", Buy, "0.1", "60000", withID("a-buy-0001")), "isolated"))
	o := v.place(futures(lim("B", "BTCUSDT_PERP", Sell, "0.1", "60000", withID("b-sell-0001")), "cross"))
	if o.Status != Filled || o.MarginMode != "cross" {
		t.Fatalf("taker: %+v", o)
	}
	v.check()
	acc := v.e.FuturesAccounts("A")
	if len(acc) != 1 || len(acc[0].Positions) != 1 || !acc[0].Positions[0].Quantity.Equal(dec("0.1")) || !acc[0].Positions[0].Leverage.Equal(dec("10")) {
		t.Fatalf("A's futures accounts: %+v", acc)
	}
	if got := acc[0].Currencies[0].ReservedPositions; !got.Equal(dec("600")) {
		t.Fatalf("reserved_positions at leverage 10: %s", got)
	}
	if len(v.e.MarginAccounts("A")) != 0 {
		t.Fatal("a futures account shows among margin accounts")
	}
	bs := v.e.FuturesAccounts("B")
	if len(bs) != 1 || bs[0].Type != "cross" || !bs[0].Positions[0].Quantity.Equal(dec("-0.1")) {
		t.Fatalf("B's futures accounts: %+v", bs)
	}
	if f := v.e.FuturesFundsOf("B")["USDT"]; !f.Cross.IsPositive() || !f.Isolated.IsZero() {
		t.Fatalf("B's futures funds: %+v", f)
	}
	// Orders and trades live under FuturesKey.
	if h, _ := v.e.History(HistoryQuery{Account: FuturesKey("A"), DefaultLimit: true, DefaultSort: true}); len(h) != 1 {
		t.Fatalf("A's futures history: %d orders", len(h))
	}
	if tr := v.e.MarginTrades(MarginTradeQuery{Account: "A", Futures: true}); len(tr) != 1 || tr[0].Symbol != "BTCUSDT_PERP" {
		t.Fatalf("A's futures trades: %+v", tr)
	}
	if tr := v.e.MarginTrades(MarginTradeQuery{Account: "A"}); len(tr) != 0 {
		t.Fatalf("futures trades among margin trades: %+v", tr)
	}
	// A's limit close rests; B buys it back.
	ps, err := v.e.CloseFuturesPosition("A", "isolated", "BTCUSDT_PERP", dp("61000"), false)
	if err != nil || len(ps) != 1 {
		t.Fatalf("close: %v %+v", err, ps)
	}
	v.place(futures(lim("B", "BTCUSDT_PERP", Buy, "0.1", "61000"), "cross"))
	v.check()
	if acc := v.e.FuturesAccounts("A"); len(acc[0].Positions) != 0 {
		t.Fatalf("A's position after the close: %+v", acc[0].Positions)
	}
	// Closing the accounts returns everything to the futures balances.
	if _, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", decimal.Zero, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.SetFuturesAccount("B", "cross", "USDT", decimal.Zero, nil); err != nil {
		t.Fatal(err)
	}
	v.check()
	if len(v.e.FuturesAccounts("A")) != 0 {
		t.Fatal("A's account is still open")
	}
	a1, _ := v.bal(FuturesBalanceKey("A"), "USDT")
	b1, _ := v.bal(FuturesBalanceKey("B"), "USDT")
	// A gained 100 less fees, B lost it plus fees; the fee account has the rest.
	if !dec(a1).GreaterThan(dec("10050")) || !dec(b1).LessThan(dec("9900")) {
		t.Fatalf("after the round trip: A %s, B %s", a1, b1)
	}
}

// TestFuturesLeverageChange: lowering the leverage under an open position
// is refused when the margin would not cover it.
func TestFuturesLeverageChange(t *testing.T) {
	v := newFuturesEnv(t)
	v.fund(FuturesBalanceKey("A"), "USDT", "1000")
	v.fund(FuturesBalanceKey("B"), "USDT", "1000")
	for _, u := range []string{"A", "B"} {
		if _, err := v.e.SetFuturesAccount(u, "isolated", "BTCUSDT_PERP", dec("500"), dp("20")); err != nil {
			t.Fatal(err)
		}
	}
	v.place(futures(lim("A", "BTCUSDT_PERP", Buy, "0.1", "60000"), "isolated"))
	v.place(futures(lim("B", "BTCUSDT_PERP", Sell, "0.1", "60000"), "isolated"))
	// 6000 notional: 300 at leverage 20, 600 at 10 (more than 500).
	if _, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", dec("500"), dp("10")); kindOfErr(err) != ErrInsufficientFunds {
		t.Fatalf("leverage 10 under a 6000 position with 500: %v", err)
	}
	a, err := v.e.SetFuturesAccount("A", "isolated", "BTCUSDT_PERP", dec("700"), dp("10"))
	if err != nil || !a.Leverage.Equal(dec("10")) {
		t.Fatalf("leverage 10 with 700: %v %+v", err, a)
	}
	v.check()
}

// TestFuturesCrossLeverage: a cross account's leverage applies to each
// contract up to the contract's own maximum.
func TestFuturesCrossLeverage(t *testing.T) {
	v := newFuturesEnv(t)
	v.fund(FuturesBalanceKey("A"), "USDT", "1000")
	if _, err := v.e.SetFuturesAccount("A", "cross", "USDT", dec("1000"), dp("0.5")); kindOfErr(err) != ErrValidation {
		t.Fatalf("leverage 0.5: %v", err)
	}
	if _, err := v.e.SetFuturesAccount("A", "cross", "USDT", dec("1000"), dp("50")); err != nil {
		t.Fatal(err)
	}
	// At 50 (capped at the contract's 20), 0.1 at 60000 needs 300 plus the fee.
	o := v.place(futures(lim("A", "BTCUSDT_PERP", Buy, "0.1", "60000"), "cross"))
	a := v.e.FuturesAccounts("A")
	if got := a[0].Currencies[0].ReservedOrders; !got.Equal(dec("304.2")) {
		t.Fatalf("reserved for %s at leverage 20: %s", o.ClientOrderID(), got)
	}
	v.check()
}
