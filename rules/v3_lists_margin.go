package rules

const (
	secLists        = "v3 Endpoints: Order lists (spot and margin)"
	secMargin       = "v3 Endpoints: Margin trading"
	secMarginAcct   = "v3 Resources: Margin account"
	secMarginConfig = "v3 Resources: Margin configuration record"
	secMarginTrade  = "v3 Resources: Margin trade history record"
	listsArea       = "orderlists"
	marginArea      = "margin"
)

var listRules = []Rule{
	{ID: "V3-LIST-ID", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "order_list_id is generated when omitted and, when given, must equal the client_order_id of the first order (otherwise 10001)."},
	{ID: "V3-LIST-CONTINGENCY", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "contingency_type is allOrNone, oneCancelOther, oneTriggerOther or oneTriggerOneCancelOther on spot, and only the last three on margin; another value is refused with 10001."},
	{ID: "V3-LIST-COUNT", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "A list has 2 or 3 orders for allOrNone, oneCancelOther and oneTriggerOther and exactly 3 for oneTriggerOneCancelOther; any other count is refused with 10001."},
	{ID: "V3-LIST-CLOID-DISTINCT", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "client_order_id values are distinct within a list; a list repeating one is refused."},
	{ID: "V3-LIST-AON-CONSTRAINTS", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "In an allOrNone list every symbol is unique, every type is limit or market and every time_in_force is FOK; other lists are refused with 10001."},
	{ID: "V3-LIST-OCO-CONSTRAINTS", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "oneCancelOther orders and the secondary orders of oneTriggerOneCancelOther are limit, stopLimit, stopMarket, takeProfitLimit or takeProfitMarket, with GTC, IOC or FOK (not for limit orders), Day or GTD; others are refused with 10001."},
	{ID: "V3-LIST-OTOCO-CONSTRAINTS", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "The primary order of oneTriggerOneCancelOther may also be market, and all its orders use the same symbol; a list mixing symbols is refused with 10001."},
	{ID: "V3-LIST-ORDER-RULES", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "List orders default to type limit, and price, stop_price and expire_time are required under the same conditions as for a single order."},
	{ID: "V3-LIST-RESPONSE", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "A list answer is an array of orders carrying order_list_id and contingency_type, and never carries trades."},
	{ID: "V3-LIST-ATOMIC", Area: listsArea, Section: secLists, Status: Testable,
		Statement: "A refused list creates nothing: no order of it rests and no funds stay reserved."},
	{ID: "V3-LIST-AON", Area: listsArea, Section: secTransitions, Status: Testable,
		Statement: "An allOrNone list fills every order in one transaction, or all its orders expire."},
	{ID: "V3-LIST-OCO", Area: listsArea, Section: secTransitions, Status: Testable,
		Statement: "When one order of a oneCancelOther list executes, the other orders are canceled."},
	{ID: "V3-LIST-OTO", Area: listsArea, Section: secTransitions, Status: Testable,
		Statement: "When the primary order of a oneTriggerOther list executes, the secondary orders are activated independently of each other."},
	{ID: "V3-LIST-OTOCO", Area: listsArea, Section: secTransitions, Status: Testable,
		Statement: "The secondary orders of a oneTriggerOneCancelOther list are created with inactive true and, when the primary executes, activate as a oneCancelOther pair."},
}

var marginRules = []Rule{
	{ID: "V3-MARGIN-ACCOUNT-FIELDS", Area: marginArea, Section: secMarginAcct, Status: Testable,
		Statement: "A margin account carries symbol, type (isolated or cross), created_at, updated_at, currencies (code, margin_balance, reserved_orders, reserved_positions) and positions (array or null), with leverage optional."},
	{ID: "V3-MARGIN-ACCOUNTS", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "GET /margin/account lists the margin accounts; /margin/account/isolated/{symbol} and /margin/account/cross/{currency} answer one."},
	{ID: "V3-MARGIN-PUT", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "PUT /margin/account/{margin_mode}/{instrument} with margin_balance sets the account's balance (a symbol for isolated, a currency for cross) and answers the account."},
	{ID: "V3-MARGIN-CLOSE", Area: marginArea, Section: secTransitions, Status: Testable,
		Statement: "PUT with margin_balance equal to the string zero closes the margin account and returns its reserved funds to the trading account."},
	{ID: "V3-MARGIN-PUT-STRICT", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "With strict_validate, a margin_balance in exponential format or beyond the currency's precision is refused with 10001."},
	{ID: "V3-MARGIN-SPOT-RESERVED", Area: marginArea, Section: secSpotBalance, Status: Testable,
		Statement: "Funds moved to an isolated margin account show as reserved_margin, and to a cross margin account as cross_margin_reserved, in the spot balance."},
	{ID: "V3-MARGIN-ORDER-NEEDS-ACCOUNT", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "Creating a margin order requires a margin account for the order's symbol; without one it is refused."},
	{ID: "V3-MARGIN-ORDER-MODE", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "margin_mode of a margin order is isolated or cross and defaults to isolated."},
	{ID: "V3-MARGIN-ORDERS", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "Margin orders are created, listed, read, replaced and canceled at /margin/order like spot orders, and carry reduce_only and margin_mode."},
	{ID: "V3-MARGIN-CLOSE-POSITION", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "close_position requires quantity to be omitted (given both, the order is refused with 10001); such an order closes the position."},
	{ID: "V3-MARGIN-REDUCE-ONLY", Area: marginArea, Section: secMargin, Status: Ambiguous,
		Reason:    "the spec lists reduce_only without saying what happens to a reduce-only order that would increase the position",
		Statement: "What becomes of a reduce-only order that would increase the position."},
	{ID: "V3-MARGIN-POSITION-FIELDS", Area: marginArea, Section: secMarginAcct, Status: Testable,
		Statement: "A position carries id, symbol, a signed quantity (negative when short), margin_mode, pnl, price_entry, price_margin_call, price_liquidation, created_at and updated_at."},
	{ID: "V3-MARGIN-POSITION-CLOSE", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "DELETE /margin/position/{margin_mode}/{symbol} closes the position (by a limit order when price is given, by a market order otherwise) and DELETE /margin/position closes all, answering the closed positions."},
	{ID: "V3-MARGIN-CONFIG", Area: marginArea, Section: secMarginConfig, Status: Testable,
		Statement: "GET /margin/config answers {config: [records]} with symbol, margin_call_leverage_mul, liquidation_leverage_mul, max_initial_leverage, margin_mode, force_close_fee, enabled and active, and limit_base, limit_power and unlimited_threshold only when a risk limit exists."},
	{ID: "V3-MARGIN-HISTORY-ORDER", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "GET /margin/history/order answers order history records, with client_order_id, sort, by, symbol, from, till, limit (default 100, max 1000) and offset (default 0, max 100000)."},
	{ID: "V3-MARGIN-HISTORY-TRADE", Area: marginArea, Section: secMarginTrade, Status: Testable,
		Statement: "GET /margin/history/trade answers trade records (id and order_id strings, client_order_id, symbol, side, quantity, price, fee, timestamp, taker) filtered by order_id, symbol, from and till."},
	{ID: "V3-MARGIN-RIGHTS", Area: marginArea, Section: secMargin, Status: Testable,
		Statement: "Margin reads need Orderbook, History, Trading balance and margin changes need Place/cancel orders; a key lacking the right gets 1003 with HTTP 403."},
}

var marginOutOfScope = []Rule{
	{ID: "V3-OOS-MARGIN-POSITION-HISTORY", Area: marginArea, Section: secMarginAcct, Status: OutOfScope, Reason: notShown,
		Statement: "Fields of the margin position history record."},
	{ID: "V3-OOS-MARGIN-LIQUIDATION", Area: marginArea, Section: secMarginAcct, Status: OutOfScope,
		Reason:    "the spec gives the fields price_margin_call and price_liquidation but not how they are computed or when liquidation happens",
		Statement: "How margin-call and liquidation prices are computed, and liquidation itself."},
}
