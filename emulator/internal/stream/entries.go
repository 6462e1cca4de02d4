package stream

import (
	"fmt"

	"github.com/conform-harness/conform/emulator/internal/tape"
)

// The entries of the history channels' notifications: trades and candles.

// trades writes trades entries.
func (p *public) trades(ts []tape.Trade) any {
	es := tradeEntries(ts)
	if p.on("V3-WS-PUB-TRADES-REST") {
		for i := range es {
			es[i].I += 1_000_000
		}
	}
	if !p.on("V3-WS-PUB-TRADES-FIELDS") {
		return es
	}
	out := make([]map[string]any, 0, len(es))
	for _, e := range es {
		out = append(out, map[string]any{"t": e.T, "i": fmt.Sprint(e.I), "p": e.P, "q": e.Q, "s": e.S})
	}
	return out
}

// candles writes candles of a subscription: converted ones at the current
// rate into the target currency, and none while there is no rate. tr is the
// trade an update is for (nil for snapshots).
func (p *public) candles(s *subscription, sym string, cs []tape.Candle, tr *tape.Trade) []any {
	rate := one
	if s.ch.kind == kindConverted {
		pair, _ := p.m.Tape.Pair(sym)
		r, ok := p.m.Tape.Rate(pair.Quote, s.target)
		if !ok {
			return []any{}
		}
		rate = r
	}
	if tr != nil && s.ch.kind == kindCandles && p.on("V3-WS-PUB-CANDLE-TRADE") {
		cs = append([]tape.Candle(nil), cs...)
		for i := range cs {
			cs[i].Volume = cs[i].Volume.Sub(tr.Quantity)
		}
	}
	qv := (s.ch.kind == kindCandles && p.on("V3-WS-PUB-CANDLE-FIELDS")) || (s.ch.kind == kindConverted && p.on("V3-WS-PUB-CONVERTED-FIELDS"))
	out := make([]any, 0, len(cs))
	for _, e := range candleEntries(cs, rate) {
		if qv {
			out = append(out, map[string]any{"t": e.T, "o": e.O, "c": e.C, "h": e.H, "l": e.L, "v": e.V, "qv": e.Q})
			continue
		}
		out = append(out, e)
	}
	return out
}
