package v3

import (
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// engineError maps an engine refusal to its documented error (shared with
// every API version).
func engineError(err error) *api.Error { return api.EngineError(err) }

// wireTime is how the emulator writes DateTime fields.
func wireTime(t time.Time) string { return market.FormatTime(t) }

// orderJSON is the Order resource, fields in the spec's order.
type orderJSON struct {
	ID                    int64       `json:"id"`
	ClientOrderID         string      `json:"client_order_id"`
	Symbol                string      `json:"symbol"`
	Side                  string      `json:"side"`
	Status                string      `json:"status"`
	Type                  string      `json:"type"`
	TimeInForce           string      `json:"time_in_force"`
	Quantity              string      `json:"quantity"`
	QuantityCumulative    string      `json:"quantity_cumulative"`
	Price                 string      `json:"price,omitempty"`
	PriceAverage          string      `json:"price_average"`
	StopPrice             string      `json:"stop_price,omitempty"`
	ExpireTime            string      `json:"expire_time,omitempty"`
	PostOnly              *bool       `json:"post_only,omitempty"`
	DisplayQuantity       *string     `json:"display_quantity,omitempty"`
	OriginalClientOrderID string      `json:"original_client_order_id,omitempty"`
	CreatedAt             string      `json:"created_at"`
	UpdatedAt             string      `json:"updated_at"`
	Trades                []tradeJSON `json:"trades,omitempty"`
}

type tradeJSON struct {
	ID        int64  `json:"id"`
	Quantity  string `json:"quantity"`
	Price     string `json:"price"`
	Fee       string `json:"fee"`
	Taker     any    `json:"taker"`
	Timestamp string `json:"timestamp"`
}

func decStr(d *decimal.Decimal) string {
	if d == nil {
		return ""
	}
	return api.FormatDecimal(*d)
}

func newOrderJSON(o engine.Order, f *faults.Set) orderJSON {
	out := orderJSON{
		ID: o.ID, ClientOrderID: o.ClientOrderID(), Symbol: o.Symbol, Side: string(o.Side), Status: string(o.Status),
		Type: string(o.Type), TimeInForce: string(o.TimeInForce), Quantity: api.FormatDecimal(o.Quantity),
		QuantityCumulative: api.FormatDecimal(o.QuantityCumulative), Price: decStr(o.Price), PriceAverage: api.FormatDecimal(o.PriceAverage),
		StopPrice: decStr(o.StopPrice), DisplayQuantity: o.DisplayQuantity, OriginalClientOrderID: o.OriginalClientOrderID,
		CreatedAt: wireTime(o.CreatedAt),
	}
	out.UpdatedAt = out.CreatedAt // a new order's, formatted once
	if !o.UpdatedAt.Equal(o.CreatedAt) {
		out.UpdatedAt = wireTime(o.UpdatedAt)
	}
	if o.ExpireTime != nil {
		out.ExpireTime = wireTime(*o.ExpireTime)
	}
	if !f.On("V3-ORDER-FIELDS") {
		postOnly := o.PostOnly
		out.PostOnly = &postOnly
	}
	if f.On("V3-ORDER-ENUMS") {
		out.TimeInForce = strings.ToLower(out.TimeInForce)
	}
	if f.On("V3-ORDER-TIMES") {
		out.UpdatedAt = wireTime(o.CreatedAt.Add(-time.Second))
	}
	if f.On("V3-ORDER-HIDDEN-DISPLAY") {
		out.DisplayQuantity = nil
	}
	if f.On("V3-ORDER-PRICE-AVERAGE") && o.Price != nil && o.QuantityCumulative.IsPositive() {
		out.PriceAverage = o.Price.String()
	}
	for _, t := range o.Trades() {
		var taker any = t.Taker
		if f.On("V3-ORDER-TRADES") {
			taker = map[bool]string{true: "true", false: "false"}[t.Taker]
		}
		out.Trades = append(out.Trades, tradeJSON{ID: t.ID, Quantity: api.FormatDecimal(t.Quantity), Price: api.FormatDecimal(t.Price),
			Fee: api.FormatDecimal(t.Fee), Taker: taker, Timestamp: wireTime(t.Timestamp)})
	}
	return out
}

// optDecimal reads an optional decimal parameter.
func optDecimal(p api.Params, name string) (*decimal.Decimal, *api.Error) {
	d, ok, err := p.Decimal(name)
	if err != nil || !ok {
		return nil, err
	}
	return new(d), nil // a copy: &d would move d to the heap for absent parameters too
}

// orderAmounts reads the amounts a new order and a replacement both take,
// in the order their errors are named: quantity, price, stop_price.
func orderAmounts(p api.Params) (quantity, price, stopPrice *decimal.Decimal, err *api.Error) {
	if quantity, err = optDecimal(p, "quantity"); err != nil {
		return nil, nil, nil, err
	}
	if price, err = optDecimal(p, "price"); err != nil {
		return nil, nil, nil, err
	}
	if stopPrice, err = optDecimal(p, "stop_price"); err != nil {
		return nil, nil, nil, err
	}
	return quantity, price, stopPrice, nil
}

func optString(p api.Params, name string) *string {
	if v, ok := p.String(name); ok {
		return new(v)
	}
	return nil
}

// placeRequest decodes POST /spot/order. Only types are checked here; the
// engine applies defaults and every order rule.
func placeRequest(r *api.Request, f *faults.Set) (engine.PlaceRequest, *api.Error) {
	p := r.Params
	req := engine.PlaceRequest{Account: r.Principal.Account, ClientOrderID: optString(p, "client_order_id"), DisplayQuantity: optString(p, "display_quantity")}
	req.Symbol, _ = p.String("symbol")
	v2Names := f.On("V3-SPOT-V2-NAMES") // version 2's clientOrderId and timeInForce read as v3's
	if req.ClientOrderID == nil && v2Names {
		req.ClientOrderID = optString(p, "clientOrderId")
	}
	if v, ok := p.String("side"); ok {
		s := engine.Side(v)
		req.Side = &s
	}
	if v, ok := p.String("type"); ok {
		t := engine.Type(v)
		if f.On("V3-SPOT-TYPE-VALUES") && !contains(orderTypes, v) {
			t = engine.Limit
		}
		req.Type = &t
	}
	tif, hasTIF := p.String("time_in_force")
	if !hasTIF && v2Names {
		tif, hasTIF = p.String("timeInForce")
	}
	if hasTIF {
		t := engine.TimeInForce(tif)
		if f.On("V3-SPOT-TIF-VALUES") && !contains(timesInForce, tif) {
			t = engine.GTC
		}
		req.TimeInForce = &t
	}
	var err *api.Error
	// One by one, not through pointers to req's fields, which would move
	// req to the heap.
	if req.Quantity, req.Price, req.StopPrice, err = orderAmounts(p); err != nil {
		return req, err
	}
	if req.TakeRate, err = optDecimal(p, "take_rate"); err != nil {
		return req, err
	}
	if req.MakeRate, err = optDecimal(p, "make_rate"); err != nil {
		return req, err
	}
	if t, ok, terr := p.Time("expire_time"); terr != nil {
		return req, terr
	} else if ok {
		req.ExpireTime = new(t)
	}
	if req.StrictValidate, err = p.Bool("strict_validate", false); err != nil {
		return req, err
	}
	if req.PostOnly, err = p.Bool("post_only", false); err != nil {
		return req, err
	}
	return req, nil
}

func replaceRequest(r *api.Request) (engine.ReplaceRequest, *api.Error) {
	p := r.Params
	req := engine.ReplaceRequest{Account: r.Principal.Account, ClientOrderID: r.PathValue("client_order_id"), NewClientOrderID: optString(p, "new_client_order_id")}
	var err *api.Error
	if req.Quantity, req.Price, req.StopPrice, err = orderAmounts(p); err != nil {
		return req, err
	}
	if req.StrictValidate, err = p.Bool("strict_validate", false); err != nil {
		return req, err
	}
	return req, nil
}

// orderTypes and timesInForce are the documented values, which only the
// faults V3-SPOT-TYPE-VALUES and V3-SPOT-TIF-VALUES consult (the engine
// refuses any other).
var (
	orderTypes   = []string{"limit", "market", "stopLimit", "stopMarket", "takeProfitLimit", "takeProfitMarket"}
	timesInForce = []string{"GTC", "IOC", "FOK", "Day", "GTD"}
)

// keepOldTerms is the fault V3-SPOT-REPLACE-REQUIRED: a replace sent
// without quantity or price takes the old order's.
func keepOldTerms(eng *engine.Engine, req *engine.ReplaceRequest) {
	old, err := eng.Get(req.Account, req.ClientOrderID)
	if err != nil {
		return
	}
	if req.Quantity == nil {
		req.Quantity = &old.Quantity
	}
	if req.Price == nil {
		req.Price = old.Price
	}
}

var historyStatuses = []string{"suspended", "new", "partiallyFilled", "filled", "canceled", "expired", "rejected"}

// historyQuery decodes the order history parameters shared by spot and
// margin: client_order_id, symbol, sort, by, from, till, limit (1 to
// maxLimit, default 100) and offset (0 to maxOffset); statuses only where
// the endpoint documents it (spot). lax, the faults V3-SPOT-HISTORY-VALUES
// and V3-MARGIN-HISTORY-VALUES, takes undocumented statuses, sort and by
// values as absent.
func historyQuery(p api.Params, account string, withStatuses bool, maxLimit, maxOffset int64, lax bool) (engine.HistoryQuery, *api.Error) {
	q := engine.HistoryQuery{Account: account, Symbols: p.List("symbol")}
	q.ClientOrderID, _ = p.String("client_order_id")
	if withStatuses {
		for _, s := range p.List("statuses") {
			if !contains(historyStatuses, s) {
				if lax {
					continue
				}
				return q, api.Validation("statuses: unknown status %q", s)
			}
			q.Statuses = append(q.Statuses, engine.Status(s))
		}
	}
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil && lax {
		sort, err = "DESC", nil
	}
	if err != nil {
		return q, err
	}
	q.SortAsc, q.DefaultSort = sort == "ASC", !p.Has("sort")
	by, err := p.Enum("by", "id", "id", "timestamp")
	if err != nil && lax {
		by, err = "id", nil
	}
	if err != nil {
		return q, err
	}
	q.ByTimestamp = by == "timestamp"
	for name, dst := range map[string]**time.Time{"from": &q.From, "till": &q.Till} {
		t, ok, terr := p.Time(name)
		if terr != nil {
			return q, terr
		}
		if ok {
			*dst = &t
		}
	}
	limit, err := p.Int("limit", 100, 1, maxLimit)
	if err != nil {
		return q, err
	}
	offset, err := p.Int("offset", 0, 0, maxOffset)
	if err != nil {
		return q, err
	}
	q.Limit, q.Offset, q.DefaultLimit = int(limit), int(offset), !p.Has("limit")
	return q, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func spotOrderRoutes(d Deps) []api.Route {
	f := d.Faults
	historyRight := auth.RightOrderbook
	if f.On("V3-SPOT-RIGHTS") {
		historyRight = auth.RightTrading
	}
	return []api.Route{
		{Method: "GET", Path: "/spot/order", Right: auth.RightOrderbook, Handle: d.getSpotOrders},
		{Method: "GET", Path: "/spot/order/{client_order_id}", Right: auth.RightOrderbook, Handle: d.getSpotOrder},
		{Method: "POST", Path: "/spot/order", Right: auth.RightTrading, Handle: d.placeSpotOrder},
		{Method: "PATCH", Path: "/spot/order/{client_order_id}", Right: auth.RightTrading, Handle: d.replaceSpotOrder},
		{Method: "DELETE", Path: "/spot/order", Right: auth.RightTrading, Handle: d.cancelSpotOrders},
		{Method: "DELETE", Path: "/spot/order/{client_order_id}", Right: auth.RightTrading, Handle: d.cancelSpotOrder},
		{Method: "GET", Path: "/spot/history/order", Right: historyRight, Handle: d.spotOrderHistory},
		// Spot trade history: its shape is not shown in the spec; the
		// emulator serves the engine's trade records and no spec asserts them.
		{Method: "GET", Path: "/spot/history/trade", Right: auth.RightOrderbook, Handle: d.spotTradeHistory},
	}
}

func (d Deps) getSpotOrders(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	sym, _ := r.Params.String("symbol")
	os, err := eng.Active(r.Principal.Account, sym)
	if err != nil {
		return nil, engineError(err)
	}
	return fullOrdersJSON(os, f, false), nil
}

func (d Deps) getSpotOrder(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	o, err := eng.Get(r.Principal.Account, r.PathValue("client_order_id"))
	if err != nil {
		return nil, engineError(err)
	}
	return newFullOrderJSON(o, f, false), nil
}

func (d Deps) placeSpotOrder(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	req, perr := placeRequest(r, f)
	if perr != nil {
		return nil, perr
	}
	o, err := eng.Place(req)
	if err != nil {
		return nil, engineError(err)
	}
	return newFullOrderJSON(o, f, false), nil
}

func (d Deps) replaceSpotOrder(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	req, perr := replaceRequest(r)
	if perr != nil {
		return nil, perr
	}
	if f.On("V3-SPOT-REPLACE-STRICT") {
		req.StrictValidate = false
	}
	if f.On("V3-SPOT-REPLACE-REQUIRED") {
		keepOldTerms(eng, &req)
	}
	o, err := eng.Replace(req)
	if err != nil {
		return nil, engineError(err)
	}
	return newFullOrderJSON(o, f, false), nil
}

func (d Deps) cancelSpotOrders(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	sym, _ := r.Params.String("symbol")
	os, err := eng.CancelAll(r.Principal.Account, sym)
	if err != nil {
		return nil, engineError(err)
	}
	return fullOrdersJSON(os, f, false), nil
}

func (d Deps) cancelSpotOrder(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	o, err := eng.Cancel(r.Principal.Account, r.PathValue("client_order_id"))
	if err != nil {
		return nil, engineError(err)
	}
	return newFullOrderJSON(o, f, false), nil
}

func (d Deps) spotOrderHistory(r *api.Request) (any, *api.Error) {
	eng, f := d.Engine, d.Faults
	q, perr := historyQuery(r.Params, r.Principal.Account, true, 1000, 100000, f.On("V3-SPOT-HISTORY-VALUES"))
	if perr != nil {
		return nil, perr
	}
	os, err := eng.History(q)
	if err != nil {
		return nil, engineError(err)
	}
	out := fullOrdersJSON(os, f, false)
	if f.On("V3-HISTORY-LIST-FIELDS") {
		for i := range out {
			out[i].OrderListID, out[i].ContingencyType = "", ""
		}
	}
	return out, nil
}

func (d Deps) spotTradeHistory(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	sym, _ := r.Params.String("symbol")
	limit, err := r.Params.Int("limit", 100, 1, 1000)
	if err != nil {
		return nil, err
	}
	return eng.Trades(r.Principal.Account, sym, int(limit)), nil
}
