package v3

import (
	"slices"
	"strconv"

	"github.com/conform-harness/conform/emulator/internal/api"
)

// The Order resource writes its own JSON (api.JSONAppender): it is the
// answer of every order placed, and encoding/json's reflection was a
// large share of the emulator's cost per order. TestOrderJSONAppend holds
// each method to encoding/json's bytes.

// appendKey appends ,"key": (no comma before the first field).
func appendKey(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendStr(b []byte, key, v string) []byte { return api.AppendString(appendKey(b, key), v) }

func appendOptStr(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendStr(b, key, v)
}

func appendOptBool(b []byte, key string, v *bool) []byte {
	if v == nil {
		return b
	}
	return strconv.AppendBool(appendKey(b, key), *v)
}

// appendFields appends the fields of the Order resource, without braces.
func (o orderJSON) appendFields(b []byte) []byte {
	b = strconv.AppendInt(appendKey(b, "id"), o.ID, 10)
	b = appendStr(b, "client_order_id", o.ClientOrderID)
	b = appendStr(b, "symbol", o.Symbol)
	b = appendStr(b, "side", o.Side)
	b = appendStr(b, "status", o.Status)
	b = appendStr(b, "type", o.Type)
	b = appendStr(b, "time_in_force", o.TimeInForce)
	b = appendStr(b, "quantity", o.Quantity)
	b = appendStr(b, "quantity_cumulative", o.QuantityCumulative)
	b = appendOptStr(b, "price", o.Price)
	b = appendStr(b, "price_average", o.PriceAverage)
	b = appendOptStr(b, "stop_price", o.StopPrice)
	b = appendOptStr(b, "expire_time", o.ExpireTime)
	b = appendOptBool(b, "post_only", o.PostOnly)
	if o.DisplayQuantity != nil {
		b = appendStr(b, "display_quantity", *o.DisplayQuantity)
	}
	b = appendOptStr(b, "original_client_order_id", o.OriginalClientOrderID)
	b = appendStr(b, "created_at", o.CreatedAt)
	b = appendStr(b, "updated_at", o.UpdatedAt)
	if len(o.Trades) > 0 {
		b = append(appendKey(b, "trades"), '[')
		for i, t := range o.Trades {
			if i > 0 {
				b = append(b, ',')
			}
			b = t.AppendJSON(b)
		}
		b = append(b, ']')
	}
	return b
}

// AppendJSON implements api.JSONAppender.
func (o orderJSON) AppendJSON(b []byte) []byte { return append(o.appendFields(append(b, '{')), '}') }

// AppendJSON implements api.JSONAppender.
func (t tradeJSON) AppendJSON(b []byte) []byte {
	b = strconv.AppendInt(appendKey(append(b, '{'), "id"), t.ID, 10)
	b = appendStr(b, "quantity", t.Quantity)
	b = appendStr(b, "price", t.Price)
	b = appendStr(b, "fee", t.Fee)
	b = appendKey(b, "taker")
	switch v := t.Taker.(type) {
	case bool:
		b = strconv.AppendBool(b, v)
	case string:
		b = api.AppendString(b, v)
	default:
		b = api.AppendAny(b, v)
	}
	b = appendStr(b, "timestamp", t.Timestamp)
	return append(b, '}')
}

// AppendJSON implements api.JSONAppender.
func (o fullOrderJSON) AppendJSON(b []byte) []byte {
	b = o.appendFields(append(b, '{'))
	b = appendOptStr(b, "order_list_id", o.OrderListID)
	b = appendOptStr(b, "contingency_type", o.ContingencyType)
	b = appendOptBool(b, "inactive", o.Inactive)
	b = appendOptBool(b, "reduce_only", o.ReduceOnly)
	b = appendOptStr(b, "margin_mode", o.MarginMode)
	if o.PositionID != nil {
		b = strconv.AppendInt(appendKey(b, "position_id"), *o.PositionID, 10)
	}
	return append(b, '}')
}

// fullOrders is a list of orders (never nil: an empty list is []).
type fullOrders []fullOrderJSON

// AppendJSON implements api.JSONAppender.
func (os fullOrders) AppendJSON(b []byte) []byte {
	if os == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, o := range os {
		if i > 0 {
			b = append(b, ',')
		}
		start := len(b)
		b = o.AppendJSON(b)
		if i == 0 && len(os) > 1 { // room for the rest at once, orders being of a size
			b = slices.Grow(b, (len(b)-start+64)*(len(os)-1))
		}
	}
	return append(b, ']')
}
