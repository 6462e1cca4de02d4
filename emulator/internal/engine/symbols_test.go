package engine

import (
	"testing"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
)

func TestSymbolsFrom(t *testing.T) {
	for _, faultIDs := range [][]string{nil, {"V3-SYMBOL-SPOT"}} {
		fs, err := faults.New(faultIDs...)
		if err != nil {
			t.Fatal(err)
		}
		m, err := market.Load(fs)
		if err != nil {
			t.Fatal(err)
		}
		syms, err := SymbolsFrom(m)
		if err != nil {
			t.Fatal(err)
		}
		byCode := map[string]Symbol{}
		for _, s := range syms {
			byCode[s.Code] = s
			if ms, _ := m.Symbol(s.Code); ms.Type != market.TypeSpot {
				t.Errorf("%s is %s", s.Code, ms.Type)
			}
		}
		eth := byCode["ETHBTC"]
		if eth.Base != "ETH" || eth.Quote != "BTC" || eth.FeeCurrency != "BTC" || eth.Status != "working" || !eth.TickSize.Equal(dec("0.000001")) {
			t.Errorf("faults %v: ETHBTC %+v", faultIDs, eth)
		}
		if byCode["LTCBTC"].Status != "suspended" {
			t.Errorf("LTCBTC %+v", byCode["LTCBTC"])
		}
		// Every converted symbol makes a book.
		e := New(syms, ledger.New(fs), clock.NewManual(t0), fs, Options{})
		if len(e.bookList) != len(syms) || len(syms) == 0 {
			t.Fatalf("%d books for %d symbols", len(e.bookList), len(syms))
		}
	}
}

func TestNewRefusesBadSymbols(t *testing.T) {
	bad := []Symbol{
		{Code: "X", Base: "A", Quote: "B", FeeCurrency: "C", TickSize: dec("0.1"), QuantityStep: dec("1")},
		{Code: "X", Base: "A", Quote: "B", FeeCurrency: "B", TickSize: dec("0"), QuantityStep: dec("1")},
		{Code: "X", Base: "A", Quote: "A", FeeCurrency: "A", TickSize: dec("0.1"), QuantityStep: dec("1")},
		{Code: "X", Base: "A", Quote: "B", FeeCurrency: "B", TickSize: dec("0.1"), QuantityStep: dec("1"), TakeRate: dec("1")},
	}
	for i, s := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("symbol %d accepted", i)
				}
			}()
			New([]Symbol{s}, ledger.New(nil), nil, nil, Options{})
		}()
	}
}
