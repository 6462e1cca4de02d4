package margin

import (
	"errors"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestTrade(t *testing.T) {
	cases := []struct {
		name                 string
		qty, cost, dq, price string
		wantQty, wantCost    string
		realized             string
	}{
		{"open long", "0", "0", "2", "100", "2", "200", "0"},
		{"add to long", "2", "200", "1", "130", "3", "330", "0"},
		{"reduce long at a profit", "2", "200", "-1", "110", "1", "100", "10"},
		{"close long at a loss", "2", "200", "-2", "90", "0", "0", "-20"},
		{"open short", "0", "0", "-2", "100", "-2", "-200", "0"},
		{"reduce short at a profit", "-2", "-200", "1", "90", "-1", "-100", "10"},
		{"close short at a loss", "-2", "-200", "2", "105", "0", "0", "-10"},
		{"long through zero", "1", "100", "-3", "120", "-2", "-240", "20"},
		{"short through zero", "-1", "-100", "3", "80", "2", "160", "20"},
		{"a third of an odd basis", "3", "100", "-1", "40", "2", "66.666666666667", "6.666666666667"},
	}
	for _, tc := range cases {
		next, r := Position{Qty: d(tc.qty), Cost: d(tc.cost)}.Trade(d(tc.dq), d(tc.price))
		if !next.Qty.Equal(d(tc.wantQty)) || !next.Cost.Equal(d(tc.wantCost)) || !r.Equal(d(tc.realized)) {
			t.Errorf("%s: got %s %s realized %s", tc.name, next.Qty, next.Cost, r)
		}
		// What the cash did plus what the basis did is what was realized.
		if tc.wantQty != "0" || tc.qty != "0" {
			cash := d(tc.dq).Mul(d(tc.price)).Neg()
			if through := d(tc.qty).Sign()*d(tc.wantQty).Sign() < 0; !through && !cash.Add(next.Cost.Sub(d(tc.cost))).Equal(r) {
				t.Errorf("%s: cash %s + basis change %s != realized %s", tc.name, cash, next.Cost.Sub(d(tc.cost)), r)
			}
		}
	}
}

func TestEntryAndPnL(t *testing.T) {
	p := Position{Qty: d("3"), Cost: d("330")}
	if e := p.Entry(2); !e.Equal(d("110")) {
		t.Errorf("entry %s", e)
	}
	if pnl := p.PnL(d("120")); !pnl.Equal(d("30")) {
		t.Errorf("pnl %s", pnl)
	}
	short := Position{Qty: d("-2"), Cost: d("-200")}
	if pnl := short.PnL(d("90")); !pnl.Equal(d("20")) {
		t.Errorf("short pnl %s", pnl)
	}
	if e := (Position{}).Entry(2); !e.IsZero() {
		t.Errorf("flat entry %s", e)
	}
}

func TestInitial(t *testing.T) {
	for _, tc := range []struct{ notional, lev, want string }{
		{"6000", "10", "600"},
		{"-6000", "10", "600"},
		{"100", "3", "33.333333333334"},
		{"1", "1", "1"},
		{"5", "0", "5"},
	} {
		if got := Initial(d(tc.notional), d(tc.lev)); !got.Equal(d(tc.want)) {
			t.Errorf("Initial(%s, %s) = %s, want %s", tc.notional, tc.lev, got, tc.want)
		}
	}
}

func TestTriggerPrice(t *testing.T) {
	long := Position{Qty: d("1"), Cost: d("100")}
	// |q| P / (20 + (P − 100)) = 10 at P = 88.89.
	if got := TriggerPrice(long, d("20"), d("5"), d("2"), 2); !got.Equal(d("88.89")) {
		t.Errorf("long %s", got)
	}
	short := Position{Qty: d("-1"), Cost: d("-100")}
	if got := TriggerPrice(short, d("20"), d("5"), d("2"), 2); !got.Equal(d("109.09")) {
		t.Errorf("short %s", got)
	}
	// Fully paid for: no such price.
	if got := TriggerPrice(long, d("100"), d("5"), d("2"), 2); !got.IsZero() {
		t.Errorf("paid long %s", got)
	}
	if got := TriggerPrice(Position{}, d("100"), d("5"), d("2"), 2); !got.IsZero() {
		t.Errorf("flat %s", got)
	}
	// The leverage at the price is the limit.
	p := TriggerPrice(long, d("20"), d("5"), d("2"), 12)
	lev := long.Qty.Mul(p).Div(d("20").Add(long.Qty.Mul(p.Sub(d("100")))))
	if lev.Sub(d("10")).Abs().GreaterThan(d("0.000001")) {
		t.Errorf("leverage at %s is %s", p, lev)
	}
}

func TestParseBalance(t *testing.T) {
	six := d("0.000001")
	for _, tc := range []struct {
		in     string
		strict bool
		want   string // "" means refused
	}{
		{"100", true, "100"},
		{"100.000001", true, "100.000001"},
		{"100.0000001", true, ""},
		{"100.0000001", false, "100"},
		{"100.0000019", false, "100.000001"},
		{"1e2", true, ""},
		{"1e2", false, "100"},
		{"1E-7", false, "0"},
		{"0", true, "0"},
		{"-1", false, ""},
		{"abc", false, ""},
		{"", false, ""},
		{"1e999999999999", false, ""},
		{strings.Repeat("1", 65), false, ""},
	} {
		got, err := ParseBalance(tc.in, six, tc.strict)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%q strict %v: accepted %s", tc.in, tc.strict, got)
		case tc.want == "" && !errors.Is(err, ErrBalance):
			t.Errorf("%q: error %v does not wrap ErrBalance", tc.in, err)
		case tc.want != "" && (err != nil || !got.Equal(d(tc.want))):
			t.Errorf("%q strict %v: got %s %v, want %s", tc.in, tc.strict, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		p    string
		want int32
	}{{"0.000001", 6}, {"0.010", 2}, {"1", 0}, {"10", 0}, {"0.5", 1}, {"0", 0}} {
		if got := Places(d(tc.p)); got != tc.want {
			t.Errorf("Places(%s) = %d, want %d", tc.p, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	m, err := market.Load(&faults.Set{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Records()) != len(c.Params()) || len(c.Records()) == 0 {
		t.Fatalf("%d records, %d params", len(c.Records()), len(c.Params()))
	}
	bad := []struct {
		name string
		rec  Record
	}{
		{"unknown symbol", Record{Symbol: "DOGEUSDT"}},
		{"futures", Record{Symbol: "BTCUSDT_PERP"}},
		{"no margin trading", Record{Symbol: "XRPUSDT"}},
		{"bad mode", Record{Symbol: "BTCUSDT", MarginMode: "both"}},
		{"partial risk limit", Record{Symbol: "BTCUSDT", MarginMode: "cross", LimitBase: new(string)}},
		{"leverage differs", Record{Symbol: "BTCUSDT", MarginMode: "isolated", MaxInitialLeverage: "20", MarginCallLeverageMul: "1.5", LiquidationLeverageMul: "2", ForceCloseFee: "0"}},
		{"liquidation below margin call", Record{Symbol: "BTCUSDT", MarginMode: "isolated", MaxInitialLeverage: "10", MarginCallLeverageMul: "2", LiquidationLeverageMul: "1.5", ForceCloseFee: "0"}},
	}
	for _, tc := range bad {
		if _, err := newConfig(m, []Record{tc.rec}); err == nil {
			t.Errorf("%s accepted", tc.name)
		}
	}
	// Every margin symbol needs an isolated record.
	if _, err := newConfig(m, c.Records()[:1]); err == nil {
		t.Error("missing isolated records accepted")
	}
}
