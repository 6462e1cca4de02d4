package rules

// Sections of the trading and wallet streams.
const (
	secTradingWallet = "v3 Events: Trading and wallet streams"
	secAuthStream    = "v3 Authentication (streaming interfaces)"
	// streamShapes: what the document says of both streams' messages.
	streamShapes = "the request, response and notification shapes of the trading and wallet streams are marked not shown; the emulator serves the real service's shapes (docs/emulator.md, beyond the contract)"
)

// streamtradingRules is the streamtrading area of the catalogue: what the
// document gives of the trading stream (method names, the request form,
// FIFO execution, a notification per order update, errors with the id).
// Its specs log in with the real service's login message, which the
// document does not show (V3-WST-LOGIN).
var streamtradingRules = []Rule{
	{ID: "V3-WST-LOGIN", Area: "streamtrading", Section: secAuthStream, Status: OutOfScope, Reason: "Authentication of the v3 streaming interfaces (login message): not shown",
		Statement: "How a client logs in on the trading stream (the login request's params and its answer)."},
	{ID: "V3-WST-SHAPES", Area: "streamtrading", Section: secTradingWallet, Status: OutOfScope, Reason: streamShapes,
		Statement: "The params of each trading stream method, its result, and the shape of order and balance notifications."},
	{ID: "V3-WST-METHODS", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The trading stream has the methods login, spot_subscribe, spot_unsubscribe, spot_balance_subscribe, spot_balance_unsubscribe, spot_balances, spot_fee, spot_new_order, spot_new_order_list and spot_replace_order: a request {method, params, id} naming one is not answered as a request naming a method the stream does not have."},
	{ID: "V3-WST-METHODS-MARGIN", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The trading stream has the margin methods margin_subscribe, margin_unsubscribe, margin_get_accounts, margin_new_order, margin_new_order_list and margin_replace_order: a request naming one is not answered as a request naming a method the stream does not have."},
	{ID: "V3-WST-METHODS-FUTURES", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The trading stream has the futures methods futures_subscribe, futures_unsubscribe, futures_balance, futures_balances, futures_get_accounts, futures_fee, futures_new_order, futures_new_order_list and futures_replace_order: a request naming one is not answered as a request naming a method the stream does not have."},
	{ID: "V3-WST-UNKNOWN-METHOD", Area: "streamtrading", Section: secErrors, Status: Testable,
		Statement: "A trading stream request naming a method the stream does not have is answered with the streaming error object {code, message} carrying the request's id, and the connection stays open."},
	{ID: "V3-WST-LOGIN-FIRST", Area: "streamtrading", Section: secAuth, Status: Testable,
		Statement: "Public market data needs no authentication; every other request does: on the trading stream, spot_balances, spot_fee and spot_subscribe sent before a login are answered with an error carrying the request's id, never a result."},
	{ID: "V3-WST-NO-WALLET", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The wallet methods are the wallet stream's, not the trading stream's (its method names are login, spot_..., margin_... and futures_...): wallet_balances and transactions sent on the trading stream after a login are answered with an error carrying the request's id, never a result."},
	{ID: "V3-WST-ERROR-ID", Area: "streamtrading", Section: secErrors, Status: Testable,
		Statement: "A trading stream request that fails (spot_replace_order of an order that does not exist) is answered with the error object {code Number, message String, description optional} carrying the request's id."},
	{ID: "V3-WST-FIFO", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "Trading requests are executed first in, first out: sent back to back without waiting, a new order, a replace of it and a replace of the replacement all succeed, and their answers come in the order sent."},
	{ID: "V3-WST-NOTIFY-NEW", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update: after spot_subscribe, placing an order (over the stream) brings a notification (a message answering no request) naming its client_order_id."},
	{ID: "V3-WST-NOTIFY-REPLACE", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update: replacing a subscribed account's order brings a notification naming the new client_order_id."},
	{ID: "V3-WST-NOTIFY-CANCEL", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update: canceling a subscribed account's order (over REST too) brings a notification naming its client_order_id."},
	{ID: "V3-WST-NOTIFY-FILL", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update: a trade that fills a subscribed account's resting order brings a notification naming its client_order_id."},
	{ID: "V3-WST-NOTIFY-EXPIRE", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update: an IOC order that finds nothing to match expires, and that brings a notification naming its client_order_id."},
	{ID: "V3-WST-NOTIFY-MARGIN", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "The server notifies of every order update, margin orders too: after margin_subscribe, placing a margin order on an isolated margin account and canceling it each bring a notification naming its client_order_id."},
	{ID: "V3-WST-SUBSCRIBE-SEPARATE", Area: "streamtrading", Section: secTradingWallet, Status: Testable,
		Statement: "spot_subscribe and margin_subscribe are the spot and the margin counterparts: a connection subscribed with spot_subscribe alone gets no notification of a margin order, and one subscribed with margin_subscribe alone none of a spot order, while each gets its own venue's."},
	{ID: "V3-WST-MALFORMED", Area: "streamtrading", Section: secErrors, Status: Ambiguous,
		Reason:    "streaming errors carry the request id, but a frame that is not a JSON request has no id to carry; the document does not say whether such a frame gets an error (without an id) or the connection is closed (with which close code)",
		Statement: "How the trading stream answers a frame that is not a JSON request; whatever the answer, the connection is not dropped without a close frame."},
	{ID: "V3-WST-CLOID-LEN", Area: "streamtrading", Section: secLimitsOther, Status: Testable,
		Statement: "Other limits (client_order_id length 8 to 32) hold for orders placed over the trading stream: spot_new_order with a 7-character client_order_id is refused with an error carrying the request's id and creates no order."},
}
