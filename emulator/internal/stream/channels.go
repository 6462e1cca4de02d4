package stream

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/shopspring/decimal"
)

// chanKind is what a channel carries.
type chanKind int

// Channel kinds: the documented ones first, then those the document only
// names (served with the public service's shapes, beyond the contract).
const (
	kindTrades chanKind = iota
	kindCandles
	kindConverted
	kindTicker      // ticker/{speed}[/batch]
	kindTickerPrice // ticker/price/{speed}[/batch]
	kindBookFull    // orderbook/full
	kindBookDepth   // orderbook/D{depth}/{speed}[/batch]
	kindBookTop     // orderbook/top/{speed}[/batch]
)

// channel is a parsed channel name.
type channel struct {
	name   string
	kind   chanKind
	period market.Period
	speed  time.Duration
	depth  int
	batch  bool
}

// history reports whether the channel takes limit (a snapshot of history).
func (ch channel) history() bool {
	return ch.kind == kindTrades || ch.kind == kindCandles || ch.kind == kindConverted
}

// timed reports whether the channel is sent every speed interval.
func (ch channel) timed() bool { return ch.speed > 0 }

// parseChannel reads a channel name; ok is false for a name the stream does
// not serve.
func parseChannel(name string) (channel, bool) {
	ch := channel{name: name}
	parts := strings.Split(name, "/")
	if n := len(parts); n > 1 && parts[n-1] == "batch" {
		ch.batch = true
		parts = parts[:n-1]
	}
	period := func(p string) bool {
		for _, q := range market.Periods() {
			if string(q) == p {
				ch.period = q
				return true
			}
		}
		return false
	}
	switch {
	case len(parts) == 1 && parts[0] == "trades" && !ch.batch:
		ch.kind = kindTrades
	case len(parts) == 2 && parts[0] == "candles" && !ch.batch && period(parts[1]):
		ch.kind = kindCandles
	case len(parts) == 3 && parts[0] == "converted" && parts[1] == "candles" && !ch.batch && period(parts[2]):
		ch.kind = kindConverted
	case len(parts) == 2 && parts[0] == "ticker" && tickerSpeed(&ch, parts[1]):
		ch.kind = kindTicker
	case len(parts) == 3 && parts[0] == "ticker" && parts[1] == "price" && tickerSpeed(&ch, parts[2]):
		ch.kind = kindTickerPrice
	case len(parts) == 2 && parts[0] == "orderbook" && parts[1] == "full" && !ch.batch:
		ch.kind = kindBookFull
	case len(parts) == 3 && parts[0] == "orderbook" && parts[1] == "top" && bookSpeed(&ch, parts[2]):
		ch.kind = kindBookTop
	case len(parts) == 3 && parts[0] == "orderbook" && strings.HasPrefix(parts[1], "D") && bookSpeed(&ch, parts[2]):
		d, err := strconv.Atoi(parts[1][1:])
		if err != nil || (d != 5 && d != 10 && d != 20) {
			return ch, false
		}
		ch.kind, ch.depth = kindBookDepth, d
	default:
		return ch, false
	}
	return ch, true
}

// tickerSpeed accepts the ticker speeds of the public service: 1s and 3s.
func tickerSpeed(ch *channel, s string) bool {
	switch s {
	case "1s":
		ch.speed = time.Second
	case "3s":
		ch.speed = 3 * time.Second
	default:
		return false
	}
	return true
}

// bookSpeed accepts the order book speeds of the public service: 100ms,
// 500ms and 1000ms.
func bookSpeed(ch *channel, s string) bool {
	switch s {
	case "100ms", "500ms", "1000ms":
		ms, _ := strconv.Atoi(strings.TrimSuffix(s, "ms"))
		ch.speed = time.Duration(ms) * time.Millisecond
		return true
	}
	return false
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// tradeEntry is a trades entry (t, i, p, q, s).
type tradeEntry struct {
	T int64  `json:"t"`
	I int64  `json:"i"`
	P string `json:"p"`
	Q string `json:"q"`
	S string `json:"s"`
}

func tradeEntries(ts []tape.Trade) []tradeEntry {
	out := make([]tradeEntry, 0, len(ts))
	for _, t := range ts {
		out = append(out, tradeEntry{T: ms(t.At), I: t.ID, P: t.Price.String(), Q: t.Quantity.String(), S: string(t.Side)})
	}
	return out
}

// candleEntry is a candles entry (t, o, c, h, l, v, q).
type candleEntry struct {
	T int64  `json:"t"`
	O string `json:"o"`
	C string `json:"c"`
	H string `json:"h"`
	L string `json:"l"`
	V string `json:"v"`
	Q string `json:"q"`
}

// candleEntries writes candles, their prices and quote volume multiplied by
// rate (one for plain candles).
func candleEntries(cs []tape.Candle, rate decimal.Decimal) []candleEntry {
	one := rate.Equal(decimal.New(1, 0))
	conv := func(d decimal.Decimal) string {
		if one {
			return d.String()
		}
		return d.Mul(rate).String()
	}
	out := make([]candleEntry, 0, len(cs))
	for _, c := range cs {
		out = append(out, candleEntry{T: ms(c.Start), O: conv(c.Open), C: conv(c.Close), H: conv(c.High), L: conv(c.Low),
			V: c.Volume.String(), Q: conv(c.VolumeQuote)})
	}
	return out
}

// notification is {ch, [target_currency], snapshot|update|data: {symbol: entries}}.
func notification(ch, member, target string, bySymbol map[string]any) []byte {
	msg := map[string]any{"ch": ch, member: bySymbol}
	if target != "" {
		msg["target_currency"] = target
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return []byte(fmt.Sprintf(`{"ch":%q,"error":{"code":500,"message":"Internal Server Error"}}`, ch))
	}
	return b
}

// tickerEntry is the public service's ticker (t, a, A, b, B, c, o, h, l,
// v, q, p, P, L); prices are null until the symbol trades.
func tickerEntry(m *Market, sym string, now time.Time, full bool) map[string]any {
	st := m.Tape.Stats(sym, now)
	str := func(ok bool, d decimal.Decimal) any {
		if !ok {
			return nil
		}
		return d.String()
	}
	e := map[string]any{"t": ms(now), "o": str(st.Traded, st.Open), "c": str(st.HasLast, st.Last), "h": str(st.Traded, st.High),
		"l": str(st.Traded, st.Low), "v": st.Volume.String(), "q": st.VolumeQuote.String()}
	if !full {
		return e
	}
	bids, asks, _, _ := m.Depth(sym, 1)
	e["b"], e["B"], e["a"], e["A"] = nil, nil, nil, nil
	if len(bids) > 0 {
		e["b"], e["B"] = bids[0].Price.String(), bids[0].Size.String()
	}
	if len(asks) > 0 {
		e["a"], e["A"] = asks[0].Price.String(), asks[0].Size.String()
	}
	e["p"], e["P"], e["L"] = nil, nil, m.Tape.LastID(sym)
	if st.Traded {
		change := st.Last.Sub(st.Open)
		e["p"] = change.String()
		if st.Open.IsPositive() {
			e["P"] = change.Mul(decimal.New(100, 0)).DivRound(st.Open, 2).String()
		}
	}
	return e
}

// levels writes book levels as [[price, size], ...].
func levels(ls []engine.Level) [][2]string {
	out := make([][2]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, [2]string{l.Price.String(), l.Size.String()})
	}
	return out
}

// bookEntry is an order book of the public service: {t, s, a, b}.
func bookEntry(now time.Time, seq uint64, bids, asks []engine.Level) map[string]any {
	return map[string]any{"t": ms(now), "s": seq, "a": levels(asks), "b": levels(bids)}
}

// topEntry is the top of a book: {t, a, A, b, B}.
func topEntry(now time.Time, bids, asks []engine.Level) map[string]any {
	e := map[string]any{"t": ms(now), "a": nil, "A": nil, "b": nil, "B": nil}
	if len(bids) > 0 {
		e["b"], e["B"] = bids[0].Price.String(), bids[0].Size.String()
	}
	if len(asks) > 0 {
		e["a"], e["A"] = asks[0].Price.String(), asks[0].Size.String()
	}
	return e
}
