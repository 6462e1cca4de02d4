package load

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
)

func TestCheckV2Channel(t *testing.T) {
	for _, tc := range []struct {
		ch string
		ok bool
	}{
		{"ticker", true}, {"orderbook", true}, {"trades", true}, {"candles", true}, {"candles/M30", true},
		{"candles/", false}, {"ticker/1s", false}, {"orderbook/full", false}, {"trades/x", false}, {"book", false}, {"", false},
	} {
		if err := CheckV2Channel(tc.ch); (err == nil) != tc.ok {
			t.Errorf("CheckV2Channel(%q) = %v, want ok %v", tc.ch, err, tc.ok)
		}
	}
}

func TestV2Subscribe(t *testing.T) {
	for _, tc := range []struct {
		ch, want string
	}{
		{"ticker", `{"id":7,"method":"subscribeTicker","params":{"symbol":"BTCUSDT"}}`},
		{"orderbook", `{"id":7,"method":"subscribeOrderbook","params":{"symbol":"BTCUSDT"}}`},
		{"trades", `{"id":7,"method":"subscribeTrades","params":{"limit":0,"symbol":"BTCUSDT"}}`},
		{"candles/M1", `{"id":7,"method":"subscribeCandles","params":{"limit":0,"period":"M1","symbol":"BTCUSDT"}}`},
		{"candles", `{"id":7,"method":"subscribeCandles","params":{"limit":0,"symbol":"BTCUSDT"}}`},
	} {
		b, err := json.Marshal(v2Subscribe(tc.ch, "BTCUSDT", 7))
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s (%v), want %s", tc.ch, b, err, tc.want)
		}
	}
}

// TestV2Handler feeds notifications to a v2 subscriber's handler and
// checks what it measured.
func TestV2Handler(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 1, 0, time.UTC)
	trades := func(ms ...int) string {
		var es []string
		for i, m := range ms {
			es = append(es, fmt.Sprintf(`{"id":%d,"price":"1","quantity":"1","side":"buy","timestamp":"2026-11-28T12:00:00.%03dZ"}`, 100+i, m))
		}
		return `{"jsonrpc":"2.0","method":"updateTrades","params":{"data":[` + strings.Join(es, ",") + `],"symbol":"BTCUSDT"}}`
	}
	book := func(method string, seq int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"ask":[{"price":"1","size":"2"}],"bid":[],"symbol":"BTCUSDT","sequence":%d,"timestamp":"2026-11-28T12:00:00.000Z"}}`, method, seq)
	}
	for _, tc := range []struct {
		name    string
		ch      string
		msgs    []string
		samples uint64
		ids     []int64 // the union of the symbol afterwards
		track   tradeTrack
		errors  int
	}{
		{"trades: latency per trade, ids", "trades", []string{trades(900, 500)}, 2, []int64{100, 101},
			tradeTrack{first: 100, last: 101, received: 2, started: true}, 0},
		{"trades: the snapshot is not judged", "trades", []string{strings.Replace(trades(900), "updateTrades", "snapshotTrades", 1)}, 0, nil, tradeTrack{}, 0},
		{"trades: a bad timestamp is an error", "trades", []string{strings.Replace(trades(900), "2026-11-28T12:00:00.900Z", "1764331200900", 1)}, 0, nil, tradeTrack{}, 1},
		{"trades: not JSON", "trades", []string{`{"method":`}, 0, nil, tradeTrack{}, 0},
		{"orderbook: snapshot then updates", "orderbook", []string{book("snapshotOrderbook", 5), book("updateOrderbook", 5), book("updateOrderbook", 6)}, 0,
			[]int64{5, 6}, tradeTrack{first: 5, last: 6, received: 2, started: true}, 0},
		{"orderbook: a repeat is out of order", "orderbook", []string{book("updateOrderbook", 5), book("updateOrderbook", 5)}, 0,
			[]int64{5}, tradeTrack{first: 5, last: 5, received: 1, started: true, outOfOrder: 1}, 0},
		{"ticker: counted only", "ticker", []string{trades(1)}, 0, nil, tradeTrack{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			col := newCollector(now, time.Minute)
			union, books := newTradeUnion(), newTradeUnion()
			s := &subscriber{ch: tc.ch, sym: "BTCUSDT", v2: true}
			if tc.ch == "orderbook" {
				s.book = books
			}
			h := s.handler(col, union)
			if h == nil {
				if tc.ids != nil || tc.samples != 0 {
					t.Fatal("no handler")
				}
				return
			}
			for _, m := range tc.msgs {
				h([]byte(m), now)
			}
			rec := col.record(StreamRecord{})
			if got := rec.Latency.Histogram().Count(); got != tc.samples {
				t.Errorf("%d latency samples, want %d", got, tc.samples)
			}
			if tc.samples > 0 && rec.Latency.Histogram().Max() != 500*time.Millisecond {
				t.Errorf("max latency %s, want 500ms", rec.Latency.Histogram().Max())
			}
			got := union.sorted()["BTCUSDT"]
			if tc.ch == "orderbook" {
				got = books.sorted()["BTCUSDT"]
			}
			if !reflect.DeepEqual(got, tc.ids) || s.track != tc.track {
				t.Errorf("ids %v track %+v, want %v %+v", got, s.track, tc.ids, tc.track)
			}
			if len(rec.Errors) != tc.errors {
				t.Errorf("errors %v, want %d", rec.Errors, tc.errors)
			}
		})
	}
}

// TestRunStreamAgainstEmulator runs each market and trading scenario of
// both versions for a second against the embedded emulator (limits off).
func TestRunStreamAgainstEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the emulator with stream subscribers")
	}
	emu := startEmulator(t, false)
	base, err := ParseBase(emu.URL())
	if err != nil {
		t.Fatal(err)
	}
	maker, taker := wsKeys(t)
	for _, tc := range []struct {
		scenario string
		path     string
		channels []string // by channel, the messages received
		gaps     []string // the channels judged for gaps
	}{
		{ScenarioWSMarket, "/api/3/ws/public", []string{"candles/M1", "orderbook/full", "ticker/1s", "trades"}, []string{"trades"}},
		{ScenarioWS2Market, "/api/2/ws/public", []string{"candles/M1", "orderbook", "ticker", "trades"}, []string{"orderbook", "trades"}},
		{ScenarioWSTrading, "/api/3/ws/trading", []string{"reports"}, nil},
		{ScenarioWS2Trading, "/api/2/ws/trading", []string{"reports"}, nil},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			cfg := StreamConfig{Scenario: tc.scenario, Base: base, Subscribers: 16, Rate: 10, Duration: time.Second,
				Drain: 300 * time.Millisecond, ConnectRate: 100, Maker: maker, Taker: taker}
			rec, err := RunStream(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var chans []string
			for ch, n := range rec.MessagesByChannel {
				if n == 0 {
					t.Errorf("no messages on %s", ch)
				}
				chans = append(chans, ch)
			}
			var judged []string
			for ch := range rec.GapsByChannel {
				judged = append(judged, ch)
			}
			slices.Sort(chans)
			slices.Sort(judged)
			switch {
			case !strings.HasSuffix(rec.Run.Target, tc.path):
				t.Errorf("target %s, want the path %s", rec.Run.Target, tc.path)
			case !reflect.DeepEqual(chans, tc.channels):
				t.Errorf("messages by channel %v, want %v", rec.MessagesByChannel, tc.channels)
			case !reflect.DeepEqual(judged, tc.gaps):
				t.Errorf("gaps judged on %v, want %v", rec.GapsByChannel, tc.gaps)
			case rec.Gaps != 0 || rec.Disconnects != 0 || rec.OutOfOrder != 0 || rec.Failed != 0 || len(rec.Errors) != 0:
				t.Errorf("gaps %d, disconnects %d, out of order %d, failed %d, errors %v", rec.Gaps, rec.Disconnects, rec.OutOfOrder, rec.Failed, rec.Errors)
			case rec.Ops.Sent < 9 || rec.Ops.OK != rec.Ops.Sent:
				t.Errorf("ops %+v, want about 10, all ok", rec.Ops)
			case rec.Latency.Histogram().Count() == 0:
				t.Error("no latency measured")
			}
			if IsMarket(tc.scenario) && (rec.Opened != 16 || rec.Undelivered != 0 || rec.Unseen != 0) {
				t.Errorf("opened %d, undelivered %d, unseen %d: want 16, 0, 0", rec.Opened, rec.Undelivered, rec.Unseen)
			}
			if IsTrading(tc.scenario) && rec.Latency.Histogram().Count() != rec.Ops.OK {
				t.Errorf("%d latencies for %d answered orders and cancels", rec.Latency.Histogram().Count(), rec.Ops.OK)
			}
		})
	}
}

// TestWS2MarketSeesBookFaults: against an emulator whose order book
// sequence counts down (fault V2-WS-BOOK-SEQ), ws2-market finds the order
// book updates out of order; the trades stay clean.
func TestWS2MarketSeesBookFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the emulator with stream subscribers")
	}
	emu, err := emulator.New(emulator.Options{NoLimits: true, Faults: []string{"V2-WS-BOOK-SEQ"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	base, err := ParseBase(emu.URL())
	if err != nil {
		t.Fatal(err)
	}
	maker, taker := wsKeys(t)
	cfg := StreamConfig{Scenario: ScenarioWS2Market, Base: base, Subscribers: 8, Channels: []string{"trades", "orderbook"}, Rate: 10,
		Duration: time.Second, Drain: 300 * time.Millisecond, ConnectRate: 100, Maker: maker, Taker: taker}
	rec, err := RunStream(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 4 order book subscribers, 2 per symbol, each about 10 updates of its
	// symbol, all but the first below the last.
	if rec.OutOfOrder < 20 || rec.GapsByChannel["trades"] != 0 || rec.Latency.Histogram().Count() == 0 {
		t.Errorf("out of order %d, gaps %v, %d latencies: want the book's updates out of order, the trades clean",
			rec.OutOfOrder, rec.GapsByChannel, rec.Latency.Histogram().Count())
	}
}
