package stream

import (
	"testing"
	"time"
)

func TestParseChannel(t *testing.T) {
	cases := []struct {
		name  string
		ok    bool
		kind  chanKind
		speed time.Duration
		depth int
		batch bool
	}{
		{"trades", true, kindTrades, 0, 0, false},
		{"trades/batch", false, 0, 0, 0, false},
		{"candles/M1", true, kindCandles, 0, 0, false},
		{"candles/1M", true, kindCandles, 0, 0, false},
		{"candles/M2", false, 0, 0, 0, false},
		{"candles/m1", false, 0, 0, 0, false},
		{"candles", false, 0, 0, 0, false},
		{"converted/candles/D7", true, kindConverted, 0, 0, false},
		{"ticker/1s", true, kindTicker, time.Second, 0, false},
		{"ticker/3s/batch", true, kindTicker, 3 * time.Second, 0, true},
		{"ticker/2s", false, 0, 0, 0, false},
		{"ticker/price/1s", true, kindTickerPrice, time.Second, 0, false},
		{"orderbook/full", true, kindBookFull, 0, 0, false},
		{"orderbook/D5/100ms", true, kindBookDepth, 100 * time.Millisecond, 5, false},
		{"orderbook/D20/1000ms/batch", true, kindBookDepth, time.Second, 20, true},
		{"orderbook/D7/100ms", false, 0, 0, 0, false},
		{"orderbook/top/500ms", true, kindBookTop, 500 * time.Millisecond, 0, false},
		{"orderbook/top/200ms", false, 0, 0, 0, false},
		{"", false, 0, 0, 0, false},
	}
	for _, c := range cases {
		ch, ok := parseChannel(c.name)
		if ok != c.ok {
			t.Errorf("%q: served %v, want %v", c.name, ok, c.ok)
			continue
		}
		if ok && (ch.kind != c.kind || ch.speed != c.speed || ch.depth != c.depth || ch.batch != c.batch) {
			t.Errorf("%q: %+v", c.name, ch)
		}
	}
}
