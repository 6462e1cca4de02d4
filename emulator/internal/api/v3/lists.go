package v3

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/shopspring/decimal"
)

// fullOrderJSON is the Order resource with the fields that order lists and
// margin orders add (spec: Resources, Order), each left out where it does
// not apply.
type fullOrderJSON struct {
	orderJSON
	OrderListID     string `json:"order_list_id,omitempty"`
	ContingencyType string `json:"contingency_type,omitempty"`
	Inactive        *bool  `json:"inactive,omitempty"`
	ReduceOnly      *bool  `json:"reduce_only,omitempty"`
	MarginMode      string `json:"margin_mode,omitempty"`
	PositionID      *int64 `json:"position_id,omitempty"`
}

// newFullOrderJSON shapes an engine order; margin adds reduce_only and
// margin_mode (and position_id once it traded).
func newFullOrderJSON(o engine.Order, f *faults.Set, margin bool) fullOrderJSON {
	out := fullOrderJSON{orderJSON: newOrderJSON(o, f)}
	out.OrderListID, out.ContingencyType = o.OrderListID, string(o.ContingencyType)
	if out.OrderListID == "" && f.On("V3-ORDER-LIST-FIELDS") {
		out.OrderListID = o.ClientOrderID()
	}
	if o.Inactive {
		t := true
		out.Inactive = &t
	}
	if margin && !f.On("V3-MARGIN-ORDERS") {
		ro := o.ReduceOnly
		out.ReduceOnly, out.MarginMode = &ro, o.MarginMode
	}
	if margin && o.PositionID != 0 {
		id := o.PositionID
		out.PositionID = &id
	}
	return out
}

func fullOrdersJSON(os []engine.Order, f *faults.Set, margin bool) fullOrders {
	out := make(fullOrders, 0, len(os))
	for _, o := range os {
		out = append(out, newFullOrderJSON(o, f, margin))
	}
	return out
}

// listRoutes serves POST /spot/order/list; POST /margin/order/list is
// among the margin routes.
func listRoutes(d Deps) []api.Route {
	return []api.Route{
		{Method: "POST", Path: "/spot/order/list", Right: auth.RightTrading, Handle: d.placeSpotOrderList},
	}
}

func placeList(d Deps, r *api.Request, margin, futures bool) (any, *api.Error) {
	req, perr := listRequest(r, margin)
	if perr != nil {
		return nil, perr
	}
	req.Futures = futures
	if margin && d.Faults.On("V3-LIST-MARGIN-FIELDS") {
		for i := range req.Orders {
			req.Orders[i].DisplayQuantity = nil
		}
	}
	os, err := d.Engine.PlaceList(req)
	if err != nil {
		return nil, engineError(err)
	}
	out := fullOrdersJSON(os, d.Faults, margin)
	for i := range out {
		out[i].Trades = nil // never in a list answer
		if d.Faults.On("V3-LIST-RESPONSE") {
			out[i].ContingencyType = ""
		}
	}
	return out, nil
}

// listRequest decodes an order list body. Lists are sent as JSON
// (Conventions 3): a body sent any other way has no orders array and is
// refused, as are orders that are not objects and fields of the wrong JSON
// type. Unknown fields are ignored, as on single orders.
func listRequest(r *api.Request, margin bool) (engine.ListRequest, *api.Error) {
	p := r.Params
	req := engine.ListRequest{Account: r.Principal.Account, Margin: margin, OrderListID: optString(p, "order_list_id")}
	req.ContingencyType, _ = p.String("contingency_type")
	raw, ok := p.Raw("orders")
	if !ok {
		if p.Has("orders") {
			return req, api.Validation("orders must be a JSON array of orders (send the list as a JSON body)")
		}
		return req, api.Validation("orders is required: send the list as a JSON body with an orders array")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var items []json.RawMessage
	if err := dec.Decode(&items); err != nil {
		return req, api.Validation("orders must be a JSON array of orders")
	}
	if len(items) > 16 {
		// Far above any valid count; refused before decoding the items.
		return req, api.Validation("a list has 2 or 3 orders, not %d", len(items))
	}
	for i, it := range items {
		o, err := listOrder(it, i, margin)
		if err != nil {
			return req, err
		}
		o.Account = req.Account
		req.Orders = append(req.Orders, o)
	}
	return req, nil
}

// listOrder decodes one list order.
func listOrder(raw json.RawMessage, i int, margin bool) (engine.PlaceRequest, *api.Error) {
	var req engine.PlaceRequest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return req, api.Validation("orders[%d] must be a JSON object", i)
	}
	f := listFields{obj: obj, i: i}
	req.ClientOrderID = f.str("client_order_id")
	if s := f.str("symbol"); s != nil {
		req.Symbol = *s
	}
	if s := f.str("side"); s != nil {
		side := engine.Side(*s)
		req.Side = &side
	}
	if s := f.str("type"); s != nil {
		t := engine.Type(*s)
		req.Type = &t
	}
	if s := f.str("time_in_force"); s != nil {
		t := engine.TimeInForce(*s)
		req.TimeInForce = &t
	}
	req.Quantity = f.dec("quantity")
	req.Price = f.dec("price")
	req.StopPrice = f.dec("stop_price")
	req.TakeRate = f.dec("take_rate")
	req.MakeRate = f.dec("make_rate")
	if s := f.scalar("expire_time"); s != nil && f.err == nil {
		t, err := api.ParseTime(*s)
		if err != nil {
			f.fail("orders[%d].expire_time: %v", i, err)
		}
		req.ExpireTime = &t
	}
	req.StrictValidate = f.boolean("strict_validate")
	req.PostOnly = f.boolean("post_only")
	if margin {
		req.DisplayQuantity = f.str("display_quantity")
		mp := &engine.MarginParams{ReduceOnly: f.boolean("reduce_only"), ClosePosition: f.boolean("close_position")}
		if s := f.str("margin_mode"); s != nil {
			mp.Mode = *s
		}
		req.Margin = mp
	}
	if f.err != nil {
		return req, f.err
	}
	return req, nil
}

// listFields reads typed fields of one list order, keeping the first error.
type listFields struct {
	obj map[string]json.RawMessage
	i   int
	err *api.Error
}

func (f *listFields) fail(format string, args ...any) {
	if f.err == nil {
		f.err = api.Validation(format, args...)
	}
}

// get returns a field's JSON value; nil when absent or null.
func (f *listFields) get(name string) json.RawMessage {
	v := bytes.TrimSpace(f.obj[name])
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}

// str reads a JSON string field.
func (f *listFields) str(name string) *string {
	v := f.get(name)
	if v == nil {
		return nil
	}
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		f.fail("orders[%d].%s must be a string", f.i, name)
		return nil
	}
	return &s
}

// scalar reads a string or a number as its text.
func (f *listFields) scalar(name string) *string {
	v := f.get(name)
	if v == nil {
		return nil
	}
	if v[0] == '"' {
		return f.str(name)
	}
	if v[0] == '-' || (v[0] >= '0' && v[0] <= '9') {
		s := string(v)
		return &s
	}
	f.fail("orders[%d].%s must be a number or a string", f.i, name)
	return nil
}

// dec reads a decimal given as a string or a number.
func (f *listFields) dec(name string) *decimal.Decimal {
	s := f.scalar(name)
	if s == nil {
		return nil
	}
	d, err := api.ParseDecimal(*s)
	if err != nil {
		f.fail("orders[%d].%s: %v", f.i, name, err)
		return nil
	}
	return &d
}

// boolean reads a JSON boolean (or the strings "true" and "false").
func (f *listFields) boolean(name string) bool {
	v := f.get(name)
	if v == nil {
		return false
	}
	s := strings.Trim(string(v), `"`)
	b, err := strconv.ParseBool(s)
	if err != nil || (s != "true" && s != "false") {
		f.fail("orders[%d].%s must be true or false", f.i, name)
		return false
	}
	return b
}

func (d Deps) placeSpotOrderList(r *api.Request) (any, *api.Error) {
	return placeList(d, r, false, false)
}
