package emulator_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
)

// This test plays a bot written for the public service (ccxt's hitbtc class)
// against the emulator: it reads the REST ticker, order book, trades and
// candles and the stream channels trades, candles, ticker and order book,
// decoding each the way ccxt's parsers do (the fields they read, of the
// types they read them as). It checks the emulator's shapes beyond the
// contract; no conformance spec asserts them.

type bot struct {
	t      *testing.T
	ctx    context.Context
	emu    *emulator.Emulator
	public *client.Client
}

func newBot(t *testing.T) *bot {
	emu, err := emulator.New(emulator.Options{NoLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	pub, err := client.New(emu.URL())
	if err != nil {
		t.Fatal(err)
	}
	return &bot{t: t, ctx: context.Background(), emu: emu, public: pub}
}

// trader is a client of fixture account i.
func (b *bot) trader(i int) *client.Client {
	accts, _ := fixtures.Accounts()
	k := accts[i].Keys[0]
	c, err := client.New(b.emu.URL(), client.WithAuth(client.Basic{Key: k.APIKey, Secret: k.Secret}), client.WithGuard(client.PermitTrading()))
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

func (b *bot) place(c *client.Client, side, qty, price string) {
	b.t.Helper()
	ex, err := c.Do(b.ctx, client.Request{Method: "POST", Path: "/spot/order", Form: url.Values{
		"symbol": {"ETHBTC"}, "side": {side}, "quantity": {qty}, "price": {price}}})
	if err != nil || ex.Status != 200 {
		b.t.Fatalf("placing %s %s@%s: %v %s", side, qty, price, err, ex)
	}
}

func (b *bot) get(path string, v any) {
	b.t.Helper()
	path, rawQuery, _ := strings.Cut(path, "?")
	q, _ := url.ParseQuery(rawQuery)
	ex, err := b.public.Get(b.ctx, path, q)
	if err != nil || ex.Status != 200 {
		b.t.Fatalf("GET %s: %v %s", path, err, ex)
	}
	if err := ex.Decode(v); err != nil {
		b.t.Fatalf("GET %s: %v\n%s", path, err, ex)
	}
}

// isoMillis is how ccxt's parse8601 needs timestamps.
func isoMillis(t *testing.T, what, s string) {
	t.Helper()
	if _, err := time.Parse("2006-01-02T15:04:05.000Z", s); err != nil {
		t.Errorf("%s timestamp %q: %v", what, s, err)
	}
}

func TestBotRESTMarketData(t *testing.T) {
	b := newBot(t)
	var empty map[string]struct {
		Last      *string `json:"last"`
		Volume    string  `json:"volume"`
		Timestamp string  `json:"timestamp"`
	}
	b.get("/public/ticker", &empty) // fetchTickers before anything traded
	if tk, ok := empty["ETHBTC"]; !ok || tk.Last != nil || tk.Volume != "0" {
		t.Fatalf("an untraded ticker: %+v", empty["ETHBTC"])
	}

	maker, taker := b.trader(0), b.trader(1)
	b.place(maker, "sell", "0.5", "0.05")
	b.place(maker, "sell", "1", "0.06")
	b.place(maker, "buy", "2", "0.04")
	b.place(taker, "buy", "0.5", "0.05")

	// fetchTicker: ask, bid, last, low, high, open, volume, volume_quote, timestamp.
	var tk struct{ Ask, Bid, Last, Low, High, Open, Volume, VolumeQuote, Timestamp string }
	var raw map[string]any
	b.get("/public/ticker/ETHBTC", &raw)
	js, _ := json.Marshal(raw)
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(js), "volume_quote", "volumequote")), &tk)
	if tk.Ask != "0.06" || tk.Bid != "0.04" || tk.Last != "0.05" || tk.Open != "0.05" || tk.Volume != "0.5" || tk.VolumeQuote != "0.025" {
		t.Errorf("ticker %+v", raw)
	}
	isoMillis(t, "ticker", tk.Timestamp)

	// fetchOrderBook: {timestamp, ask: [[price, qty]], bid: [[price, qty]]}.
	var ob struct {
		Timestamp string `json:"timestamp"`
	}
	var book map[string]json.RawMessage
	b.get("/public/orderbook/ETHBTC?depth=5", &book)
	var asks, bids [][2]string
	_ = json.Unmarshal(book["ask"], &asks)
	_ = json.Unmarshal(book["bid"], &bids)
	_ = json.Unmarshal(book["timestamp"], &ob.Timestamp)
	if len(asks) != 1 || asks[0] != [2]string{"0.06", "1"} || len(bids) != 1 || bids[0] != [2]string{"0.04", "2"} {
		t.Errorf("order book %s", book)
	}
	isoMillis(t, "order book", ob.Timestamp)

	// fetchTrades: [{id, price, qty, side, timestamp}].
	var trades []struct {
		ID        int64  `json:"id"`
		Price     string `json:"price"`
		Qty       string `json:"qty"`
		Side      string `json:"side"`
		Timestamp string `json:"timestamp"`
	}
	b.get("/public/trades/ETHBTC?limit=10&from=0", &trades)
	if len(trades) != 1 || trades[0].Price != "0.05" || trades[0].Qty != "0.5" || trades[0].Side != "buy" || trades[0].ID == 0 {
		t.Fatalf("trades %+v", trades)
	}
	isoMillis(t, "trade", trades[0].Timestamp)
	var byTrades map[string][]json.RawMessage
	b.get("/public/trades?symbols=ETHBTC", &byTrades)
	if len(byTrades) != 1 || len(byTrades["ETHBTC"]) != 1 {
		t.Errorf("trades by symbol %v", byTrades)
	}

	// fetchOHLCV: [{timestamp, open, close, min, max, volume, volume_quote}].
	var candles []struct{ Timestamp, Open, Close, Min, Max, Volume string }
	b.get("/public/candles/ETHBTC?period=M1&limit=3&from="+url.QueryEscape(time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)), &candles)
	if len(candles) != 1 || candles[0].Open != "0.05" || candles[0].Max != "0.05" || candles[0].Volume != "0.5" {
		t.Fatalf("candles %+v", candles)
	}
	isoMillis(t, "candle", candles[0].Timestamp)
	var rate map[string]struct{ Currency, Price string }
	b.get("/public/price/rate?from=ETH&to=BTC", &rate)
	if rate["ETH"].Price != "0.05" {
		t.Errorf("price rate %+v", rate)
	}
}

// watch subscribes the way ccxt's subscribePublic does: {method, id (a
// number), ch, params}.
func watch(t *testing.T, c *client.WSConn, ch string, params map[string]any) {
	t.Helper()
	m, err := c.Request(context.Background(), 5*time.Second, "7", "subscribe", map[string]any{"ch": ch, "params": params})
	if err != nil || m.Error != nil {
		t.Fatalf("subscribe %s: %v %s", ch, err, m.Raw)
	}
}

// next returns the next notification of channel ch; held keeps those of
// other channels it passed over.
func next(t *testing.T, c *client.WSConn, held map[string][]client.WSMessage, ch string) map[string]json.RawMessage {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		var m client.WSMessage
		if q := held[ch]; len(q) > 0 {
			m, held[ch] = q[0], q[1:]
		} else {
			select {
			case m = <-c.Notifications():
			case <-deadline:
				t.Fatalf("no %s notification\n%s", ch, c.Transcript())
			}
		}
		{
			if m.Ch != ch {
				held[m.Ch] = append(held[m.Ch], m)
				continue
			}
			var msg map[string]json.RawMessage
			if err := json.Unmarshal(m.Raw, &msg); err != nil {
				t.Fatal(err)
			}
			return msg
		}
	}
}

func TestBotStreams(t *testing.T) {
	b := newBot(t)
	maker, taker := b.trader(0), b.trader(1)
	b.place(maker, "sell", "0.5", "0.05")
	b.place(taker, "buy", "0.5", "0.05")

	ws := strings.Replace(b.emu.URL(), "http", "ws", 1) + "/api/3/ws/public"
	c, err := client.DialWS(b.ctx, ws, client.WSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	held := map[string][]client.WSMessage{}

	// watchTrades: snapshot {symbol: [{t, i, p, q, s}]} then updates.
	watch(t, c, "trades", map[string]any{"symbols": []string{"ETHBTC"}, "limit": 10})
	var snap map[string][]struct {
		T int64  `json:"t"`
		I int64  `json:"i"`
		P string `json:"p"`
		Q string `json:"q"`
		S string `json:"s"`
	}
	msg := next(t, c, held, "trades")
	if err := json.Unmarshal(msg["snapshot"], &snap); err != nil || len(snap["ETHBTC"]) != 1 || snap["ETHBTC"][0].P != "0.05" {
		t.Fatalf("trades snapshot %s: %v", msg["snapshot"], err)
	}
	// watchOHLCV: candles/M1 snapshot then updates, [{t, o, c, h, l, v, q}].
	watch(t, c, "candles/M1", map[string]any{"symbols": []string{"ETHBTC"}, "limit": 5})
	msg = next(t, c, held, "candles/M1")
	var candles map[string][]struct {
		T                int64 `json:"t"`
		O, C, H, L, V, Q string
	}
	if err := json.Unmarshal(msg["snapshot"], &candles); err != nil || len(candles["ETHBTC"]) != 1 || candles["ETHBTC"][0].V != "0.5" {
		t.Fatalf("candles snapshot %s: %v", msg["snapshot"], err)
	}
	// watchOrderBook (orderbook/full): snapshot then updates {t, s, a, b}.
	watch(t, c, "orderbook/full", map[string]any{"symbols": []string{"ETHBTC"}})
	msg = next(t, c, held, "orderbook/full")
	var full map[string]struct {
		T int64       `json:"t"`
		S int64       `json:"s"`
		A [][2]string `json:"a"`
		B [][2]string `json:"b"`
	}
	if err := json.Unmarshal(msg["snapshot"], &full); err != nil || full["ETHBTC"].S == 0 {
		t.Fatalf("order book snapshot %s: %v", msg["snapshot"], err)
	}
	// watchTicker: ticker/1s {data: {symbol: {t, a, b, c, o, h, l, v, q}}}.
	watch(t, c, "ticker/1s", map[string]any{"symbols": []string{"ETHBTC"}})
	msg = next(t, c, held, "ticker/1s")
	var tick map[string]struct {
		T int64   `json:"t"`
		C *string `json:"c"`
		O *string `json:"o"`
		V string  `json:"v"`
	}
	if err := json.Unmarshal(msg["data"], &tick); err != nil || tick["ETHBTC"].C == nil || *tick["ETHBTC"].C != "0.05" || tick["ETHBTC"].V != "0.5" {
		t.Fatalf("ticker %s: %v", msg["data"], err)
	}

	b.place(maker, "sell", "0.25", "0.051")
	msg = next(t, c, held, "orderbook/full")
	if !strings.Contains(string(msg["update"]), `["0.051","0.25"]`) {
		t.Errorf("order book update %s", msg["update"])
	}
	b.place(taker, "buy", "0.25", "0.051")
	msg = next(t, c, held, "trades")
	if err := json.Unmarshal(msg["update"], &snap); err != nil || len(snap["ETHBTC"]) != 1 || snap["ETHBTC"][0].P != "0.051" || snap["ETHBTC"][0].Q != "0.25" || snap["ETHBTC"][0].S != "buy" {
		t.Fatalf("trades update %s: %v", msg["update"], err)
	}
	msg = next(t, c, held, "candles/M1")
	if err := json.Unmarshal(msg["update"], &candles); err != nil || candles["ETHBTC"][0].V != "0.75" || candles["ETHBTC"][0].H != "0.051" {
		t.Fatalf("candles update %s: %v", msg["update"], err)
	}
}
