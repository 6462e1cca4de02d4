package rules

const (
	secOrder        = "v3 Resources: Order"
	secSpotBalance  = "v3 Resources: Spot balance"
	secHistory      = "v3 Resources: Order history record"
	secSpot         = "v3 Endpoints: Spot trading"
	secCreateOrder  = "v3 Endpoints: Spot trading, Create order parameters"
	secOrderRules   = "v3 Endpoints: Spot trading, Rules for orders"
	secSpotHistory  = "v3 Endpoints: Spot trading, Spot order history query"
	secTransitions  = "v3 States and transitions"
	secLimitsOther  = "v3 Limits: Other limits"
	secTIFDefs      = "v3 Resources: Order (time in force definitions)"
	spotArea        = "spot"
	ambiguousStatus = "the spec gives the code but no HTTP status for it"
)

var spotRules = []Rule{
	// The Order resource.
	{ID: "V3-ORDER-FIELDS", Area: spotArea, Section: secOrder, Status: Testable,
		Statement: "An order carries id (Number), client_order_id, symbol, side, status, type, time_in_force, quantity, quantity_cumulative, price_average, post_only, created_at and updated_at with their documented types, and its optional fields have their documented types when present."},
	{ID: "V3-ORDER-TRADES", Area: spotArea, Section: secOrder, Status: Testable,
		Statement: "A trade inside an order carries id (Number), quantity, price and fee (decimals), taker (Boolean) and timestamp (DateTime)."},
	{ID: "V3-ORDER-ENUMS", Area: spotArea, Section: secOrder, Status: Testable,
		Statement: "An order's side, status, type and time_in_force take only their documented values."},

	// Create order parameters.
	{ID: "V3-SPOT-CLOID-LEN", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "client_order_id is 8 to 32 characters: 7 or 33 characters are refused with 10001, 8 and 32 accepted."},
	{ID: "V3-SPOT-CLOID-CHARSET", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "client_order_id consists of Latin letters of any case, digits, underscore and hyphen; any other character is refused with 10001."},
	{ID: "V3-SPOT-CLOID-GENERATED", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "When client_order_id is omitted the server generates one, and the order can be read back by it."},
	{ID: "V3-SPOT-CLOID-DUPLICATE", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "An order whose client_order_id matches an existing order is refused with an error, and the existing order is unchanged."},
	{ID: "V3-SPOT-CLOID-DUPLICATE-CODE", Area: spotArea, Section: secCreateOrder, Status: Ambiguous,
		Reason:    "the spec says a duplicate client_order_id is rejected but gives neither the error code nor the HTTP status",
		Statement: "The error code and HTTP status of a duplicate client_order_id."},
	{ID: "V3-SPOT-REQUIRED", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "symbol, side and quantity are required; an order without one of them is refused with 10001."},
	{ID: "V3-SPOT-SIDE", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "side is sell or buy; any other value is refused with 10001."},
	{ID: "V3-SPOT-UNKNOWN-SYMBOL", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "An order for a symbol that is not listed is refused with 2001."},
	{ID: "V3-SPOT-TYPE-DEFAULT", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "type defaults to limit."},
	{ID: "V3-SPOT-PRICE-REQUIRED", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "price is required for limit, stopLimit and takeProfitLimit orders (type must be market, stopMarket or takeProfitMarket when price is omitted); its absence is refused with 10001."},
	{ID: "V3-SPOT-STOP-PRICE-REQUIRED", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "stop_price is required for stopLimit, stopMarket, takeProfitLimit and takeProfitMarket orders; its absence is refused with 10001."},
	{ID: "V3-SPOT-TIF-DEFAULT", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "time_in_force defaults to FOK for market, stopMarket and takeProfitMarket and to GTC for limit, stopLimit and takeProfitLimit."},
	{ID: "V3-SPOT-EXPIRE-REQUIRED", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "expire_time is required when time_in_force is GTD; its absence is refused with 10001."},
	{ID: "V3-SPOT-DISPLAY-QTY", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "display_quantity accepts only the string zero; another value is refused with 10001."},
	{ID: "V3-SPOT-FEE-MARKUP", Area: spotArea, Section: secCreateOrder, Status: Testable,
		Statement: "take_rate and make_rate markups can only increase the fee: a trade with a markup is charged at least the fee it would be charged without."},
	{ID: "V3-SPOT-FEE-MARKUP-FORMULA", Area: spotArea, Section: secCreateOrder, Status: Ambiguous,
		Reason:    "the spec calls take_rate and make_rate a 'fee markup as a fraction of volume' without saying whether the markup is added to the symbol's rate or replaces it when higher",
		Statement: "How a take_rate or make_rate markup combines with the symbol's rate."},

	// Rules for orders.
	{ID: "V3-SPOT-ROUNDING", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "Without strict_validate, price and quantity are rounded half down to the symbol's tick_size and quantity_increment."},
	{ID: "V3-SPOT-STRICT-VALIDATE", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "With strict_validate true, a price not divisible by tick_size or a quantity not divisible by quantity_increment is refused with 10001; divisible values are accepted unchanged."},
	{ID: "V3-SPOT-FUNDS", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "A buy order requires a balance sufficient including fees; an order the balance cannot cover is refused with 20001 and HTTP 400."},
	{ID: "V3-SPOT-MARKET-BUY-FUNDS", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "A market buy order needs available balance above price x quantity x (1 + max(take_rate, make_rate)); at or below it is refused with 20001."},
	{ID: "V3-SPOT-FEE-CURRENCY", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "Fees are charged in the symbol's fee_currency, at take_rate for the taker and make_rate for the maker."},
	{ID: "V3-SPOT-FEE-REBATE", Area: spotArea, Section: secOrderRules, Status: Testable,
		Statement: "A negative make_rate is a rebate: the maker is paid it."},
	{ID: "V3-SPOT-RESERVE", Area: spotArea, Section: secSpotBalance, Status: Testable,
		Statement: "An active order's funds move from available to reserved, and back when it is canceled or expires."},

	// States and transitions.
	{ID: "V3-SPOT-IOC-FOK-FINAL", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "The create response of an IOC or FOK order already carries its final status, filled or expired."},
	{ID: "V3-SPOT-INSTANT-FILL", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "An instantly executable order's create response shows filled or partiallyFilled."},
	{ID: "V3-SPOT-NEW", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "A limit order that does not match rests in the book with status new."},
	{ID: "V3-SPOT-SUSPENDED", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "stopLimit, stopMarket, takeProfitLimit and takeProfitMarket orders are created suspended until their trigger, then placed in the book."},
	{ID: "V3-SPOT-CANCEL", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "DELETE /spot/order/{client_order_id} cancels a new, suspended or partiallyFilled order and answers it with status canceled."},
	{ID: "V3-SPOT-CANCEL-ALL", Area: spotArea, Section: secSpot, Status: Testable,
		Statement: "DELETE /spot/order cancels every active order (of the symbol, when given) and answers them as an array."},
	{ID: "V3-SPOT-POST-ONLY", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "A post-only order that would match as taker expires."},
	{ID: "V3-SPOT-IOC", Area: spotArea, Section: secTIFDefs, Status: Testable,
		Statement: "IOC executes immediately and the unfilled part is canceled."},
	{ID: "V3-SPOT-FOK", Area: spotArea, Section: secTIFDefs, Status: Testable,
		Statement: "FOK executes completely and immediately or not at all."},
	{ID: "V3-SPOT-GTC", Area: spotArea, Section: secTIFDefs, Status: Testable,
		Statement: "GTC stays active until filled (or canceled)."},
	{ID: "V3-SPOT-DAY", Area: spotArea, Section: secTIFDefs, Status: Testable,
		Statement: "Day keeps an order active until 23:59 UTC, after which it expires."},
	{ID: "V3-SPOT-GTD", Area: spotArea, Section: secTIFDefs, Status: Testable,
		Statement: "GTD keeps an order active until its expire_time, after which it expires."},
	{ID: "V3-SPOT-REPLACE", Area: spotArea, Section: secTransitions, Status: Testable,
		Statement: "PATCH /spot/order/{client_order_id} replaces an active order by one with new_client_order_id (and the new quantity and price), which carries original_client_order_id."},
	{ID: "V3-SPOT-REPLACE-STOP-PRICE", Area: spotArea, Section: secSpot, Status: Testable,
		Statement: "PATCH /spot/order/{client_order_id} accepts stop_price for a stop or take-profit order."},

	// Reading orders, balances and fees.
	{ID: "V3-SPOT-ACTIVE", Area: spotArea, Section: secSpot, Status: Testable,
		Statement: "GET /spot/order lists the active orders (of the symbol, when given); GET /spot/order/{client_order_id} answers one."},
	{ID: "V3-SPOT-NOT-FOUND", Area: spotArea, Section: secErrors, Status: Testable,
		Statement: "Looking up or canceling an unknown order yields 20002 Order not found."},
	{ID: "V3-SPOT-BALANCE", Area: spotArea, Section: secSpotBalance, Status: Testable,
		Statement: "GET /spot/balance answers an array of balances with currency, available, reserved, reserved_margin and cross_margin_reserved; GET /spot/balance/{currency} answers one without currency."},
	{ID: "V3-SPOT-FEE", Area: spotArea, Section: secSpot, Status: Testable,
		Statement: "GET /spot/fee answers an array of {symbol, take_rate, make_rate}; GET /spot/fee/{symbol} answers {take_rate, make_rate}."},

	// History.
	{ID: "V3-SPOT-HISTORY", Area: spotArea, Section: secSpotHistory, Status: Testable,
		Statement: "GET /spot/history/order answers order history records (fields of Order) of the caller's orders, newest first by default."},
	{ID: "V3-SPOT-HISTORY-FILTERS", Area: spotArea, Section: secSpotHistory, Status: Testable,
		Statement: "The history filters symbol (comma-separated), statuses (comma-separated), from and till select the records they name."},
	{ID: "V3-SPOT-HISTORY-CLOID", Area: spotArea, Section: secSpotHistory, Status: Testable,
		Statement: "When client_order_id is given, every other history parameter, limit and offset included, is ignored."},
	{ID: "V3-SPOT-HISTORY-PAGING", Area: spotArea, Section: secSpotHistory, Status: Testable,
		Statement: "History limit defaults to 100 (at most 1000) and offset to 0 (at most 100000); sort ASC or DESC (default DESC)."},
	{ID: "V3-SPOT-HISTORY-24H", Area: spotArea, Section: secHistory, Status: Testable,
		Statement: "Orders without executions are deleted from history after 24 hours."},
	{ID: "V3-SPOT-NOT-FOUND-STATUS", Area: spotArea, Section: secErrors, Status: Ambiguous, Reason: ambiguousStatus + " (20002 is listed as not shown)",
		Statement: "The HTTP status of 20002 Order not found."},

	// Limits.
	{ID: "V3-SPOT-LIMIT-PER-SYMBOL", Area: spotArea, Section: secLimitsOther, Status: Testable,
		Statement: "A user's active and suspended orders cannot exceed 2000 per symbol; further new orders are rejected."},
	{ID: "V3-SPOT-LIMIT-PER-USER", Area: spotArea, Section: secLimitsOther, Status: Testable,
		Statement: "A user's active and suspended orders cannot exceed 25000 across symbols; further new orders are rejected."},
	{ID: "V3-SPOT-LIMIT-CODE", Area: spotArea, Section: secLimitsOther, Status: Ambiguous,
		Reason:    "the spec says orders over the limit are rejected but gives no error code or HTTP status",
		Statement: "The error code and HTTP status of an order over the active-order limits."},
}

var spotOutOfScope = []Rule{
	{ID: "V3-OOS-SPOT-TRADE-HISTORY", Area: spotArea, Section: secSpot, Status: OutOfScope, Reason: notShown,
		Statement: "Fields of the spot trade history record (the emulator serves one shape; the suites assert none)."},
	{ID: "V3-OOS-OTHER-TRANSITIONS", Area: spotArea, Section: secTransitions, Status: OutOfScope, Reason: notShown,
		Statement: "Order status transitions other than those listed."},
	{ID: "V3-OOS-MATCHING-PRIORITY", Area: spotArea, Section: secTransitions, Status: OutOfScope,
		Reason:    "the spec does not state how resting orders are prioritised (the emulator uses price-time priority)",
		Statement: "The priority of resting orders in matching."},
	{ID: "V3-OOS-HIDDEN-VISIBILITY", Area: spotArea, Section: secCreateOrder, Status: OutOfScope,
		Reason:    "the order book endpoints are not shown, so a client cannot observe that a hidden order is not visible",
		Statement: "That a hidden order (display_quantity zero) is not visible in the order book."},
}
