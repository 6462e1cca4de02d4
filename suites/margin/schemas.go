package margin

import (
	"fmt"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
)

// accountSchema is the Margin account table.
var accountSchema = framework.Schema{
	"symbol":     {Kind: framework.String},
	"type":       {Kind: framework.String},
	"leverage":   {Kind: framework.Decimal, Optional: true},
	"created_at": {Kind: framework.DateTime},
	"updated_at": {Kind: framework.DateTime},
	"currencies": {Kind: framework.Array},
	"positions":  {Kind: framework.Array, Nullable: true},
}

// currencySchema is MarginCurrency.
var currencySchema = framework.Schema{
	"code":               {Kind: framework.String},
	"margin_balance":     {Kind: framework.Decimal},
	"reserved_orders":    {Kind: framework.Decimal},
	"reserved_positions": {Kind: framework.Decimal},
}

// positionSchema is Position; id is a Number or a String and is checked
// apart. "A fee_cumulative field is also carried by the position model":
// required, its type unstated beyond being a finance value (a decimal).
var positionSchema = framework.Schema{
	"symbol":            {Kind: framework.String},
	"quantity":          {Kind: framework.Decimal},
	"leverage":          {Kind: framework.Decimal, Optional: true},
	"margin_mode":       {Kind: framework.String},
	"pnl":               {Kind: framework.Decimal},
	"price_entry":       {Kind: framework.Decimal},
	"price_margin_call": {Kind: framework.Decimal},
	"price_liquidation": {Kind: framework.Decimal},
	"created_at":        {Kind: framework.DateTime},
	"updated_at":        {Kind: framework.DateTime},
	"fee_cumulative":    {Kind: framework.Decimal},
}

// tradeSchema is the Margin trade history record; id and order_id are
// Strings.
var tradeSchema = framework.Schema{
	"id":              {Kind: framework.String},
	"order_id":        {Kind: framework.String},
	"client_order_id": {Kind: framework.String},
	"symbol":          {Kind: framework.String},
	"side":            {Kind: framework.String},
	"quantity":        {Kind: framework.Decimal},
	"price":           {Kind: framework.Decimal},
	"fee":             {Kind: framework.Decimal},
	"timestamp":       {Kind: framework.DateTime},
	"taker":           {Kind: framework.Bool},
	"position_id":     {Kind: framework.Number, Optional: true},
	"pnl":             {Kind: framework.Decimal, Optional: true},
	"liquidation":     {Kind: framework.Bool, Optional: true},
}

// configSchema is the Margin configuration record.
var configSchema = framework.Schema{
	"symbol":                   {Kind: framework.String},
	"margin_call_leverage_mul": {Kind: framework.Decimal},
	"liquidation_leverage_mul": {Kind: framework.Decimal},
	"max_initial_leverage":     {Kind: framework.Decimal},
	"margin_mode":              {Kind: framework.String},
	"force_close_fee":          {Kind: framework.Decimal},
	"enabled":                  {Kind: framework.Bool},
	"active":                   {Kind: framework.Bool},
	"limit_base":               {Kind: framework.Decimal, Optional: true},
	"limit_power":              {Kind: framework.Decimal, Optional: true},
	"unlimited_threshold":      {Kind: framework.Decimal, Optional: true},
}

// matchAccount checks an account against the table: its fields, type, every
// MarginCurrency and every Position.
func matchAccount() types.GomegaMatcher {
	var problems []string
	return gcustom.MakeMatcher(func(a map[string]any) (bool, error) {
		problems = framework.SchemaProblems(a, accountSchema)
		if s, _ := a["type"].(string); s != isolated && s != cross {
			problems = append(problems, fmt.Sprintf("type: %#v is not isolated or cross", a["type"]))
		}
		for i, c := range currencies(a) {
			for _, p := range framework.SchemaProblems(c, currencySchema) {
				problems = append(problems, fmt.Sprintf("currencies[%d].%s", i, p))
			}
		}
		for i, p := range positions(a) {
			for _, q := range positionProblems(p) {
				problems = append(problems, fmt.Sprintf("positions[%d].%s", i, q))
			}
		}
		return len(problems) == 0, nil
	}).WithTemplate("expected the fields of the Margin account table:\n{{range .Data}}  {{.}}\n{{end}}account: {{.FormattedActual}}", &problems)
}

// positionProblems lists how a position departs from the Position table.
func positionProblems(p map[string]any) []string {
	out := framework.SchemaProblems(p, positionSchema)
	if !framework.IsKind(p["id"], framework.Number) && !framework.IsKind(p["id"], framework.String) {
		out = append(out, fmt.Sprintf("id: %#v is not a Number or a String", p["id"]))
	}
	if s, _ := p["margin_mode"].(string); s != isolated && s != cross {
		out = append(out, fmt.Sprintf("margin_mode: %#v is not isolated or cross", p["margin_mode"]))
	}
	return out
}
