package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
)

// benchAccounts are fixture-shaped accounts BENCH1, BENCH2, ... with deep
// pockets.
func benchAccounts() []fixtures.Account {
	var out []fixtures.Account
	for i := 1; i <= 8; i++ {
		id := fmt.Sprintf("BENCH%d", i)
		out = append(out, fixtures.Account{ID: id,
			Keys:     []fixtures.Key{{Role: "full", APIKey: id + "-key", Secret: id + "-secret", Rights: []string{"orderbook", "trading", "payment", "withdraw"}}},
			Balances: map[string]string{"BTC": "1000000", "ETH": "1000000", "USDT": "1000000000000"}})
	}
	return out
}

// placeSymbols are the fixture symbols quoted in USDT that the HTTP pair
// rests orders in: eight books, each holding up to a client's 2,000 orders
// per symbol (the documented limit) before the client cancels them all.
var placeSymbols = []string{"BTCUSDT", "ETHUSDT", "XRPUSDT", "SOLUSDT", "LTCUSDT", "BNBUSDT", "TRXUSDT", "USDCUSDT"}

// perSymbolLimit is the documented cap on a user's active orders in one
// symbol (spec: Limits, Other limits).
const perSymbolLimit = 2000

// cancelAll cancels every active spot order of the account (DELETE
// /spot/order).
func cancelAll(c *http.Client, base, authz string) error {
	req, _ := http.NewRequest("DELETE", base+"/api/3/spot/order", nil)
	req.Header.Set("Authorization", authz)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("canceling orders: %d %s", resp.StatusCode, body)
	}
	return nil
}

func auth(id string) string {
	return client.Basic{Key: id + "-key", Secret: id + "-secret"}.Authorization("", "", "", nil)
}

// placeClients posts resting orders (far below the market, so nothing
// trades) from clients goroutines, each for its own account, for d and
// answers orders per second; every request must answer 200.
func placeClients(base string, clients int, d time.Duration) (float64, error) {
	tr := client.DefaultTransport()
	tr.MaxIdleConnsPerHost = clients
	c := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	start := time.Now()
	for g := 0; g < clients; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			authz := auth(fmt.Sprintf("BENCH%d", g+1))
			for i := 0; time.Now().Before(stop); i++ {
				if i > 0 && i%(perSymbolLimit*len(placeSymbols)) == 0 {
					// Every book holds this client's 2,000 orders: cancel them
					// all (both sides of the pair do, and it is not counted).
					if err := cancelAll(c, base, authz); err != nil {
						failed.Store(err.Error())
						return
					}
				}
				n.Add(1)
				form := url.Values{"symbol": {placeSymbols[i%len(placeSymbols)]}, "side": {"buy"}, "quantity": {"1"},
					"price": {fmt.Sprintf("%d.%02d", 1+i%10, i%100)}}
				req, _ := http.NewRequest("POST", base+"/api/3/spot/order", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Authorization", authz)
				resp, err := c.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failed.Store(fmt.Sprintf("%d %s", resp.StatusCode, body))
					return
				}
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		return 0, fmt.Errorf("placing orders: %v", f)
	}
	return float64(n.Load()) / time.Since(start).Seconds(), nil
}

// bareOrderServer decodes the same form and answers a fixed order: the
// cost of HTTP and JSON alone.
func bareOrderServer() *httptest.Server {
	fixed, _ := json.Marshal(map[string]any{"id": 1, "client_order_id": "x", "symbol": "BTCUSDT", "side": "buy", "status": "new",
		"type": "limit", "time_in_force": "GTC", "quantity": "0.00001", "quantity_cumulative": "0", "price": "1.00",
		"price_average": "0", "post_only": false, "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"})
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || (r.Method == "POST" && r.PostForm.Get("symbol") == "") {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bytes.Clone(fixed))
	}))
}

func compareHTTP(rounds int, d time.Duration) error {
	const clients = 8
	fmt.Printf("== HTTP order placement: the emulator (rate limits off) vs a bare net/http handler that decodes the form and answers a fixed order (%d keep-alive clients, one account each, resting orders in 8 books, loopback)\n", clients)
	emu, err := emulator.New(emulator.Options{NoLimits: true, Accounts: benchAccounts()})
	if err != nil {
		return err
	}
	if err := emu.Start(); err != nil {
		return err
	}
	defer emu.Close()
	bare := bareOrderServer()
	defer bare.Close()
	var ratios, emuRates, bareRates []float64
	for r := 1; r <= rounds; r++ {
		b, err := placeClients(bare.URL, clients, d)
		if err != nil {
			return fmt.Errorf("bare: %w", err)
		}
		e, err := placeClients(emu.URL(), clients, d)
		if err != nil {
			return fmt.Errorf("emulator: %w", err)
		}
		if err := emu.Reset(); err != nil { // an empty book and history for the next round
			return err
		}
		fmt.Printf("round %d: bare %8.0f orders/s | emulator %8.0f orders/s | ratio %.2f\n", r, b, e, e/b)
		ratios, emuRates, bareRates = append(ratios, e/b), append(emuRates, e), append(bareRates, b)
	}
	fmt.Printf("bare net/http: %.0f orders/s; emulator: %.0f orders/s\n", median(bareRates), median(emuRates))
	fmt.Printf("emulator/bare HTTP placement ratio: %.2f (%s; target >= 0.85)\n", median(ratios), spread(ratios))
	return nil
}
