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

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/conform-harness/conform/client"
)

// orders places a resting limit order and cancels it once its placement has
// been confirmed: POST /spot/order, then DELETE /spot/order/{client_order_id}
// (spec: Spot trading). Each request is built when Vegeta sends it, with a
// unique client_order_id, the current timestamp and its own HS256 signature.
//
// A cancel is only ever sent for an order whose placement answered 2xx, so
// a cancel never overtakes its order on another connection. The targeter
// sends the oldest confirmed order's cancel when there is one, and places a
// new order otherwise; in a steady run the two alternate.
//
// The POST's result URL carries the client_order_id as a fragment
// (".../spot/order#ld1-x7k2q-2s"), which is never sent on the wire but lets
// the scenario and a reader of results.bin tell which order it was.
type orders struct {
	postURL   string // apiBase + /spot/order
	postPath  string // the signed path
	orderBody string // the form body after client_order_id
	auth      client.HS256
	idPrefix  string
	seq       atomic.Uint64
	// retryWait is how long the cleanup waits after a 429: the documented
	// 1-second window.
	retryWait time.Duration

	mu        sync.Mutex
	confirmed []string // placed, awaiting their cancel, oldest first
	uncertain []string // placement or cancel outcome unknown: for the cleanup
}

// maxWorkerID keeps client_order_ids within 32 characters: 36^4.
const maxWorkerID = 36 * 36 * 36 * 36

func newOrders(cfg ScenarioConfig) (*orders, error) {
	o := cfg.Order
	if o.Symbol == "" || o.Quantity == "" || o.Price == "" || (o.Side != "buy" && o.Side != "sell") {
		return nil, fmt.Errorf("order %+v: want a symbol, side buy or sell, a quantity and a price", o)
	}
	if cfg.WorkerID < 0 || cfg.WorkerID >= maxWorkerID {
		return nil, fmt.Errorf("worker id %d: want 0 to %d", cfg.WorkerID, maxWorkerID-1)
	}
	form := url.Values{"symbol": {o.Symbol}, "side": {o.Side}, "type": {"limit"}, "time_in_force": {"GTC"},
		"quantity": {o.Quantity}, "price": {o.Price}}
	return &orders{
		postURL:   apiBase(cfg.Base) + "/spot/order",
		postPath:  apiPath(cfg.Base) + "/spot/order",
		orderBody: form.Encode(),
		auth:      client.HS256{Key: cfg.Key.Key, Secret: cfg.Key.Secret, Now: cfg.Now},
		// ld<worker>-<5 random>-<sequence>, all base 36: 11 to 26
		// characters of the documented alphabet (spec: Create order
		// parameters, 8 to 32).
		idPrefix:  "ld" + strconv.FormatInt(int64(cfg.WorkerID), 36) + "-" + nonce(5) + "-",
		retryWait: time.Second,
	}, nil
}

func (*orders) Name() string { return ScenarioOrders }

func (o *orders) Targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		o.next(t)
		return nil
	}
}

// next builds the next request: a cancel of the oldest confirmed order, or
// a new order.
func (o *orders) next(t *vegeta.Target) {
	o.mu.Lock()
	var id string
	if len(o.confirmed) > 0 {
		id = o.confirmed[0]
		o.confirmed = o.confirmed[1:]
	}
	o.mu.Unlock()
	if id != "" {
		o.cancel(t, id)
		return
	}
	o.place(t, o.newID())
}

func (o *orders) newID() string {
	return o.idPrefix + strconv.FormatUint(o.seq.Add(1)-1, 36)
}

func (o *orders) place(t *vegeta.Target, id string) {
	body := []byte("client_order_id=" + id + "&" + o.orderBody)
	t.Method, t.URL, t.Body = http.MethodPost, o.postURL+"#"+id, body
	t.Header = http.Header{
		"Content-Type":  {"application/x-www-form-urlencoded"},
		"Authorization": {o.auth.Authorization(http.MethodPost, o.postPath, "", body)},
	}
}

func (o *orders) cancel(t *vegeta.Target, id string) {
	t.Method, t.URL, t.Body = http.MethodDelete, o.postURL+"/"+id, nil
	t.Header = http.Header{"Authorization": {o.auth.Authorization(http.MethodDelete, o.postPath+"/"+id, "", nil)}}
}

// Observe queues the cancel of every order whose placement was confirmed,
// and remembers for the cleanup the orders whose fate is unknown: a
// placement or cancel that got no answer or a 5xx, and a cancel refused
// with 429.
func (o *orders) Observe(r *vegeta.Result) {
	ok := r.Code >= 200 && r.Code < 300
	unknown := r.Code == 0 || r.Code >= 500
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL, o.postURL+"#"):
		id := r.URL[len(o.postURL)+1:]
		o.mu.Lock()
		if ok {
			o.confirmed = append(o.confirmed, id)
		} else if unknown {
			o.uncertain = append(o.uncertain, id)
		}
		o.mu.Unlock()
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL, o.postURL+"/"):
		if unknown || r.Code == http.StatusTooManyRequests {
			o.mu.Lock()
			o.uncertain = append(o.uncertain, r.URL[len(o.postURL)+1:])
			o.mu.Unlock()
		}
	}
}

// cleanupRetries bounds the attempts to cancel one leftover order; after a
// 429 the next waits out the window (retryWait).
const cleanupRetries = 4

// Cleanup cancels the orders the run left resting (those placed near the
// end whose cancel was never sent) and those whose fate is unknown.
func (o *orders) Cleanup(ctx context.Context, c *http.Client) (CleanupReport, error) {
	o.mu.Lock()
	left := append(append([]string(nil), o.confirmed...), o.uncertain...)
	o.confirmed, o.uncertain = nil, nil
	o.mu.Unlock()
	rep := CleanupReport{Left: len(left)}
	for _, id := range left {
		gone, err := o.cancelNow(ctx, c, id)
		switch {
		case ctx.Err() != nil: // out of time: the rest stay where they are
			rep.Failures = rep.Left - rep.Removed - rep.Gone
			return rep, fmt.Errorf("cleanup: %d of %d orders not canceled: %w", rep.Failures, rep.Left, ctx.Err())
		case err != nil:
			rep.Failures++
		case gone:
			rep.Gone++
		default:
			rep.Removed++
		}
	}
	if rep.Failures > 0 {
		return rep, fmt.Errorf("cleanup: %d of %d orders could not be canceled", rep.Failures, rep.Left)
	}
	return rep, nil
}

// cancelNow cancels one order outside the attack; gone reports an order
// that was not there (never placed, or already canceled).
func (o *orders) cancelNow(ctx context.Context, c *http.Client, id string) (gone bool, err error) {
	for attempt := 0; ; attempt++ {
		var t vegeta.Target
		o.cancel(&t, id)
		req, err := http.NewRequestWithContext(ctx, t.Method, t.URL, nil)
		if err != nil {
			return false, fmt.Errorf("cancel %s: %w", id, err)
		}
		req.Header = t.Header
		resp, err := c.Do(req)
		if err != nil {
			return false, fmt.Errorf("cancel %s: %w", id, err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			return false, nil
		case isOrderNotFound(body):
			return true, nil
		case resp.StatusCode == http.StatusTooManyRequests && attempt < cleanupRetries:
			select {
			case <-ctx.Done():
				return false, fmt.Errorf("cancel %s: %w", id, ctx.Err())
			case <-time.After(o.retryWait):
			}
		default:
			return false, fmt.Errorf("cancel %s: HTTP %d: %s", id, resp.StatusCode, strings.TrimSpace(string(body)))
		}
	}
}

// isOrderNotFound reports an error body with code 20002 (spec: Errors).
func isOrderNotFound(body []byte) bool {
	var e struct {
		Error struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &e) == nil && e.Error.Code == 20002
}
