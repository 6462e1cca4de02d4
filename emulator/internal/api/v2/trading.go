package v2

import (
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/shopspring/decimal"
)

// Trading over v2 REST: the v2 document leaves order placement, its records
// and the trading balance "not shown"; v2 clients call them, so the
// emulator serves them beyond the contract in the shapes of the public
// service (its v2 API reference and ccxt's v2 hitbtc class: parseOrder,
// parseTrade, parseBalance). Orders go to the one engine: an order placed
// here is the order /api/3/spot/order shows.

// orderJSON is the public service's v2 order record.
type orderJSON struct {
	ID            int64             `json:"id"`
	ClientOrderID string            `json:"clientOrderId"`
	Symbol        string            `json:"symbol"`
	Side          string            `json:"side"`
	Status        string            `json:"status"`
	Type          string            `json:"type"`
	TimeInForce   string            `json:"timeInForce"`
	Quantity      string            `json:"quantity"`
	Price         string            `json:"price,omitempty"`
	AvgPrice      string            `json:"avgPrice,omitempty"`
	CumQuantity   string            `json:"cumQuantity"`
	PostOnly      bool              `json:"postOnly"`
	StopPrice     string            `json:"stopPrice,omitempty"`
	ExpireTime    string            `json:"expireTime,omitempty"`
	CreatedAt     string            `json:"createdAt"`
	UpdatedAt     string            `json:"updatedAt"`
	TradesReport  []tradeReportJSON `json:"tradesReport,omitempty"`
}

type tradeReportJSON struct {
	ID        int64  `json:"id"`
	Quantity  string `json:"quantity"`
	Price     string `json:"price"`
	Fee       string `json:"fee"`
	Timestamp string `json:"timestamp"`
}

func decOrEmpty(d *decimal.Decimal) string {
	if d == nil {
		return ""
	}
	return d.String()
}

func newOrder(o engine.Order) orderJSON {
	out := orderJSON{ID: o.ID, ClientOrderID: o.ClientOrderID(), Symbol: o.Symbol, Side: string(o.Side), Status: string(o.Status),
		Type: string(o.Type), TimeInForce: string(o.TimeInForce), Quantity: o.Quantity.String(), Price: decOrEmpty(o.Price),
		CumQuantity: o.QuantityCumulative.String(), PostOnly: o.PostOnly, StopPrice: decOrEmpty(o.StopPrice),
		CreatedAt: v2shape.Time(o.CreatedAt), UpdatedAt: v2shape.Time(o.UpdatedAt)}
	if o.QuantityCumulative.IsPositive() {
		out.AvgPrice = o.PriceAverage.String()
	}
	if o.ExpireTime != nil {
		out.ExpireTime = v2shape.Time(*o.ExpireTime)
	}
	for _, t := range o.Trades() {
		out.TradesReport = append(out.TradesReport, tradeReportJSON{ID: t.ID, Quantity: t.Quantity.String(), Price: t.Price.String(),
			Fee: t.Fee.String(), Timestamp: v2shape.Time(t.Timestamp)})
	}
	return out
}

func orders(os []engine.Order) []orderJSON {
	out := make([]orderJSON, 0, len(os))
	for _, o := range os {
		out = append(out, newOrder(o))
	}
	return out
}

func tradingRoutes(d Deps) []api.Route {
	return []api.Route{
		{Method: "GET", Path: "/trading/balance", Right: auth.RightOrderbook, Handle: d.getTradingBalance},
		{Method: "GET", Path: "/trading/fee/{symbol}", Right: auth.RightTrading, Handle: d.getTradingFee},
		{Method: "GET", Path: "/order", Right: auth.RightOrderbook, Handle: d.getOrders},
		{Method: "GET", Path: "/order/{clientOrderId}", Right: auth.RightOrderbook, Handle: d.getOrder},
		{Method: "POST", Path: "/order", Right: auth.RightTrading, Handle: d.placeOrder},
		{Method: "PUT", Path: "/order/{clientOrderId}", Right: auth.RightTrading, Handle: d.putOrder},
		{Method: "PATCH", Path: "/order/{clientOrderId}", Right: auth.RightTrading, Handle: d.replaceOrder},
		{Method: "DELETE", Path: "/order", Right: auth.RightTrading, Handle: d.cancelOrders},
		{Method: "DELETE", Path: "/order/{clientOrderId}", Right: auth.RightTrading, Handle: d.cancelOrder},
		{Method: "GET", Path: "/history/order", Right: auth.RightOrderbook, Handle: d.orderHistory},
	}
}

func (d Deps) placeWith(r *api.Request, cloid *string) (any, *api.Error) {
	eng := d.Engine
	req, err := v2shape.PlaceRequest(r.Params, r.Principal.Account, cloid)
	if err != nil {
		return nil, err
	}
	o, perr := eng.Place(req)
	if perr != nil {
		return nil, api.EngineError(perr)
	}
	return newOrder(o), nil
}

func (d Deps) placeOrder(r *api.Request) (any, *api.Error) { return d.placeWith(r, nil) }

func (d Deps) getTradingBalance(r *api.Request) (any, *api.Error) {
	return v2shape.NewBalances(d.Ledger.Balances(r.Principal.Account)), nil
}

func (d Deps) getTradingFee(r *api.Request) (any, *api.Error) {
	s := r.PathValue("symbol")
	f, ok := d.Market.Fee(s)
	if !ok {
		return nil, symbolNotFound(s, d)
	}
	return map[string]string{"takeLiquidityRate": f.TakeRate, "provideLiquidityRate": f.MakeRate}, nil
}

func (d Deps) getOrders(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	sym, _ := r.Params.String("symbol")
	os, err := eng.Active(r.Principal.Account, sym)
	if err != nil {
		return nil, api.EngineError(err)
	}
	return orders(os), nil
}

func (d Deps) getOrder(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	o, err := eng.Get(r.Principal.Account, r.PathValue("clientOrderId"))
	if err != nil {
		return nil, api.EngineError(err)
	}
	return newOrder(o), nil
}

func (d Deps) putOrder(r *api.Request) (any, *api.Error) {
	place := d.placeWith
	cloid := r.PathValue("clientOrderId")
	return place(r, &cloid)
}

func (d Deps) replaceOrder(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	req := engine.ReplaceRequest{Account: r.Principal.Account, ClientOrderID: r.PathValue("clientOrderId")}
	if v, ok := r.Params.String("requestClientId"); ok {
		req.NewClientOrderID = &v
	}
	var err *api.Error
	if req.Quantity, err = optDecimal(r.Params, "quantity"); err != nil {
		return nil, err
	}
	if req.Price, err = optDecimal(r.Params, "price"); err != nil {
		return nil, err
	}
	if req.StopPrice, err = optDecimal(r.Params, "stopPrice"); err != nil {
		return nil, err
	}
	if req.StrictValidate, err = r.Params.Bool("strictValidate", false); err != nil {
		return nil, err
	}
	o, rerr := eng.Replace(req)
	if rerr != nil {
		return nil, api.EngineError(rerr)
	}
	return newOrder(o), nil
}

func (d Deps) cancelOrders(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	sym, _ := r.Params.String("symbol")
	os, err := eng.CancelAll(r.Principal.Account, sym)
	if err != nil {
		return nil, api.EngineError(err)
	}
	return orders(os), nil
}

func (d Deps) cancelOrder(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	o, err := eng.Cancel(r.Principal.Account, r.PathValue("clientOrderId"))
	if err != nil {
		return nil, api.EngineError(err)
	}
	return newOrder(o), nil
}

func (d Deps) orderHistory(r *api.Request) (any, *api.Error) {
	eng := d.Engine
	q := engine.HistoryQuery{Account: r.Principal.Account, DefaultSort: true}
	q.ClientOrderID, _ = r.Params.String("clientOrderId")
	if s, ok := r.Params.String("symbol"); ok && s != "" {
		q.Symbols = []string{s}
	}
	var err *api.Error
	if q.From, q.Till, err = timeBounds(r.Params); err != nil {
		return nil, err
	}
	limit, offset, err := paging(r.Params, d, pagingFaults{})
	if err != nil {
		return nil, err
	}
	q.Limit, q.Offset, q.DefaultLimit = max(limit, 0), offset, !r.Params.Has("limit")
	os, herr := eng.History(q)
	if herr != nil {
		return nil, api.EngineError(herr)
	}
	return orders(os), nil
}
