package spot

import (
	"fmt"
	"slices"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"github.com/shopspring/decimal"
)

// asDecimal reads a decimal.Decimal, or a decimal carried as a string.
func asDecimal(v any) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case decimal.Decimal:
		return x, true
	case string:
		if !framework.IsKind(x, framework.Decimal) {
			return decimal.Zero, false
		}
		d, err := decimal.NewFromString(x)
		return d, err == nil
	}
	return decimal.Zero, false
}

// decEqual matches a decimal (or decimal string) equal in value to want, so
// that "0.10" and "0.1" are the same price.
func decEqual(want decimal.Decimal) types.GomegaMatcher {
	shown := struct{ Want, Got string }{Want: want.String()}
	return gcustom.MakeMatcher(func(v any) (bool, error) {
		d, ok := asDecimal(v)
		if !ok {
			shown.Got = fmt.Sprintf("%#v (not a decimal)", v)
			return false, nil
		}
		shown.Got = d.String()
		return d.Equal(want), nil
	}).WithTemplate("expected a decimal equal to {{.Data.Want}}, got {{.Data.Got}}", &shown)
}

// Enumerations of the Order table.
var (
	orderSides    = []string{"sell", "buy"}
	orderStatuses = []string{"new", "suspended", "partiallyFilled", "filled", "canceled", "expired"}
	orderTypes    = []string{"limit", "market", "stopLimit", "stopMarket", "takeProfitLimit", "takeProfitMarket"}
	orderTIFs     = []string{"GTC", "IOC", "FOK", "Day", "GTD"}
)

// activeStatuses are the statuses of an order in the book or parked.
var activeStatuses = []string{"new", "suspended", "partiallyFilled"}

// orderSchema is the Order table for spot orders: the fields every order
// carries, and the optional ones (margin-only and order-list-only fields
// included, typed as documented when present).
var orderSchema = framework.Schema{
	"id":                       {Kind: framework.Number},
	"client_order_id":          {Kind: framework.String},
	"symbol":                   {Kind: framework.String},
	"side":                     {Kind: framework.String},
	"status":                   {Kind: framework.String},
	"type":                     {Kind: framework.String},
	"time_in_force":            {Kind: framework.String},
	"quantity":                 {Kind: framework.Decimal},
	"quantity_cumulative":      {Kind: framework.Decimal},
	"price":                    {Kind: framework.Decimal, Optional: true},
	"price_average":            {Kind: framework.Decimal},
	"stop_price":               {Kind: framework.Decimal, Optional: true},
	"expire_time":              {Kind: framework.DateTime, Optional: true},
	"post_only":                {Kind: framework.Bool},
	"display_quantity":         {Kind: framework.String, Optional: true},
	"original_client_order_id": {Kind: framework.String, Optional: true},
	"created_at":               {Kind: framework.DateTime},
	"updated_at":               {Kind: framework.DateTime},
	"trades":                   {Kind: framework.Array, Optional: true},
	"order_list_id":            {Kind: framework.String, Optional: true},
	"contingency_type":         {Kind: framework.String, Optional: true},
	"reduce_only":              {Kind: framework.Bool, Optional: true},
	"margin_mode":              {Kind: framework.String, Optional: true},
	"inactive":                 {Kind: framework.Bool, Optional: true},
	"position_id":              {Kind: framework.Number, Optional: true},
}

// tradeSchema is a Trade inside an order.
var tradeSchema = framework.Schema{
	"id":        {Kind: framework.Number},
	"quantity":  {Kind: framework.Decimal},
	"price":     {Kind: framework.Decimal},
	"fee":       {Kind: framework.Decimal},
	"taker":     {Kind: framework.Bool},
	"timestamp": {Kind: framework.DateTime},
}

// haveDocumentedEnums matches an order whose side, status, type and time_in_force
// take documented values.
func haveDocumentedEnums() types.GomegaMatcher {
	var bad []string
	return gcustom.MakeMatcher(func(o map[string]any) (bool, error) {
		bad = nil
		for field, set := range map[string][]string{"side": orderSides, "status": orderStatuses, "type": orderTypes, "time_in_force": orderTIFs} {
			s, ok := o[field].(string)
			if !ok || !slices.Contains(set, s) {
				bad = append(bad, fmt.Sprintf("%s: %#v is not one of %v", field, o[field], set))
			}
		}
		slices.Sort(bad)
		return len(bad) == 0, nil
	}).WithTemplate("expected the documented values of the Order table:\n{{range .Data}}  {{.}}\n{{end}}order: {{.FormattedActual}}", &bad)
}
