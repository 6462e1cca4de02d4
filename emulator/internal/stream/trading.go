package stream

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
)

// restCall maps a trading stream method to the REST route that does the
// same; pathParams are the parameters that go into the path, in order
// ({margin_mode} defaults to isolated when not sent).
type restCall struct {
	method, path string
	pathParams   []string
	// report is the report_type of the orders answered (empty: the answer
	// is not orders).
	report string
}

func call(method, path, report string, pathParams ...string) restCall {
	return restCall{method: method, path: path, pathParams: pathParams, report: report}
}

// tradingCalls are the request methods of the trading stream: the ones the
// spec names and the ones the real service and its client libraries add
// (cancel, cancel all, active orders, one balance, all fees; for futures
// also setting an account and closing a position, as HitBTC's SDKs send
// them).
var tradingCalls = map[string]restCall{
	"spot_balances":          call("GET", "/spot/balance", ""),
	"spot_balance":           call("GET", "/spot/balance/{currency}", "", "currency"),
	"spot_fees":              call("GET", "/spot/fee", ""),
	"spot_fee":               call("GET", "/spot/fee/{symbol}", "", "symbol"),
	"spot_get_orders":        call("GET", "/spot/order", "status"),
	"spot_new_order":         call("POST", "/spot/order", "new"),
	"spot_new_order_list":    call("POST", "/spot/order/list", "new"),
	"spot_replace_order":     call("PATCH", "/spot/order/{client_order_id}", "replaced", "client_order_id"),
	"spot_cancel_order":      call("DELETE", "/spot/order/{client_order_id}", "canceled", "client_order_id"),
	"spot_cancel_orders":     call("DELETE", "/spot/order", "canceled"),
	"margin_get_accounts":    call("GET", "/margin/account", ""),
	"margin_get_orders":      call("GET", "/margin/order", "status"),
	"margin_new_order":       call("POST", "/margin/order", "new"),
	"margin_new_order_list":  call("POST", "/margin/order/list", "new"),
	"margin_replace_order":   call("PATCH", "/margin/order/{client_order_id}", "replaced", "client_order_id"),
	"margin_cancel_order":    call("DELETE", "/margin/order/{client_order_id}", "canceled", "client_order_id"),
	"margin_cancel_orders":   call("DELETE", "/margin/order", "canceled"),
	"futures_balances":       call("GET", "/futures/balance", ""),
	"futures_balance":        call("GET", "/futures/balance/{currency}", "", "currency"),
	"futures_fees":           call("GET", "/futures/fee", ""),
	"futures_fee":            call("GET", "/futures/fee/{symbol}", "", "symbol"),
	"futures_get_accounts":   call("GET", "/futures/account", ""),
	"futures_set_account":    call("PUT", "/futures/account/{margin_mode}/{symbol}", "", "margin_mode", "symbol"),
	"futures_close_position": call("DELETE", "/futures/position/{margin_mode}/{symbol}", "", "margin_mode", "symbol"),
	"futures_get_orders":     call("GET", "/futures/order", "status"),
	"futures_new_order":      call("POST", "/futures/order", "new"),
	"futures_new_order_list": call("POST", "/futures/order/list", "new"),
	"futures_replace_order":  call("PATCH", "/futures/order/{client_order_id}", "replaced", "client_order_id"),
	"futures_cancel_order":   call("DELETE", "/futures/order/{client_order_id}", "canceled", "client_order_id"),
	"futures_cancel_orders":  call("DELETE", "/futures/order", "canceled"),
}

// Subscription methods: what each switches on or off.
var tradingSubs = map[string]struct {
	feed string
	on   bool
}{
	"spot_subscribe":              {"spot", true},
	"spot_unsubscribe":            {"spot", false},
	"margin_subscribe":            {"margin", true},
	"margin_unsubscribe":          {"margin", false},
	"futures_subscribe":           {"futures", true},
	"futures_unsubscribe":         {"futures", false},
	"spot_balance_subscribe":      {"spot_balance", true},
	"spot_balance_unsubscribe":    {"spot_balance", false},
	"futures_balance_subscribe":   {"futures_balance", true},
	"futures_balance_unsubscribe": {"futures_balance", false},
}

// unknownFault is the method each methods fault answers as unknown.
func (s *session) unknownFault(method string) bool {
	f := s.c.srv.opts.Faults
	return (method == "spot_fee" && f.On("V3-WST-METHODS")) || (method == "margin_get_accounts" && f.On("V3-WST-METHODS-MARGIN")) ||
		(method == "futures_get_accounts" && f.On("V3-WST-METHODS-FUTURES")) || (method == "wallet_balance" && f.On("V3-WSW-METHODS"))
}

func (s *session) trading(req request) []byte {
	if s.unknownFault(req.Method) {
		return s.unknown(req)
	}
	call, isCall := tradingCalls[req.Method]
	sub, isSub := tradingSubs[req.Method]
	if !isCall && !isSub && contains(walletMethods, req.Method) && s.c.srv.opts.Faults.On("V3-WST-NO-WALLET") {
		return s.wallet(req)
	}
	if !isCall && !isSub {
		return s.unknown(req)
	}
	if s.prin == nil {
		if req.Method == "spot_balances" && s.c.srv.opts.Faults.On("V3-WST-LOGIN-FIRST") {
			return s.result([]any{}, req.ID)
		}
		return s.needLogin(req)
	}
	if isSub {
		return s.subscribe(req, sub.feed, sub.on)
	}
	params, raw, e := s.requestParams(req)
	if e != nil {
		return s.errorMsg(e, req.ID)
	}
	path := call.path
	for _, name := range call.pathParams {
		v, ok := params[name]
		if (!ok || v == "") && name == "margin_mode" {
			v, ok = "isolated", true
		}
		if !ok || v == "" {
			return s.errorMsg(api.Validation("%s is required", name), req.ID)
		}
		path = strings.Replace(path, "{"+name+"}", v, 1)
	}
	v, e := s.acc.Call(call.method, path, s.prin, raw)
	if e != nil {
		id := req.ID
		if call.report != "" && s.c.srv.opts.Faults.On("V3-WST-ERROR-ID") {
			id = nil
		}
		return s.errorMsg(e, id)
	}
	if call.report != "" {
		v = withReportType(v, call.report)
	}
	return s.result(v, req.ID)
}

// requestParams reads the scalar params (to fill path parameters) and
// applies V3-WST-CLOID-LEN.
func (s *session) requestParams(req request) (map[string]string, json.RawMessage, *api.Error) {
	out := map[string]string{}
	b := bytes.TrimSpace(req.Params)
	if len(b) == 0 || string(b) == "null" {
		return out, nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, api.Validation("params must be a JSON object: %v", err)
	}
	for k, raw := range m {
		var str string
		if json.Unmarshal(raw, &str) == nil {
			out[k] = str
		}
	}
	if cid := out["client_order_id"]; len(cid) == 7 && req.Method == "spot_new_order" && s.c.srv.opts.Faults.On("V3-WST-CLOID-LEN") {
		// The fault lets a 7-character id through by padding it.
		m["client_order_id"], _ = json.Marshal(cid + "_")
		b, _ = json.Marshal(m)
	}
	return out, b, nil
}

// withReportType adds report_type to each order of an answer, as the real
// service's answers carry it.
func withReportType(v any, report string) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var one map[string]any
	if json.Unmarshal(b, &one) == nil {
		one["report_type"] = report
		return one
	}
	var many []map[string]any
	if json.Unmarshal(b, &many) == nil {
		for _, o := range many {
			o["report_type"] = report
		}
		return many
	}
	return v
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
