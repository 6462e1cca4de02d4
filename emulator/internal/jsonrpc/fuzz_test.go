package jsonrpc

import (
	"encoding/json"
	"testing"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/shopspring/decimal"
)

// newTestServer is a server over the fixture market with one funded
// account (key "k", secret "s", every right), without a listener.
func newTestServer(t testing.TB) *Server {
	t.Helper()
	fs := &faults.Set{}
	mkt, err := market.Load(fs)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := engine.SymbolsFrom(mkt)
	if err != nil {
		t.Fatal(err)
	}
	led := ledger.New(fs)
	for _, cur := range []string{"BTC", "ETH", "USDT"} {
		if err := led.Credit("A", cur, decimal.NewFromInt(1000)); err != nil {
			t.Fatal(err)
		}
	}
	hub := feed.New()
	pairs := make([]tape.Pair, 0, len(syms))
	for _, sy := range syms {
		pairs = append(pairs, tape.Pair{Code: sy.Code, Base: sy.Base, Quote: sy.Quote})
	}
	tp := tape.New(pairs)
	hub.Tap(tape.Kinds, tp.Observe)
	eng := engine.New(syms, led, nil, fs, engine.Options{Observer: hub})
	keys := auth.NewStore([]auth.Key{{APIKey: "k", Secret: "s", Account: "A", Rights: []string{"orderbook", "trading"}}}, fs)
	s := New(Options{Market: mkt, Engine: eng, Ledger: led, Keys: keys, Hub: hub, Tape: tp, Faults: fs})
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// FuzzHandle: whatever a client sends, the streams answer with JSON, never
// with an internal error, and keep the connection.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		`{"method":"getSymbol","params":{"symbol":"ETHBTC"},"id":1}`,
		`{"method":"getCurrencies","params":{"currency":"BTC,ETH","extended":true},"id":"a"}`,
		`{"method":"getTrades","params":{"symbol":"ETHBTC","sort":"ASC","by":"timestamp","from":"2020-01-01T00:00:00Z","limit":5,"offset":1},"id":2}`,
		`{"method":"subscribeCandles","params":{"symbol":"ETHBTC","period":"M1","limit":3},"id":3}`,
		`{"method":"login","params":{"algo":"HS256","pKey":"k","nonce":"n","signature":"00"},"id":4}`,
		`{"method":"login","params":{"algo":"BASIC","pKey":"k","sKey":"s"},"id":5}`,
		`{"method":"newOrder","params":{"clientOrderId":"fuzz0000000001","symbol":"ETHBTC","side":"buy","quantity":"0.01","price":"0.001"},"id":6}`,
		`{"method":"cancelReplaceOrder","params":{"clientOrderId":"fuzz0000000001","requestClientId":"fuzz0000000002","quantity":"0.02","price":"0.001"},"id":7}`,
		`{"method":"subscribeReports","params":{},"id":8}`,
		`{"method":"getSymbol"}`, `[]`, `null`, `{"id":{}}`,
	} {
		f.Add([]byte(seed))
	}
	s := newTestServer(f)
	c := &conn{srv: s, stream: streamAll, out: make(chan []byte, outQueue), done: make(chan struct{})}
	s.state.connected()
	f.Fuzz(func(t *testing.T, data []byte) {
		c.handle(data)
		for {
			select {
			case b := <-c.out:
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatalf("answer is not a JSON object: %s", b)
				}
				if e, ok := m["error"].(map[string]any); ok && e["code"] == float64(500) {
					t.Fatalf("internal error for %q: %s", data, b)
				}
			default:
				select {
				case <-c.done:
					t.Fatalf("the connection was closed after %q", data)
				default:
				}
				return
			}
		}
	})
}
