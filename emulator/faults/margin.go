package faults

// marginFaults break the rules of the margin area (rules/margin.go).
var marginFaults = []Fault{
	{"V3-MARGIN-ACCOUNT-FIELDS", "(api) leaves reserved_positions out of the account's currencies"},
	{"V3-MARGIN-ACCOUNTS", "(api) answers GET /margin/account with an empty array"},
	{"V3-MARGIN-PUT", "answers PUT /margin/account with the account as it was before the change"},
	{"V3-MARGIN-CLOSE", "treats margin_balance \"0\" as a no-op: the account stays open with its funds"},
	{"V3-MARGIN-PUT-FUNDS", "refuses a margin_balance the spot balance cannot supply with 10001 instead of 20001"},
	{"V3-MARGIN-PUT-STRICT", "(api) ignores strict_validate on PUT /margin/account, rounding exponent forms and extra decimals"},
	{"V3-MARGIN-SPOT-RESERVED", "(api) writes reserved_margin and cross_margin_reserved as 0 in spot balances"},
	{"V3-MARGIN-ORDER-NEEDS-ACCOUNT", "places a margin order without a margin account, opening an empty one"},
	{"V3-MARGIN-ORDER-MODE", "defaults margin_mode to cross"},
	{"V3-MARGIN-ORDERS", "(api) leaves reduce_only and margin_mode out of margin orders"},
	{"V3-MARGIN-REPLACE-STRICT", "(api) ignores strict_validate on PATCH /margin/order/{client_order_id}, rounding the price"},
	{"V3-MARGIN-CLOSE-POSITION", "accepts close_position with a quantity (ignoring the quantity)"},
	{"V3-MARGIN-CLOSE-POSITION-CANCELED", "executes a triggered close_position order whose position is gone at the size it had when placed, opening a position"},
	{"V3-MARGIN-POSITION-FIELDS", "(api) leaves price_liquidation out of positions"},
	{"V3-MARGIN-POSITION-CLOSE", "answers DELETE /margin/position without closing anything"},
	{"V3-MARGIN-POSITION-CLOSE-STRICT", "(api) ignores strict_validate when closing a position, rounding the price"},
	{"V3-MARGIN-CONFIG", "(api) leaves active out of the margin configuration records"},
	{"V3-MARGIN-HISTORY-ORDER", "(api) accepts limit above 1000 and offset above 100000 on /margin/history/order"},
	{"V3-MARGIN-HISTORY-TRADE", "(api) writes the id and order_id of margin trades as numbers"},
	{"V3-MARGIN-RIGHTS", "(api) serves the margin endpoints to a key with any rights"},
	{"V3-MARGIN-HISTORY-VALUES", "takes an undocumented sort or by value of the margin order history as absent"},
	{"V3-MARGIN-NOT-FOUND", "answers an unknown margin order with 10001 instead of 20002"},
	{"V3-MARGIN-HISTORY-TRADE-PAGING", "ignores offset on the margin trade history"},
	{"V3-MARGIN-ORDER-PARAMS", "takes a margin order of an undocumented type as a limit order"},
}
