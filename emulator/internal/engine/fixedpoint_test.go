package engine

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/conform-harness/conform/internal/race"
)

// TestFixedPointAgreesWithDecimals runs random spot order streams (limit,
// market, stop and take-profit orders, every time in force, post-only,
// replaces, cancels, expiry) through the engine, which settles in fixed
// point, and replays its trades in a decimal model: every fee must be
// exactly price × quantity × rate (or quantity × rate when the fee is in
// the base currency) at the taker or maker rate, and every balance
// (available plus reserved) exactly what was funded plus what the model's
// trades moved, the fee account included.
func TestFixedPointAgreesWithDecimals(t *testing.T) {
	t.Parallel() // long under -race; each builds its own engines
	steps := race.Depth(3000)
	if testing.Short() {
		steps = min(steps, 600)
	}
	syms := map[string]Symbol{}
	for _, s := range testSymbols() {
		syms[s.Code] = s
	}
	for seed := uint64(11); seed <= 14; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			v := newEnv(t, Options{})
			s := newStream(v, seed)
			s.spotOnly = true
			for i := 0; i < steps; i++ {
				s.step()
			}
			type key struct{ acct, cur string }
			want := map[key]decimal.Decimal{}
			add := func(acct, cur string, d decimal.Decimal) { want[key{acct, cur}] = want[key{acct, cur}].Add(d) }
			trades := 0
			for _, a := range s.accts {
				for _, tr := range v.e.Trades(a, "", 1<<30) {
					trades++
					sym := syms[tr.Symbol]
					rate := sym.MakeRate
					if tr.Taker {
						rate = sym.TakeRate
					}
					notional := tr.Price.Mul(tr.Quantity)
					fee := tr.Quantity.Mul(rate)
					if sym.FeeCurrency == sym.Quote {
						fee = notional.Mul(rate)
					}
					if !tr.Fee.Equal(fee) {
						t.Fatalf("trade %d of %s: fee %s, the decimal model says %s × %s × %s = %s", tr.ID, a, tr.Fee, tr.Price, tr.Quantity, rate, fee)
					}
					if tr.Side == Buy {
						add(a, sym.Base, tr.Quantity)
						add(a, sym.Quote, notional.Neg())
					} else {
						add(a, sym.Base, tr.Quantity.Neg())
						add(a, sym.Quote, notional)
					}
					add(a, sym.FeeCurrency, fee.Neg())
					add(DefaultFeeAccount, sym.FeeCurrency, fee)
				}
			}
			if trades < 100 {
				t.Fatalf("stream too tame: %d trades (%v)", trades, s.stats)
			}
			funded := map[key]string{}
			for _, a := range s.accts[:3] {
				funded[key{a, "BTC"}], funded[key{a, "ETH"}], funded[key{a, "USDT"}], funded[key{a, "XRP"}] = "50", "500", "1000000", "2000000"
			}
			funded[key{"D", "BTC"}], funded[key{"D", "ETH"}], funded[key{"D", "USDT"}], funded[key{"D", "XRP"}] = "0.3", "3", "5000", "10000"
			for _, a := range append(s.accts, DefaultFeeAccount) {
				for _, cur := range []string{"BTC", "ETH", "USDT", "XRP"} {
					k := key{a, cur}
					exp := want[k]
					if f, ok := funded[k]; ok {
						exp = exp.Add(dec(f))
					}
					b := v.l.Balance(a, cur)
					if got := b.Available.Add(b.Reserved); !got.Equal(exp) {
						t.Errorf("%s %s: ledger holds %s, the decimal model %s", a, cur, got, exp)
					}
				}
			}
			t.Logf("%d trades, %v", trades, s.stats)
		})
	}
}
