package load

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/gorilla/websocket"
)

// ScenarioWSTrading: order entry and cancel over the trading stream.
const ScenarioWSTrading = "ws-trading"

// tradingProto is what differs between the trading streams of the two
// API versions: the method names and parameters, and where an order
// request's latency ends.
type tradingProto struct {
	login     func(client.Credential) map[string]any
	subscribe string // follows the account's order reports
	newOrder  func(id string, t TradeSpec, side string) (string, map[string]any)
	cancel    func(id string) (string, map[string]any)
	// report is the notification whose first arrival for an order ends
	// its request's latency; empty: the request's answer ends it.
	report string
}

// v3Trading is the v3 trading stream as the real service speaks it.
var v3Trading = tradingProto{
	login: func(k client.Credential) map[string]any {
		return map[string]any{"type": "BASIC", "api_key": k.Key, "secret_key": k.Secret}
	},
	subscribe: "spot_subscribe",
	newOrder: func(id string, t TradeSpec, side string) (string, map[string]any) {
		return "spot_new_order", map[string]any{"client_order_id": id, "symbol": t.Symbol, "side": side, "type": "limit",
			"quantity": t.Quantity, "price": t.Price, "time_in_force": "GTC"}
	},
	cancel: func(id string) (string, map[string]any) {
		return "spot_cancel_order", map[string]any{"client_order_id": id}
	},
}

// runTrading is ws-trading (and ws2-trading, with proto v2Trading): one
// trading stream connection logs in with the maker's key (BASIC) and
// subscribes to its reports, then sends at Rate per second either a cancel
// of the oldest order placed and confirmed or a new resting limit order
// (the first trade spec's symbol and quantity at its price, on Side), as
// the REST orders scenario does. Latency is from a request to its answer,
// the order's report (v3), or to the order's first report notification
// (v2); orders still resting at the end are cancelled. The v3 document does
// not show the trading stream's shapes: this follows the real service's
// {method, params, id} and {jsonrpc, result | error, id}. The documented
// v3 stream limit (10 messages per second and 10 of burst per address)
// bounds one connection's rate; the emulator's --emulator-no-limits lifts
// it for its own capacity.
func runTrading(ctx context.Context, cfg *StreamConfig, info *StreamRunInfo, proto tradingProto) (StreamRecord, error) {
	url := cfg.url()
	info.Target = url
	col := newCollector(info.Started, 3*cfg.Duration+2*cfg.Timeout+time.Minute)
	rec := StreamRecord{Run: *info}
	conn, resp, err := cfg.dialer(srcOrNil(cfg.SourceAddrs)).DialContext(ctx, url, nil)
	if err != nil {
		rec.Failed = 1
		if resp != nil {
			col.fail(fmt.Sprintf("handshake: HTTP %d", resp.StatusCode))
		} else {
			col.fail("dial: " + errKind(err))
		}
		info.Ended = time.Now()
		rec.Run = *info
		return col.record(rec), nil
	}
	rec.Opened = 1
	col.connected()
	t := &trader{conn: conn, col: col, proto: &proto, pending: map[string]pendingOp{}, awaiting: map[string]awaited{}, prefix: "lt" + strconv.FormatInt(int64(cfg.WorkerID%maxWorkerID), 36) + "-" + nonce(5) + "-"}
	var readDone sync.WaitGroup
	readDone.Add(1)
	go func() { defer readDone.Done(); t.read() }()
	if !t.call(ctx, "login", proto.login(cfg.Maker), cfg.Timeout) || !t.call(ctx, proto.subscribe, map[string]any{}, cfg.Timeout) {
		col.fail("login or " + proto.subscribe + " refused")
	} else {
		spec := cfg.Trades[0]
		info.Driving = time.Now()
		start := info.Driving
		for i := 0; ; i++ {
			due := start.Add(time.Duration(float64(i) / cfg.Rate * float64(time.Second)))
			if due.Sub(start) >= cfg.Duration || !sleepUntil(ctx, due) {
				break
			}
			info.DriverDone = time.Now()
			if id, ok := t.oldest(); ok {
				m, p := proto.cancel(id)
				t.send(m, p, "cancel:"+id)
				continue
			}
			id := t.prefix + strconv.Itoa(i)
			m, p := proto.newOrder(id, spec, cfg.Side)
			t.send(m, p, "new:"+id)
		}
		t.waitIdle(cfg.Timeout)
		// Cleanup: cancel what still rests.
		for id, ok := t.oldest(); ok; id, ok = t.oldest() {
			m, p := proto.cancel(id)
			t.send(m, p, "cleanup:"+id)
		}
		t.waitIdle(cfg.Timeout)
	}
	info.Ended = time.Now()
	t.stopping.Store(true)
	conn.Close()
	readDone.Wait()
	col.closed(time.Now(), t.lost)
	t.mu.Lock()
	rec.Run, rec.Ops = *info, OpCounts{Sent: t.sent, OK: t.ok}
	if t.lost {
		rec.Disconnects = 1
		col.fail("disconnect: " + t.reason)
	}
	t.mu.Unlock()
	col.channelMessages("reports", t.reports.Load())
	return col.record(rec), nil
}

func srcOrNil(srcs []net.IP) net.IP {
	if len(srcs) == 0 {
		return nil
	}
	return srcs[0]
}

// pendingOp is a request awaiting its answer.
type pendingOp struct {
	what string // new:ID, cancel:ID, cleanup:ID or a method
	sent time.Time
	done chan bool
}

// trader is ws-trading's connection.
type trader struct {
	conn     *websocket.Conn
	col      *collector
	proto    *tradingProto
	prefix   string
	wmu      sync.Mutex
	stopping atomic.Bool
	reports  atomic.Uint64

	mu        sync.Mutex
	seq       int
	pending   map[string]pendingOp
	awaiting  map[string]awaited // order id -> its request, until its report (proto.report)
	confirmed []string
	sent, ok  uint64
	lost      bool
	reason    string
}

// send writes a request; its answer is counted by read.
func (t *trader) send(method string, params map[string]any, what string) chan bool {
	t.mu.Lock()
	t.seq++
	id := strconv.Itoa(t.seq)
	op := pendingOp{what: what, sent: time.Now(), done: make(chan bool, 1)}
	t.pending[id] = op
	if kind, oid, _ := strings.Cut(what, ":"); kind == "new" || kind == "cancel" {
		t.sent++
		if t.proto.report != "" {
			t.awaiting[oid] = awaited{cancel: kind == "cancel", sent: op.sent}
		}
	}
	t.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"method": method, "params": params, "id": id})
	t.wmu.Lock()
	err := t.conn.WriteMessage(websocket.TextMessage, b)
	t.wmu.Unlock()
	if err != nil {
		t.col.fail("write: " + errKind(err))
	}
	return op.done
}

// call sends a request and waits for its answer; true when it succeeded.
func (t *trader) call(ctx context.Context, method string, params map[string]any, timeout time.Duration) bool {
	done := t.send(method, params, method)
	select {
	case ok := <-done:
		return ok
	case <-ctx.Done():
	case <-time.After(timeout):
	}
	return false
}

// oldest takes the oldest confirmed order.
func (t *trader) oldest() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.confirmed) == 0 {
		return "", false
	}
	id := t.confirmed[0]
	t.confirmed = t.confirmed[1:]
	return id, true
}

// waitIdle waits until every request was answered, or timeout.
func (t *trader) waitIdle(timeout time.Duration) {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		t.mu.Lock()
		n := len(t.pending)
		t.mu.Unlock()
		if n == 0 {
			return
		}
	}
}

// read takes answers and report notifications until the connection ends.
func (t *trader) read() {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Error  json.RawMessage `json:"error"`
	}
	for {
		_, b, err := t.conn.ReadMessage()
		now := time.Now()
		if err != nil {
			if !t.stopping.Load() {
				t.mu.Lock()
				t.lost, t.reason = true, closeReason(err)
				t.mu.Unlock()
			}
			return
		}
		t.col.message(now)
		msg.ID, msg.Method, msg.Params, msg.Error = nil, "", nil, nil
		if json.Unmarshal(b, &msg) != nil {
			continue
		}
		if msg.Method != "" {
			t.reports.Add(1)
			if msg.Method == t.proto.report {
				t.reported(msg.Params, now)
			}
			continue
		}
		var id string
		if json.Unmarshal(msg.ID, &id) != nil {
			continue
		}
		ok := len(msg.Error) == 0 || string(msg.Error) == "null"
		t.mu.Lock()
		op, found := t.pending[id]
		delete(t.pending, id)
		kind, oid, _ := strings.Cut(op.what, ":")
		if found && (kind == "new" || kind == "cancel") {
			if ok {
				t.ok++
			} else {
				var e struct {
					Code json.RawMessage `json:"code"`
				}
				_ = json.Unmarshal(msg.Error, &e)
				t.col.fail(fmt.Sprintf("%s: error %s", kind, e.Code)) // the code only: descriptions vary (retry in ...)
			}
		}
		if found && kind == "new" && ok {
			t.confirmed = append(t.confirmed, oid)
		}
		if !ok {
			delete(t.awaiting, oid) // no report will come
		}
		t.mu.Unlock()
		if found {
			if kind == "new" || kind == "cancel" {
				if t.proto.report == "" {
					t.col.latency(0, now, now.Sub(op.sent))
				}
				t.col.op(now, ok)
			}
			op.done <- ok
		}
	}
}

// awaited is an order request whose report has not come yet.
type awaited struct {
	cancel bool
	sent   time.Time
}

// reported ends the latency of the request awaiting the report's order
// (spec v2: Streaming order report, clientOrderId and status): a cancel's
// report says canceled; any other is a new order's (it may have filled).
func (t *trader) reported(params json.RawMessage, now time.Time) {
	var r struct {
		ClientOrderID string `json:"clientOrderId"`
		Status        string `json:"status"`
	}
	if json.Unmarshal(params, &r) != nil || r.ClientOrderID == "" {
		return
	}
	t.mu.Lock()
	a, ok := t.awaiting[r.ClientOrderID]
	if ok && a.cancel != (r.Status == "canceled") {
		ok = false // a late report of the order's previous request
	}
	if ok {
		delete(t.awaiting, r.ClientOrderID)
	}
	t.mu.Unlock()
	if ok {
		t.col.latency(0, now, now.Sub(a.sent))
	}
}
