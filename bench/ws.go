package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/load"
	"github.com/gorilla/websocket"
	"github.com/shopspring/decimal"
)

// wsTrades are the trades of the ws comparison: ten symbols, so that each
// trades subscriber (one symbol each) gets a tenth of the trades.
var wsTrades = mustTrades("BTCUSDT:0.0001@1000.00", "ETHUSDT:0.001@100.00", "XRPUSDT:1@0.50000", "SOLUSDT:0.01@10.000",
	"TRXUSDT:1@0.1000000", "LTCUSDT:0.001@50.00", "BNBUSDT:0.001@200.00", "USDCUSDT:0.1@1.0000", "ETHBTC:0.001@0.050000", "XRPBTC:1@0.00001000")

func mustTrades(specs ...string) []load.TradeSpec {
	out := make([]load.TradeSpec, len(specs))
	for i, s := range specs {
		t, err := load.ParseTradeSpec(s)
		if err != nil {
			panic(err) // constants
		}
		out[i] = t
	}
	return out
}

// compareWS runs ws-market's trades channel against the emulator and
// against a trivial broadcast server in the same process: subscribers held
// and trade-to-subscriber p99, with the same generator on both sides.
func compareWS(subs, rate int, d time.Duration) error {
	fmt.Printf("== ws fan-out: %d trades subscribers over %d symbols, %d trades/s for %s; the emulator (limits off) vs a trivial broadcast server, same generator\n",
		subs, len(wsTrades), rate, d)
	emu, maker, taker, err := wsEmulator()
	if err != nil {
		return err
	}
	oursLoad := loadAverage()
	ours, oursCPU, err := wsSide(emu.URL(), subs, rate, d, maker, taker)
	emu.Close()
	if err != nil {
		return err
	}
	triv := newBroadcast()
	srv := httptest.NewServer(triv)
	theirsLoad := loadAverage()
	theirs, theirsCPU, err := wsSide(srv.URL, subs, rate, d, maker, taker)
	triv.close()
	srv.Close()
	if err != nil {
		return err
	}
	line := func(name string, s *load.StreamSummary, c wsCPU, loadAvg string) {
		fmt.Printf("%-18s held %d/%d subscribers, %d trades (%.1f/s), %.0f messages/s, fan-out p50 %.1f ms p99 %.1f ms max %.1f ms, gaps %d, disconnects %d; CPU %.2f cores, %.1f µs per message delivered (whole process); load average %s\n",
			name, s.PeakOpen, subs, s.Ops.OK, s.OpRate, s.MessagesPerSecond, s.Latency.P50MS, s.Latency.P99MS, s.Latency.MaxMS, s.Gaps, s.Disconnects,
			c.cores, c.perMessage(s.Messages), loadAvg)
	}
	line("emulator:", ours, oursCPU, oursLoad)
	line("trivial broadcast:", theirs, theirsCPU, theirsLoad)
	fmt.Printf("ws: subscribers held %d vs %d; fan-out p99 %.1f ms vs %.1f ms; CPU per message %.1f vs %.1f µs (target: >= 5000 held, p99 <= 50 ms at 100 trades/s)\n",
		ours.PeakOpen, theirs.PeakOpen, ours.Latency.P99MS, theirs.Latency.P99MS, oursCPU.perMessage(ours.Messages), theirsCPU.perMessage(theirs.Messages))
	return nil
}

// wsEmulator starts the emulator without limits, its first two accounts
// funded in every currency of wsTrades.
func wsEmulator() (*emulator.Emulator, client.Credential, client.Credential, error) {
	var maker, taker client.Credential
	emu, err := emulator.New(emulator.Options{NoLimits: true})
	if err == nil {
		err = emu.Start()
	}
	if err != nil {
		return nil, maker, taker, err
	}
	accts, err := fixtures.Accounts()
	if err != nil {
		return nil, maker, taker, err
	}
	for i, c := range []*client.Credential{&maker, &taker} {
		for _, k := range accts[i].Keys {
			if k.Role == "full" {
				*c = client.Credential{Key: k.APIKey, Secret: k.Secret}
			}
		}
		for _, cur := range []string{"BTC", "ETH", "USDT", "XRP", "SOL", "TRX", "LTC", "BNB", "USDC"} {
			if err := emu.Fund(c.Key, cur, decimal.New(1, 7)); err != nil {
				return nil, maker, taker, err
			}
		}
	}
	return emu, maker, taker, nil
}

func wsSide(url string, subs, rate int, d time.Duration, maker, taker client.Credential) (*load.StreamSummary, wsCPU, error) {
	base, err := load.ParseBase(url)
	if err != nil {
		return nil, wsCPU{}, err
	}
	cfg := load.StreamConfig{Scenario: load.ScenarioWSMarket, Base: base, Subscribers: subs, Channels: []string{"trades"}, Trades: wsTrades,
		Rate: float64(rate), Duration: d, Maker: maker, Taker: taker, SourceAddrs: load.LoopbackSources((subs + 99) / 100), ConnectRate: 200}
	smp := sampleCPU(100 * time.Millisecond)
	rec, err := load.RunStream(context.Background(), cfg)
	smp.stop()
	if err != nil {
		return nil, wsCPU{}, err
	}
	return load.AnalyzeStream([]load.StreamRecord{rec}, "ws", nil).Summary, smp.between(rec.Run.Driving, rec.Run.Ended), nil
}

// wsCPU is the process's CPU time from the driver's start to the run's end
// (the connection ramp apart): generator, driver and server together.
type wsCPU struct {
	cpu   time.Duration
	cores float64
}

// perMessage is the CPU time per message delivered, in microseconds.
func (c wsCPU) perMessage(n uint64) float64 {
	if n == 0 {
		return 0
	}
	return float64(c.cpu) / float64(n) / float64(time.Microsecond)
}

// cpuSamples notes the process's CPU time every interval, so that the CPU
// of a part of a run can be read afterwards.
type cpuSamples struct {
	mu   sync.Mutex
	at   []time.Time
	cpu  []time.Duration
	done chan struct{}
	wg   sync.WaitGroup
}

func sampleCPU(every time.Duration) *cpuSamples {
	s := &cpuSamples{done: make(chan struct{})}
	note := func(t time.Time) {
		c := cpuTime()
		s.mu.Lock()
		s.at, s.cpu = append(s.at, t), append(s.cpu, c)
		s.mu.Unlock()
	}
	note(time.Now())
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-s.done:
				note(time.Now())
				return
			case t := <-tk.C:
				note(t)
			}
		}
	}()
	return s
}

func (s *cpuSamples) stop() { close(s.done); s.wg.Wait() }

// between is the CPU time from the last sample at or before from to the
// first at or after to.
func (s *cpuSamples) between(from, to time.Time) wsCPU {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, j := 0, len(s.at)-1
	for k, t := range s.at {
		if !t.After(from) {
			i = k
		}
	}
	for k := len(s.at) - 1; k >= 0; k-- {
		if !s.at[k].Before(to) {
			j = k
		}
	}
	if j <= i {
		return wsCPU{}
	}
	c := s.cpu[j] - s.cpu[i]
	return wsCPU{cpu: c, cores: float64(c) / float64(s.at[j].Sub(s.at[i]))}
}

// loadAverage is the machine's 1-minute load average (Linux), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// broadcast is the trivial broadcast server: it answers a subscription,
// fills every IOC order, and sends each fill as a trades update to the
// symbol's subscribers, each through a queue and a writer goroutine of its
// own (as the emulator does), with no matching engine, tape or encoding per
// channel behind it.
type broadcast struct {
	up   websocket.Upgrader
	mu   sync.Mutex
	subs map[string]map[chan []byte]struct{}
	seq  atomic.Int64
	wg   sync.WaitGroup
}

func newBroadcast() *broadcast {
	return &broadcast{subs: map[string]map[chan []byte]struct{}{}, up: websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}}
}

func (b *broadcast) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/3/ws/public" {
		b.serveWS(w, r)
		return
	}
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		http.Error(w, "no", http.StatusBadRequest)
		return
	}
	status := "new"
	if r.Form.Get("time_in_force") == "IOC" {
		status = "filled"
		sym := r.Form.Get("symbol")
		b.mu.Lock() // ids in the order the frames are queued, as a matching engine's
		id := b.seq.Add(1)
		frame := []byte(`{"ch":"trades","update":{"` + sym + `":[{"t":` + strconv.FormatInt(time.Now().UnixMilli(), 10) + `,"i":` + strconv.FormatInt(id, 10) +
			`,"p":"` + r.Form.Get("price") + `","q":"` + r.Form.Get("quantity") + `","s":"buy"}]}}`)
		for q := range b.subs[sym] {
			select {
			case q <- frame:
			default: // a full queue drops the frame (the emulator would drop the subscriber)
			}
		}
		b.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"` + status + `"}`))
}

func (b *broadcast) serveWS(w http.ResponseWriter, r *http.Request) {
	c, err := b.up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	var req struct {
		Params struct {
			Symbols []string `json:"symbols"`
		} `json:"params"`
		ID json.RawMessage `json:"id"`
	}
	if c.ReadJSON(&req) != nil || len(req.Params.Symbols) != 1 {
		c.Close()
		return
	}
	sym := req.Params.Symbols[0]
	ans, _ := json.Marshal(map[string]any{"result": map[string]any{"ch": "trades", "subscriptions": []string{sym}}, "id": req.ID})
	if c.WriteMessage(websocket.TextMessage, ans) != nil {
		c.Close()
		return
	}
	q := make(chan []byte, 4096)
	b.mu.Lock()
	if b.subs[sym] == nil {
		b.subs[sym] = map[chan []byte]struct{}{}
	}
	b.subs[sym][q] = struct{}{}
	b.mu.Unlock()
	done := make(chan struct{})
	b.wg.Add(1)
	go func() { // reader: notices the close
		defer b.wg.Done()
		defer close(done)
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}()
	defer func() {
		b.mu.Lock()
		delete(b.subs[sym], q)
		b.mu.Unlock()
		c.Close()
	}()
	for {
		select {
		case <-done:
			return
		case f := <-q:
			if c.WriteMessage(websocket.TextMessage, f) != nil {
				return
			}
		}
	}
}

func (b *broadcast) close() { b.wg.Wait() }
