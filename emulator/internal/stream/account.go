package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/limits"
)

// Accounts is what the trading and wallet streams work on. Their request,
// response and notification shapes are not shown in the spec; the
// emulator serves those of the real service (see docs/emulator.md, "beyond the
// contract").
type Accounts struct {
	// Login checks a login request's credentials.
	Login func(auth.StreamLogin) (*api.Principal, *api.Error)
	// Call runs a REST route in process (api.Router.Call), so that a
	// stream request is decoded and validated exactly as over REST.
	Call func(method, path string, p *api.Principal, params json.RawMessage) (any, *api.Error)
	// Report shapes an order as REST shows it (the v3 Order resource).
	Report func(o engine.Order, margin bool) any
	// Balances are the wallet (main account) balances of an account.
	Balances func(account string) []ledger.Balance
	// Updates delivers order updates; nil sends no order notifications.
	Updates Updates
	// Usable says whether a logged-in account may still use its keys (a
	// frozen sub-account may not); nil: every account may.
	Usable func(account string) bool
}

// OrderUpdate is one change of an order, as the trading stream reports it.
type OrderUpdate struct {
	Account string
	Margin  bool
	// Futures is set (with Margin) on futures orders.
	Futures bool
	// Report is the report_type: new, suspended, trade, canceled,
	// expired, replaced (and status in snapshots).
	Report string
	Order  engine.Order
	// Trade is the order's side of a trade (Report "trade").
	Trade *engine.Trade
}

// Updates delivers the order updates of one account to fn, which must not
// block (it may run under the engine's lock); cancel stops the delivery.
type Updates interface {
	SubscribeOrders(account string, fn func(OrderUpdate)) (cancel func())
}

// Codes of the streams' own errors. The spec gives none for an unknown
// method; the emulator answers with JSON-RPC 2.0's, as the messages of the
// real service carry "jsonrpc": "2.0".
const (
	codeMethodNotFound = -32601
	codeNotImplemented = 600
)

// session is the state of one trading or wallet connection.
type session struct {
	c    *conn
	acc  *Accounts
	prin *api.Principal

	mu     sync.Mutex
	subs   map[string]bool          // spot, margin, futures, spot_balance, futures_balance, transactions, wallet_balances
	cancel func()                   // stops order updates
	queue  chan func() []byte       // notifications, built and written by the notifier goroutine
	held   *request                 // V3-WST-FIFO fault: a request held back behind the next
	sent   map[string]walletBalance // wallet balances last notified
}

// queueSize bounds the notifications waiting for a slow reader; past it the
// connection is closed with 1008 (policy violation) rather than block the
// engine.
const queueSize = 4096

func (c *conn) session() *session {
	if c.sess == nil {
		c.sess = &session{c: c, acc: c.srv.opts.Accounts, subs: map[string]bool{}}
	}
	return c.sess
}

// answerAccount handles a trading or wallet request: it writes what it
// answers itself and returns nil.
func (c *conn) answerAccount(req request) []byte {
	s := c.session()
	if s.acc == nil {
		return errorMessage(api.Validation("the %s stream is not served", c.stream), req.ID)
	}
	if c.srv.opts.Faults.On("V3-WST-FIFO") && c.stream == limits.StreamTrading {
		// The fault executes a new order after the request that follows it.
		if s.held == nil && req.Method == "spot_new_order" {
			r := req
			s.held = &r
			return nil
		}
		if h := s.held; h != nil {
			s.held = nil
			_ = c.write(s.dispatch(req))
			return s.dispatch(*h)
		}
	}
	return s.dispatch(req)
}

func (s *session) dispatch(req request) []byte {
	if req.Method == "login" {
		return s.login(req)
	}
	if p := s.principal(); p != nil && s.acc.Usable != nil && !s.acc.Usable(p.Account) && !s.c.srv.opts.Faults.On("V3-SUBACC-FROZEN-SESSION") {
		return s.errorMsg(api.AuthFailed("the account is frozen or disabled: its API keys cannot be used"), req.ID)
	}
	if s.c.stream == limits.StreamWallet {
		return s.wallet(req)
	}
	return s.trading(req)
}

// needLogin answers requests that come before a login.
func (s *session) needLogin(req request) []byte {
	return s.errorMsg(api.AuthRequired(), req.ID)
}

type loginParams struct {
	Type      string      `json:"type"`
	APIKey    string      `json:"api_key"`
	SecretKey string      `json:"secret_key"`
	Timestamp json.Number `json:"timestamp"`
	Window    json.Number `json:"window"`
	Signature string      `json:"signature"`
}

func (s *session) login(req request) []byte {
	var lp loginParams
	if err := decodeParams(req.Params, &lp); err != nil {
		return s.errorMsg(api.AuthFailed("login params: %v", err), req.ID)
	}
	p, e := s.acc.Login(auth.StreamLogin{Type: lp.Type, APIKey: lp.APIKey, SecretKey: lp.SecretKey,
		Timestamp: lp.Timestamp.String(), Window: lp.Window.String(), Signature: lp.Signature})
	if e != nil {
		return s.errorMsg(e, req.ID)
	}
	if s.c.account == "" {
		// A first login counts against the account it logs into (the
		// method limits count per account, and only now is it known).
		if g := s.c.srv.opts.Guard; g != nil {
			if le := g.AllowMethod(s.c.stream, "login", p.Account); le != nil {
				return s.errorMsg(le, req.ID)
			}
		}
	}
	s.mu.Lock()
	switched := s.prin != nil && s.prin.Account != p.Account
	s.prin = p
	s.mu.Unlock()
	if switched {
		s.stopUpdates()
		s.mu.Lock()
		s.subs = map[string]bool{}
		s.mu.Unlock()
	}
	s.c.account = p.Account
	return s.result(true, req.ID)
}

// decodeParams reads params (absent or null: an empty object).
func decodeParams(raw json.RawMessage, v any) error {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// result is an answer in the real service's shape.
func (s *session) result(v any, id json.RawMessage) []byte {
	return encode(map[string]any{"jsonrpc": "2.0", "result": v}, id)
}

func (s *session) errorMsg(e *api.Error, id json.RawMessage) []byte {
	inner := map[string]any{"code": e.Code, "message": e.Message}
	if s.c.stream == limits.StreamWallet && s.c.srv.opts.Faults.On("V3-WSW-ERROR-CODE") {
		inner["code"] = strconv.Itoa(e.Code)
	}
	if e.Description != "" {
		inner["description"] = e.Description
	}
	return encode(map[string]any{"jsonrpc": "2.0", "error": inner}, id)
}

func (s *session) unknown(req request) []byte {
	id := req.ID
	if (s.c.stream == limits.StreamTrading && s.c.srv.opts.Faults.On("V3-WST-UNKNOWN-METHOD")) ||
		(s.c.stream == limits.StreamWallet && s.c.srv.opts.Faults.On("V3-WSW-UNKNOWN-METHOD")) {
		id = nil
	}
	return s.errorMsg(&api.Error{Code: codeMethodNotFound, Message: "Method not found",
		Description: fmt.Sprintf("the %s stream has no method %q", strings.TrimPrefix(s.c.stream, "/ws/"), req.Method)}, id)
}

// rpcNotification is the real service's {jsonrpc, method, params} (trading and wallet streams).
func rpcNotification(method string, params any) []byte {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return nil
	}
	return b
}

// push queues a notification; build runs on the notifier goroutine, outside
// any lock of the engine, and may return nil to send nothing.
func (s *session) push(build func() []byte) {
	s.mu.Lock()
	q := s.queue
	if q == nil {
		q = make(chan func() []byte, queueSize)
		s.queue = q
		s.c.srv.wg.Add(1)
		go s.c.drain(q)
	}
	s.mu.Unlock()
	select {
	case q <- build:
	default:
		go s.c.closeWith(1008, "notifications not read")
	}
}

func (s *session) stopUpdates() {
	s.mu.Lock()
	cancel := s.cancel
	s.cancel = nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *session) close() { s.stopUpdates() }

// drain writes queued notifications until the connection ends.
func (c *conn) drain(q chan func() []byte) {
	defer c.srv.wg.Done()
	for {
		select {
		case build := <-q:
			_ = c.write(build())
		case <-c.done:
			return
		}
	}
}

// dropsMalformed applies V3-WST-MALFORMED and V3-WSW-MALFORMED: the
// connection is dropped without a close frame.
func (c *conn) dropsMalformed() bool {
	f := c.srv.opts.Faults
	if (c.stream == limits.StreamTrading && f.On("V3-WST-MALFORMED")) || (c.stream == limits.StreamWallet && f.On("V3-WSW-MALFORMED")) {
		_ = c.ws.UnderlyingConn().Close()
		return true
	}
	return false
}
