package rules

// streamwalletRules is the streamwallet area: the wallet stream's method
// names and its errors with the request id.
var streamwalletRules = []Rule{
	{ID: "V3-WSW-LOGIN", Area: "streamwallet", Section: secAuthStream, Status: OutOfScope, Reason: "Authentication of the v3 streaming interfaces (login message): not shown",
		Statement: "How a client logs in on the wallet stream."},
	{ID: "V3-WSW-SHAPES", Area: "streamwallet", Section: secTradingWallet, Status: OutOfScope, Reason: streamShapes,
		Statement: "The params and results of the wallet stream methods and the shape of transaction and balance notifications."},
	{ID: "V3-WSW-METHODS", Area: "streamwallet", Section: secTradingWallet, Status: Testable,
		Statement: "The wallet stream has the methods login, subscribe_transactions, unsubscribe_transactions, subscribe_wallet_balances, unsubscribe_wallet_balances, wallet_balances, wallet_balance and transactions: a request naming one is not answered as a request naming a method the stream does not have."},
	{ID: "V3-WSW-UNKNOWN-METHOD", Area: "streamwallet", Section: secErrors, Status: Testable,
		Statement: "A wallet stream request naming a method the stream does not have is answered with the streaming error object {code, message} carrying the request's id, and the connection stays open."},
	{ID: "V3-WSW-LOGIN-FIRST", Area: "streamwallet", Section: secAuth, Status: Testable,
		Statement: "Public market data needs no authentication; every other request does: on the wallet stream, wallet_balances, transactions and subscribe_wallet_balances sent before a login are answered with an error carrying the request's id, never a result."},
	{ID: "V3-WSW-NO-TRADING", Area: "streamwallet", Section: secTradingWallet, Status: Testable,
		Statement: "The trading methods are the trading stream's, not the wallet stream's (its method names are login, subscribe_transactions, ..., transactions): spot_new_order and spot_balances sent on the wallet stream after a login are answered with an error carrying the request's id, and no order is placed."},
	{ID: "V3-WSW-ERROR-CODE", Area: "streamwallet", Section: secErrors, Status: Testable,
		Statement: "Streaming errors use the error object, whose code is a Number: a wallet stream error's code is a JSON number, not a string."},
	{ID: "V3-WSW-MALFORMED", Area: "streamwallet", Section: secErrors, Status: Ambiguous,
		Reason:    "streaming errors carry the request id, but a frame that is not a JSON request has no id to carry; the document does not say whether such a frame gets an error or the connection is closed",
		Statement: "How the wallet stream answers a frame that is not a JSON request; whatever the answer, the connection is not dropped without a close frame."},
}
