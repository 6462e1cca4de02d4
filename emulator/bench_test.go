package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/fixtures"
)

// benchClient posts orders over loopback with keep-alive, the way a trading
// bot would.
func benchClient(b *testing.B) (*http.Client, string) {
	b.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		b.Fatal(err)
	}
	k := accts[0].Keys[0]
	t := client.DefaultTransport()
	t.MaxIdleConnsPerHost = 256
	return &http.Client{Transport: t}, client.Basic{Key: k.APIKey, Secret: k.Secret}.Authorization("", "", "", nil)
}

func post(b *testing.B, c *http.Client, auth, u string, form url.Values) {
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", auth)
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("%s: %d %s", u, resp.StatusCode, body)
	}
}

// BenchmarkHTTPPlaceOrder places resting orders through the emulator over
// HTTP on loopback; BenchmarkHTTPBareHandler is the same request against a
// bare net/http handler that decodes it and answers a fixed order, so the
// two rates compare the emulator with the cost of HTTP alone.
func BenchmarkHTTPPlaceOrder(b *testing.B) {
	e := newTest(b, Options{NoLimits: true})
	if err := e.Start(); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	c, auth := benchClient(b)
	u := e.URL() + "/api/3/spot/order"
	var n atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			// Cycle prices so the book stays a realistic depth, and the
			// per-symbol active-order limit is never reached.
			post(b, c, auth, u, url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "quantity": {"0.00001"},
				"price": {fmt.Sprintf("%d.%02d", 1+i%1000, i%100)}, "client_order_id": {fmt.Sprintf("bench%011d", i)}})
			if i%1000 == 0 {
				req, _ := http.NewRequest("DELETE", u, nil)
				req.Header.Set("Authorization", auth)
				if resp, err := c.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}

func BenchmarkHTTPBareHandler(b *testing.B) {
	fixed, _ := json.Marshal(map[string]any{"id": 1, "client_order_id": "x", "symbol": "BTCUSDT", "side": "buy", "status": "new",
		"type": "limit", "time_in_force": "GTC", "quantity": "0.00001", "quantity_cumulative": "0", "price": "1.00",
		"price_average": "0", "post_only": false, "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.PostForm.Get("symbol") == "" {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(bytes.Clone(fixed))
	}))
	defer srv.Close()
	c, auth := benchClient(b)
	var n atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			post(b, c, auth, srv.URL+"/api/3/spot/order", url.Values{"symbol": {"BTCUSDT"}, "side": {"buy"}, "quantity": {"0.00001"},
				"price": {fmt.Sprintf("%d.%02d", 1+i%1000, i%100)}, "client_order_id": {fmt.Sprintf("bench%011d", i)}})
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}

// discard is a ResponseWriter that keeps the status and drops the body.
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(code int)        { d.code = code }

// BenchmarkPlaceOrderHandler is the emulator's own cost of an order placed
// over REST (routing, credentials, parameters, engine and ledger, the
// answer's JSON) without the network: the handler called in one goroutine,
// a steadier figure than the HTTP pair's on a busy machine.
func BenchmarkPlaceOrderHandler(b *testing.B) {
	e := newTest(b, Options{NoLimits: true})
	h := e.Handler()
	_, auth := benchClient(b)
	w := &discard{h: http.Header{}}
	serve := func(method, body string) {
		req, _ := http.NewRequest(method, "http://emulator/api/3/spot/order", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", auth)
		clear(w.h)
		w.code = 200
		h.ServeHTTP(w, req)
		if w.code != 200 {
			b.Fatalf("%s /api/3/spot/order: %d", method, w.code)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		serve("POST", fmt.Sprintf("symbol=BTCUSDT&side=buy&quantity=0.00001&price=%d.%02d&client_order_id=bench%011d", 1+i%1000, i%100, i))
		if i%1000 == 999 {
			serve("DELETE", "")
		}
	}
}
