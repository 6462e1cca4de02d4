package v2shape

import (
	"github.com/conform-harness/conform/emulator/internal/call"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/shopspring/decimal"
)

// PlaceRequest reads a v2 order's parameters (the REST order and the
// trading stream's newOrder share their names) into an engine request for
// account with client order id cloid (nil: the clientOrderId parameter,
// if any). The engine applies the defaults and every order rule, as for v3.
func PlaceRequest(p call.Params, account string, cloid *string) (engine.PlaceRequest, *call.Error) {
	req := engine.PlaceRequest{Account: account, ClientOrderID: cloid}
	if req.ClientOrderID == nil {
		if v, ok := p.String("clientOrderId"); ok {
			req.ClientOrderID = &v
		}
	}
	req.Symbol, _ = p.String("symbol")
	if v, ok := p.String("side"); ok {
		s := engine.Side(v)
		req.Side = &s
	}
	if v, ok := p.String("type"); ok {
		t := engine.Type(v)
		req.Type = &t
	}
	if v, ok := p.String("timeInForce"); ok {
		t := engine.TimeInForce(v)
		req.TimeInForce = &t
	}
	for name, dst := range map[string]**decimal.Decimal{"quantity": &req.Quantity, "price": &req.Price, "stopPrice": &req.StopPrice} {
		d, ok, err := p.Decimal(name)
		if err != nil {
			return req, err
		}
		if ok {
			*dst = &d
		}
	}
	if t, ok, terr := p.Time("expireTime"); terr != nil {
		return req, terr
	} else if ok {
		req.ExpireTime = &t
	}
	var err *call.Error
	if req.StrictValidate, err = p.Bool("strictValidate", false); err != nil {
		return req, err
	}
	if req.PostOnly, err = p.Bool("postOnly", false); err != nil {
		return req, err
	}
	return req, nil
}
