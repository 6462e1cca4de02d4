package load

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
)

// driver makes ws-market's trades through the REST API: per trade, one
// account rests a GTC limit order, the other takes it with an IOC order at
// the same price (spec: Spot trading, Create new order). The accounts swap
// roles every round of the trade list, so that balances stay put.
type driver struct {
	http         *http.Client
	url, path    string
	maker, taker client.HS256
	trades       []TradeSpec
	prefix       string
	seq          atomic.Uint64
	col          *collector

	mu        sync.Mutex
	uncertain []resting // maker orders that may still rest: for the cleanup
	sent, ok  uint64
	okBySym   map[string]uint64 // trades filled, by symbol
}

// resting is an order the cleanup cancels, with the key that placed it.
type resting struct {
	auth client.HS256
	id   string
}

func newDriver(cfg *StreamConfig, col *collector) *driver {
	tr := &http.Transport{TLSClientConfig: cfg.TLS, MaxIdleConnsPerHost: 64, Proxy: nil}
	return &driver{
		http: &http.Client{Timeout: cfg.Timeout, Transport: tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		url:    apiBase(cfg.Base) + "/spot/order",
		path:   apiPath(cfg.Base) + "/spot/order",
		maker:  client.HS256{Key: cfg.Maker.Key, Secret: cfg.Maker.Secret, Now: cfg.Now},
		taker:  client.HS256{Key: cfg.Taker.Key, Secret: cfg.Taker.Secret, Now: cfg.Now},
		trades: cfg.Trades,
		prefix: "lw" + strconv.FormatInt(int64(cfg.WorkerID%maxWorkerID), 36) + "-" + nonce(5) + "-",
		col:    col,
	}
}

// run makes trades at rate per second for d (or until ctx ends), each
// in a goroutine of its own, at most 256 at once; it returns when the last
// trade was started (a driver held up by a slow target falls behind its
// schedule, which the run's achieved rate shows), after all ended.
func (d *driver) run(ctx context.Context, rate float64, dur time.Duration) (lastStart time.Time) {
	start := time.Now()
	sem := make(chan struct{}, 256)
	var wg sync.WaitGroup
	for i := 0; ; i++ {
		due := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		if due.Sub(start) >= dur {
			break
		}
		if w := time.Until(due); w > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(w):
			}
		}
		if ctx.Err() != nil {
			break
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		lastStart = time.Now()
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			d.trade(i)
		}(i)
	}
	wg.Wait()
	return lastStart
}

// trade makes trade i; it counts as ok when both orders were accepted and
// the taker's was filled.
func (d *driver) trade(i int) {
	spec := d.trades[i%len(d.trades)]
	maker, taker := d.maker, d.taker
	if (i/len(d.trades))%2 == 1 {
		maker, taker = taker, maker
	}
	id := d.prefix + strconv.FormatUint(d.seq.Add(1), 36)
	ok, err := d.tradeOnce(spec, maker, taker, id)
	d.col.op(time.Now(), ok)
	d.mu.Lock()
	d.sent++
	if ok {
		d.ok++
		if d.okBySym == nil {
			d.okBySym = map[string]uint64{}
		}
		d.okBySym[spec.Symbol]++
	}
	d.mu.Unlock()
	if err != nil {
		d.col.fail("trade: " + err.Error())
	}
}

func (d *driver) tradeOnce(spec TradeSpec, maker, taker client.HS256, id string) (bool, error) {
	status, _, err := d.place(maker, id+"m", spec, "sell", "GTC")
	if err != nil || status/100 != 2 {
		if err == nil {
			err = fmt.Errorf("maker order: HTTP %d", status)
		}
		if status == 0 {
			d.remember(maker, id+"m")
		}
		return false, err
	}
	status, body, err := d.place(taker, id+"t", spec, "buy", "IOC")
	var order struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(body, &order)
	if err != nil || status/100 != 2 || order.Status != "filled" {
		d.remember(maker, id+"m")
		if err == nil {
			err = fmt.Errorf("taker order: HTTP %d, status %q", status, order.Status)
		}
		return false, err
	}
	return true, nil
}

func (d *driver) remember(a client.HS256, id string) {
	d.mu.Lock()
	d.uncertain = append(d.uncertain, resting{a, id})
	d.mu.Unlock()
}

// place sends one order and returns the status and the body.
func (d *driver) place(a client.HS256, id string, spec TradeSpec, side, tif string) (int, []byte, error) {
	form := url.Values{"client_order_id": {id}, "symbol": {spec.Symbol}, "side": {side}, "type": {"limit"},
		"time_in_force": {tif}, "quantity": {spec.Quantity}, "price": {spec.Price}}
	body := []byte(form.Encode())
	req, err := http.NewRequest(http.MethodPost, d.url, strings.NewReader(string(body)))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", a.Authorization(http.MethodPost, d.path, "", body))
	return d.do(req)
}

func (d *driver) do(req *http.Request) (int, []byte, error) {
	resp, err := d.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s", errKind(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, b, err
}

// cleanup cancels the maker orders that may still rest (spec: Cancel
// order by client_order_id); an unknown order is already gone.
func (d *driver) cleanup(ctx context.Context) CleanupReport {
	d.mu.Lock()
	left := d.uncertain
	d.uncertain = nil
	d.mu.Unlock()
	rep := CleanupReport{Left: len(left)}
	for _, r := range left {
		if ctx.Err() != nil {
			rep.Failures++
			continue
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, d.url+"/"+r.id, nil)
		if err != nil {
			rep.Failures++
			continue
		}
		req.Header.Set("Authorization", r.auth.Authorization(http.MethodDelete, d.path+"/"+r.id, "", nil))
		status, body, err := d.do(req)
		switch {
		case err == nil && status/100 == 2:
			rep.Removed++
		case err == nil && isOrderNotFound(body): // 20002, as the REST orders scenario reads it
			rep.Gone++
		default:
			rep.Failures++
		}
	}
	d.http.CloseIdleConnections()
	return rep
}
