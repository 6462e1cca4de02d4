package trading

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TradesInTwoMinutes makes maker and taker trade one quantity at k1 ticks
// from mid and then at k2, so that the symbol has trades in two different
// minutes (two M1 candles), and returns the taker's answer of the second.
// On the emulator
// its control plane moves the clock two minutes between them. Elsewhere the
// second trade waits for the next minute of the target's clock (as the first
// trade's timestamp shows it): up to a minute, unless the run's first trade
// on the symbol fell in an earlier minute already, or older says (after the
// first trade) that the symbol has a candle of an earlier minute, as a
// sandbox that earlier runs traded on has. The wait is on request
// (framework.OnRequest): the specs that call it are labelled slow.
func (m Market) TradesInTwoMinutes(ctx context.Context, maker, taker *Trader, makerSide string, k1, k2 int64, older func(context.Context) bool) Order {
	GinkgoHelper()
	e := framework.Current()
	before, traded := firstTradeOn(m.Sym.Code)
	_, first := m.Trade(ctx, maker, taker, makerSide, 1, k1)
	at := tradeTime(first)
	switch {
	case e.Config.Emulator && CurrentSpecReport().IsSerial:
		// Moving the clock concerns every process: only a Serial spec may
		// (framework.SerialWhereClockMoves); a parallel one waits below.
		Expect(e.Control().Advance(ctx, 2*time.Minute)).To(Succeed(), "moving the emulator clock two minutes on")
	case traded && before.Truncate(time.Minute).Before(at.Truncate(time.Minute)):
		// An earlier spec of the run traded on the symbol in an earlier
		// minute: the two minutes are there already.
		at = before
	case older != nil && older(ctx):
		at = time.Time{} // an earlier minute has its candle
	default:
		framework.OnRequest("waits up to a minute for the next minute: the symbol has no older candle")
		next := at.Truncate(time.Minute).Add(time.Minute)
		// The harness's clock stands in for the target's, shifted by what
		// the first trade's timestamp shows; a second of margin covers the
		// round trip.
		skew := time.Since(at)
		wait := time.Until(next.Add(skew).Add(time.Second))
		By(fmt.Sprintf("waiting %s for the minute after the trade at %s", wait.Round(time.Second), at.Format(time.RFC3339)))
		Eventually(ctx, func() bool { return time.Now().After(next.Add(skew).Add(time.Second)) }).
			WithTimeout(wait+framework.Timeouts.Eventually).WithPolling(250*time.Millisecond).Should(BeTrue(), "the next minute")
	}
	_, second := m.Trade(ctx, maker, taker, makerSide, 1, k2)
	if b := tradeTime(second); !(e.Config.Emulator && CurrentSpecReport().IsSerial) && !b.Truncate(time.Minute).After(at.Truncate(time.Minute)) {
		Fail(fmt.Sprintf("harness: the trade at %s falls in the minute of the one at %s (the target's clock, as the trades show it)", b, at))
	}
	return second
}

// The time of the first trade Market.Trade made on each symbol in this
// process, on the target's clock: a later trade in another minute makes
// two M1 candles without waiting.
var (
	firstTradeMu sync.Mutex
	firstTrades  = map[string]time.Time{}
)

func noteTrade(symbol string, at time.Time) {
	firstTradeMu.Lock()
	defer firstTradeMu.Unlock()
	if _, ok := firstTrades[symbol]; !ok {
		firstTrades[symbol] = at
	}
}

func firstTradeOn(symbol string) (time.Time, bool) {
	firstTradeMu.Lock()
	defer firstTradeMu.Unlock()
	at, ok := firstTrades[symbol]
	return at, ok
}

// tradeTime is when the taker's order o traded: the timestamp of its last
// trade, else its updated_at.
func tradeTime(o Order) time.Time {
	GinkgoHelper()
	if ts, ok := o["trades"].([]any); ok && len(ts) > 0 {
		if t, ok := ts[len(ts)-1].(map[string]any); ok {
			if _, ok := t["timestamp"]; ok {
				return TimeField(t, "timestamp")
			}
		}
	}
	return TimeField(o, "updated_at")
}
