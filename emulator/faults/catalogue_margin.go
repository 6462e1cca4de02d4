package faults

// marginFaults break the order-list and margin rules. Those marked (api)
// live in the v3 handlers (emulator/internal/api/v3/lists.go, margin.go, v3.go); the
// rest in emulator/internal/engine (lists.go, margin.go).
var marginFaults = []Fault{
	// order lists
	{"V3-LIST-ID", "accepts an order_list_id that differs from the first order's client_order_id"},
	{"V3-LIST-CONTINGENCY", "accepts any contingency_type: allOrNone on margin, an unknown value as oneCancelOther"},
	{"V3-LIST-COUNT", "accepts a list of any number of orders (1 to 16)"},
	{"V3-LIST-CLOID-DISTINCT", "accepts a list repeating a client_order_id"},
	{"V3-LIST-AON-CONSTRAINTS", "skips the allOrNone checks (unique symbols, limit or market, FOK)"},
	{"V3-LIST-OCO-CONSTRAINTS", "skips the type and time-in-force checks of oneCancelOther orders and OTOCO secondaries"},
	{"V3-LIST-OTOCO-CONSTRAINTS", "accepts a oneTriggerOneCancelOther list mixing symbols"},
	{"V3-LIST-ORDER-RULES", "defaults the type of list orders to market instead of limit"},
	{"V3-LIST-RESPONSE", "(api) leaves contingency_type out of the list answer"},
	{"V3-LIST-ATOMIC", "places list orders one by one, so a refused list leaves the orders before the refused one"},
	{"V3-LIST-AON", "executes the allOrNone orders that can fill and expires the others"},
	{"V3-LIST-OCO", "leaves the other orders of a oneCancelOther list active when one executes"},
	{"V3-LIST-OTO", "never activates the secondaries of a oneTriggerOther list"},
	{"V3-LIST-OTOCO", "places the secondaries of a oneTriggerOneCancelOther list at once, without inactive"},
	// margin
	{"V3-MARGIN-ACCOUNT-FIELDS", "(api) leaves reserved_positions out of the account's currencies"},
	{"V3-MARGIN-ACCOUNTS", "(api) answers GET /margin/account with an empty array"},
	{"V3-MARGIN-PUT", "answers PUT /margin/account with the account as it was before the change"},
	{"V3-MARGIN-CLOSE", "treats margin_balance \"0\" as a no-op: the account stays open with its funds"},
	{"V3-MARGIN-PUT-STRICT", "(api) ignores strict_validate on PUT /margin/account, rounding exponent forms and extra decimals"},
	{"V3-MARGIN-SPOT-RESERVED", "(api) writes reserved_margin and cross_margin_reserved as 0 in spot balances"},
	{"V3-MARGIN-ORDER-NEEDS-ACCOUNT", "places a margin order without a margin account, opening an empty one"},
	{"V3-MARGIN-ORDER-MODE", "defaults margin_mode to cross"},
	{"V3-MARGIN-ORDERS", "(api) leaves reduce_only and margin_mode out of margin orders"},
	{"V3-MARGIN-CLOSE-POSITION", "accepts close_position with a quantity (ignoring the quantity)"},
	{"V3-MARGIN-POSITION-FIELDS", "(api) leaves price_liquidation out of positions"},
	{"V3-MARGIN-POSITION-CLOSE", "answers DELETE /margin/position without closing anything"},
	{"V3-MARGIN-CONFIG", "(api) leaves active out of the margin configuration records"},
	{"V3-MARGIN-HISTORY-ORDER", "(api) accepts limit above 1000 and offset above 100000 on /margin/history/order"},
	{"V3-MARGIN-HISTORY-TRADE", "(api) writes the id and order_id of margin trades as numbers"},
	{"V3-MARGIN-RIGHTS", "(api) serves the margin endpoints to a key with any rights"},
}
