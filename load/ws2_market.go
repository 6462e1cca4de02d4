package load

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// DefaultV2Channels are the v2 market data subscriptions ws2-market
// spreads its subscribers over (spec v2: Streaming): trades, one-minute
// candles, the ticker and the order book.
func DefaultV2Channels() []string { return []string{"trades", "candles/M1", "ticker", "orderbook"} }

// CheckV2Channel checks a ws2-market channel name: ticker, orderbook,
// trades, candles or candles/PERIOD (e.g. candles/M30), for
// subscribeTicker, subscribeOrderbook, subscribeTrades and
// subscribeCandles.
func CheckV2Channel(ch string) error {
	name, period, hasPeriod := strings.Cut(ch, "/")
	switch {
	case name == "candles" && (!hasPeriod || period != ""):
		return nil
	case !hasPeriod && (name == "ticker" || name == "orderbook" || name == "trades"):
		return nil
	}
	return fmt.Errorf("stream: v2 channel %q: want ticker, orderbook, trades, candles or candles/PERIOD", ch)
}

// v2Subscribe is the v2 subscription request of a channel (checked by
// CheckV2Channel) for one symbol. Trades and candles ask for an empty
// snapshot (limit 0), as ws-market does on v3.
func v2Subscribe(ch, sym string, id int) map[string]any {
	params := map[string]any{"symbol": sym}
	method := map[string]string{"ticker": "subscribeTicker", "orderbook": "subscribeOrderbook", "trades": "subscribeTrades"}[ch]
	if name, period, ok := strings.Cut(ch, "/"); name == "candles" {
		method = "subscribeCandles"
		if ok {
			params["period"] = period
		}
	}
	if method == "subscribeTrades" || method == "subscribeCandles" {
		params["limit"] = 0
	}
	return map[string]any{"method": method, "params": params, "id": id}
}

// v2Note is the part of a v2 market data notification ws2-market reads
// (spec v2: Notification contents): trades' data {id, timestamp, ...} and
// symbol; the order book's sequence and symbol.
type v2Note struct {
	Method string `json:"method"`
	Params struct {
		Symbol   string    `json:"symbol"`
		Sequence *int64    `json:"sequence"`
		Data     []v2Trade `json:"data"`
	} `json:"params"`
}

type v2Trade struct {
	ID        int64  `json:"id"`
	Timestamp string `json:"timestamp"`
}

// v2Handler reads the notifications of a v2 subscriber: updateTrades
// (latency from each trade's own timestamp, an ISO 8601 string, and its
// id for the gaps), snapshotOrderbook and updateOrderbook (the sequence:
// a snapshot carries the sequence of the following update, and sequences
// grow per symbol, so a sequence others of the symbol received between a
// subscriber's first and last is a gap). Other channels are counted only.
// Snapshots of trades are not judged, as on v3.
func (s *subscriber) v2Handler(col *collector, union *tradeUnion) func(b []byte, now time.Time) {
	if s.ch != "trades" && s.book == nil {
		return nil
	}
	var n v2Note
	return func(b []byte, now time.Time) {
		n.Method, n.Params.Symbol, n.Params.Sequence, n.Params.Data = "", "", nil, n.Params.Data[:0]
		if json.Unmarshal(b, &n) != nil {
			return // counted as a message, judged no further
		}
		switch {
		case n.Method == "updateTrades":
			for _, e := range n.Params.Data {
				at, err := time.Parse(time.RFC3339Nano, e.Timestamp)
				if err != nil {
					col.fail("updateTrades: timestamp not ISO 8601")
					continue
				}
				s.trade(col, union, now, now.Sub(at), n.Params.Symbol, e.ID)
			}
		case s.book == nil || n.Params.Sequence == nil:
		case n.Method == "snapshotOrderbook":
			s.track.expect(*n.Params.Sequence)
		case n.Method == "updateOrderbook":
			s.book.add(n.Params.Symbol, *n.Params.Sequence)
			s.track.see(*n.Params.Sequence)
		}
	}
}
