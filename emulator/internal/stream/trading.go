package stream

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/api"
)

// restCall maps a trading stream method to the REST route that does the
// same; pathParam, when set, is the parameter that goes into the path.
type restCall struct {
	method, path, pathParam string
	// report is the report_type of the orders answered (empty: the answer
	// is not orders).
	report string
	margin bool
}

// tradingCalls are the request methods of the trading stream: the ones the
// spec names and the ones the real service and its client libraries add
// (cancel, cancel all, active orders, one balance, all fees).
var tradingCalls = map[string]restCall{
	"spot_balances":         {"GET", "/spot/balance", "", "", false},
	"spot_balance":          {"GET", "/spot/balance/{currency}", "currency", "", false},
	"spot_fees":             {"GET", "/spot/fee", "", "", false},
	"spot_fee":              {"GET", "/spot/fee/{symbol}", "symbol", "", false},
	"spot_get_orders":       {"GET", "/spot/order", "", "status", false},
	"spot_new_order":        {"POST", "/spot/order", "", "new", false},
	"spot_new_order_list":   {"POST", "/spot/order/list", "", "new", false},
	"spot_replace_order":    {"PATCH", "/spot/order/{client_order_id}", "client_order_id", "replaced", false},
	"spot_cancel_order":     {"DELETE", "/spot/order/{client_order_id}", "client_order_id", "canceled", false},
	"spot_cancel_orders":    {"DELETE", "/spot/order", "", "canceled", false},
	"margin_get_accounts":   {"GET", "/margin/account", "", "", true},
	"margin_get_orders":     {"GET", "/margin/order", "", "status", true},
	"margin_new_order":      {"POST", "/margin/order", "", "new", true},
	"margin_new_order_list": {"POST", "/margin/order/list", "", "new", true},
	"margin_replace_order":  {"PATCH", "/margin/order/{client_order_id}", "client_order_id", "replaced", true},
	"margin_cancel_order":   {"DELETE", "/margin/order/{client_order_id}", "client_order_id", "canceled", true},
	"margin_cancel_orders":  {"DELETE", "/margin/order", "", "canceled", true},
}

// Subscription methods: what each switches on or off.
var tradingSubs = map[string]struct {
	feed string
	on   bool
}{
	"spot_subscribe":           {"spot", true},
	"spot_unsubscribe":         {"spot", false},
	"margin_subscribe":         {"margin", true},
	"margin_unsubscribe":       {"margin", false},
	"spot_balance_subscribe":   {"spot_balance", true},
	"spot_balance_unsubscribe": {"spot_balance", false},
}

// futuresMethods are the futures_ methods the spec names; the emulator does
// not trade futures and answers them with an error saying so.
var futuresMethods = []string{"futures_subscribe", "futures_unsubscribe", "futures_balance_subscribe", "futures_balance_unsubscribe",
	"futures_balance", "futures_balances", "futures_get_accounts", "futures_fee", "futures_fees", "futures_new_order",
	"futures_new_order_list", "futures_replace_order", "futures_cancel_order", "futures_cancel_orders", "futures_get_orders"}

// unknownFault is the method each methods fault answers as unknown.
func (s *session) unknownFault(method string) bool {
	f := s.c.srv.opts.Faults
	return (method == "spot_fee" && f.On("V3-WST-METHODS")) || (method == "margin_get_accounts" && f.On("V3-WST-METHODS-MARGIN")) ||
		(method == "wallet_balance" && f.On("V3-WSW-METHODS"))
}

func (s *session) trading(req request) []byte {
	if s.unknownFault(req.Method) {
		return s.unknown(req)
	}
	call, isCall := tradingCalls[req.Method]
	sub, isSub := tradingSubs[req.Method]
	isFutures := strings.HasPrefix(req.Method, "futures_") && contains(futuresMethods, req.Method)
	if !isCall && !isSub && !isFutures {
		return s.unknown(req)
	}
	if s.prin == nil {
		return s.needLogin(req)
	}
	switch {
	case isFutures:
		return s.errorMsg(&api.Error{Code: codeNotImplemented, Message: "Action is not allowed",
			Description: "futures trading is not implemented by the emulator"}, req.ID)
	case isSub:
		return s.subscribe(req, sub.feed, sub.on)
	}
	params, raw, e := s.requestParams(req)
	if e != nil {
		return s.errorMsg(e, req.ID)
	}
	path := call.path
	if call.pathParam != "" {
		v, ok := params[call.pathParam]
		if !ok || v == "" {
			return s.errorMsg(api.Validation("%s is required", call.pathParam), req.ID)
		}
		path = strings.Replace(path, "{"+call.pathParam+"}", v, 1)
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
