package faults

// orderlistsFaults break the rules of the orderlists area (rules/orderlists.go).
var orderlistsFaults = []Fault{
	{"V3-LIST-ID", "accepts an order_list_id that differs from the first order's client_order_id"},
	{"V3-LIST-CONTINGENCY", "accepts any contingency_type: allOrNone on margin, an unknown value as oneCancelOther"},
	{"V3-LIST-COUNT", "accepts a list of any number of orders (1 to 16)"},
	{"V3-LIST-CLOID-DISTINCT", "accepts a list repeating a client_order_id"},
	{"V3-LIST-AON-CONSTRAINTS", "skips the allOrNone checks (unique symbols, limit or market, FOK)"},
	{"V3-LIST-OCO-CONSTRAINTS", "skips the type and time-in-force checks of oneCancelOther orders and OTOCO secondaries"},
	{"V3-LIST-OTOCO-CONSTRAINTS", "accepts a oneTriggerOneCancelOther list mixing symbols"},
	{"V3-LIST-ORDER-RULES", "defaults the type of list orders to market instead of limit"},
	{"V3-LIST-RESPONSE", "(api) leaves contingency_type out of the list answer"},
	{"V3-LIST-MARGIN-FIELDS", "(api) ignores display_quantity in margin list orders"},
	{"V3-LIST-ATOMIC", "places list orders one by one, so a refused list leaves the orders before the refused one"},
	{"V3-LIST-AON", "executes the allOrNone orders that can fill and expires the others"},
	{"V3-LIST-OCO", "leaves the other orders of a oneCancelOther list active when one executes"},
	{"V3-LIST-OTO", "never activates the secondaries of a oneTriggerOther list"},
	{"V3-LIST-OTOCO", "places the secondaries of a oneTriggerOneCancelOther list at once, without inactive"},
	{"V3-HISTORY-LIST-FIELDS", "leaves order_list_id and contingency_type out of spot history records"},
}
