package trading

import (
	"fmt"
	"maps"
	"slices"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
)

// OrderSchema is the Order table as every order carries it: the fields of
// all orders, and the optional ones (margin-only and order-list-only fields
// included, typed as documented when present). Order history records have
// it too.
var OrderSchema = framework.Schema{
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

// MarginOrderSchema is the Order table as margin orders carry it:
// reduce_only and margin_mode are required ("margin orders").
var MarginOrderSchema = func() framework.Schema {
	s := maps.Clone(OrderSchema)
	s["reduce_only"] = framework.Field{Kind: framework.Bool}
	s["margin_mode"] = framework.Field{Kind: framework.String}
	return s
}()

// OrderSchemaOf is the Order table as orders of venue v carry it.
func OrderSchemaOf(v Venue) framework.Schema {
	if v == Margin {
		return MarginOrderSchema
	}
	return OrderSchema
}

// Enumerations of the Order table.
var (
	OrderSides    = []string{"sell", "buy"}
	OrderStatuses = []string{"new", "suspended", "partiallyFilled", "filled", "canceled", "expired"}
	OrderTypes    = []string{"limit", "market", "stopLimit", "stopMarket", "takeProfitLimit", "takeProfitMarket"}
	OrderTIFs     = []string{"GTC", "IOC", "FOK", "Day", "GTD"}
)

// HaveDocumentedEnums matches an order whose side, status, type and
// time_in_force take documented values.
func HaveDocumentedEnums() types.GomegaMatcher {
	var bad []string
	return gcustom.MakeMatcher(func(o map[string]any) (bool, error) {
		bad = nil
		for field, set := range map[string][]string{"side": OrderSides, "status": OrderStatuses, "type": OrderTypes, "time_in_force": OrderTIFs} {
			s, ok := o[field].(string)
			if !ok || !slices.Contains(set, s) {
				bad = append(bad, fmt.Sprintf("%s: %#v is not one of %v", field, o[field], set))
			}
		}
		slices.Sort(bad)
		return len(bad) == 0, nil
	}).WithTemplate("expected the documented values of the Order table:\n{{range .Data}}  {{.}}\n{{end}}order: {{.FormattedActual}}", &bad)
}

// HaveValueIn matches an object whose string field k is one of values.
func HaveValueIn(k string, values ...string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(o map[string]any) (bool, error) {
		s, ok := o[k].(string)
		return ok && slices.Contains(values, s), nil
	}).WithTemplate(fmt.Sprintf("expected field %s to be one of %v\nobject: {{.FormattedActual}}", k, values))
}
