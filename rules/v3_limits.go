package rules

const (
	secLimits     = "v3 Limits"
	secConnection = "v3 Events: Connection"
	limitsArea    = "limits"

	// pendingPerAccount: an unserved path answers 404 before anyone is
	// authenticated, so nothing is counted against an account there.
	pendingPerAccount = "needs an authenticated endpoint of the class, and the wallet endpoints' request and response shapes are marked not shown, so the emulator serves none; a target that serves /wallet/balance is checked"
	// streamLogin: per-account stream limits count after a login, whose
	// shape the spec does not show.
	streamLogin = "counted per account after a stream login, whose request and response shapes are marked not shown, so a client cannot authenticate a stream to be counted"
)

// limitRules are the rate, burst and connection limits of the v3 Limits
// section and the connection rules of Events: Connection. One rule per row
// of the limit tables, so that a row enforced off by one fails on its own.
var limitRules = []Rule{
	// Semantics common to every row.
	{ID: "V3-LIMIT-WINDOW", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Limits count in a 1-second sliding window: a request counts until it is 1 second old, so after spending part of the budget the rest of it frees up exactly as the earlier requests age out, not at a fixed second boundary."},
	{ID: "V3-LIMIT-429", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "A request beyond rate plus burst in the window is answered with HTTP 429 and the documented error body {error: {code, message, description optional}}."},
	{ID: "V3-LIMIT-429-CODE", Area: limitsArea, Section: secLimits, Status: Ambiguous,
		Reason:    "the spec gives only the HTTP status of a rate-limited request, not its error code or message",
		Statement: "The error code and message of a 429 answer."},
	{ID: "V3-LIMIT-PER-IP", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per-IP limits count every request from one IP address together, whatever its credentials (none, or keys of different accounts), and each IP address has a budget of its own."},
	{ID: "V3-LIMIT-PER-ACCOUNT", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per-account limits count every request of one account together, whatever the key or IP address it comes from."},
	{ID: "V3-LIMIT-ROW-SHARED", Area: limitsArea, Section: secLimits, Status: Ambiguous,
		Reason:    "a row of the limit tables names several paths with one rate and burst (margin order, account and position; futures likewise; /wallet/* and /transfer-convert/config per account) without saying whether they share one budget or have one each",
		Statement: "Whether the paths named on one limit row share one budget."},
	{ID: "V3-LIMIT-SUSPENSION", Area: limitsArea, Section: secLimits, Status: OutOfScope,
		Reason:    "the spec says significantly exceeding rate limits can lead to suspension without saying how much is significant or what a suspension is (its length, scope and answer); no spec provokes it, since against a real target that would suspend the tester",
		Statement: "Significantly exceeding rate limits can lead to suspension."},

	// Per IP address, REST: one rule per row.
	{ID: "V3-LIMIT-IP-DEFAULT", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, REST paths of no other class (/* default) take 20 requests per second with a burst of 30: 50 in any 1-second window."},
	{ID: "V3-LIMIT-IP-PUBLIC", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /public/* takes 30 requests per second with a burst of 50: 80 in any 1-second window."},
	{ID: "V3-LIMIT-IP-WALLET", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /wallet/* takes 10 requests per second with a burst of 10: 20 in any 1-second window."},
	{ID: "V3-LIMIT-IP-BUYCRYPTO-PROVIDER", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /buy-crypto/provider/* takes 10 requests per second with a burst of 10: 20 in any 1-second window."},
	{ID: "V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /buy-crypto/fiat2crypto/* takes 10 requests per second with a burst of 10: 20 in any 1-second window."},
	{ID: "V3-LIMIT-IP-SPOT-ORDER", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /spot/order/* takes 300 requests per second with a burst of 450: 750 in any 1-second window."},
	{ID: "V3-LIMIT-IP-MARGIN", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /margin/order/*, /margin/account/* and /margin/position/* take 300 requests per second with a burst of 450: 750 in any 1-second window."},
	{ID: "V3-LIMIT-IP-FUTURES", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /futures/order/*, /futures/account/* and /futures/position/* take 300 requests per second with a burst of 450: 750 in any 1-second window."},
	{ID: "V3-LIMIT-IP-TRANSFER-CONVERT", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, /transfer-convert/config takes 10 requests per second with a burst of 10: 20 in any 1-second window."},

	// Per IP address, streams: one rule per stream.
	{ID: "V3-LIMIT-WS-PUBLIC-MSG", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, the market data stream (/ws/public) takes 10 messages per second with a burst of 10: 20 in any 1-second window, over all of the address's connections."},
	{ID: "V3-LIMIT-WS-TRADING-MSG", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, the trading stream (/ws/trading) takes 10 messages per second with a burst of 10: 20 in any 1-second window, over all of the address's connections."},
	{ID: "V3-LIMIT-WS-WALLET-MSG", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per IP address, the wallet stream (/ws/wallet) takes 10 messages per second with a burst of 10: 20 in any 1-second window, over all of the address's connections."},
	{ID: "V3-LIMIT-WS-MSG-REFUSAL", Area: limitsArea, Section: secLimits, Status: Ambiguous,
		Reason:    "the spec says an excess gets HTTP 429, which a stream message cannot carry; it does not say whether the excess message gets an error (with which code) or the connection is closed",
		Statement: "How a stream message beyond the per-IP limit is refused."},

	// Per account, REST.
	{ID: "V3-LIMIT-ACCT-WALLET", Area: limitsArea, Section: secLimits, Status: Testable, Pending: pendingPerAccount,
		Statement: "Per account, /wallet/* and /transfer-convert/config take 20 requests per second with a burst of 30: 50 in any 1-second window."},
	{ID: "V3-LIMIT-ACCT-BUYCRYPTO", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per account, /buy-crypto/* takes 20 requests per second with a burst of 30: 50 in any 1-second window."},
	{ID: "V3-LIMIT-ACCT-SUBACCOUNT", Area: limitsArea, Section: secLimits, Status: Testable,
		Statement: "Per account, /sub-account/* takes 20 requests per second with a burst of 30: 50 in any 1-second window."},

	// Per account, streams: need a stream login.
	{ID: "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE", Area: limitsArea, Section: secLimits, Status: OutOfScope, Reason: streamLogin,
		Statement: "Per account, the trading stream methods login, spot_subscribe, spot_unsubscribe, spot_balance_subscribe, spot_balance_unsubscribe, margin_subscribe, margin_unsubscribe, futures_subscribe, futures_unsubscribe and futures_balance take 5 per second with no burst."},
	{ID: "V3-LIMIT-ACCT-WS-TRADING-QUERY", Area: limitsArea, Section: secLimits, Status: OutOfScope, Reason: streamLogin,
		Statement: "Per account, the trading stream methods spot_balances, spot_fee, margin_get_accounts, futures_get_accounts, futures_balances and futures_fee take 20 per second with a burst of 10."},
	{ID: "V3-LIMIT-ACCT-WS-TRADING-ORDER", Area: limitsArea, Section: secLimits, Status: OutOfScope, Reason: streamLogin,
		Statement: "Per account, the trading stream methods new_order, new_order_list and replace_order (spot_, margin_ and futures_) take 300 per second with a burst of 200."},
	{ID: "V3-LIMIT-ACCT-WS-WALLET-LOGIN", Area: limitsArea, Section: secLimits, Status: OutOfScope, Reason: streamLogin,
		Statement: "Per account, the wallet stream login takes 2 per second with a burst of 10."},
	{ID: "V3-LIMIT-ACCT-WS-WALLET", Area: limitsArea, Section: secLimits, Status: OutOfScope, Reason: streamLogin,
		Statement: "Per account, the wallet stream methods subscribe_transactions, unsubscribe_transactions, subscribe_wallet_balances, unsubscribe_wallet_balances, wallet_balances, wallet_balance and transactions take 5 per second with a burst of 10."},

	// Connections.
	{ID: "V3-LIMIT-WS-CONN", Area: limitsArea, Section: secConnection, Status: Testable,
		Statement: "At most 100 WebSocket connections per IP address: 100 concurrent connections from one address to a stream are accepted, the 101st is refused, another address is still accepted, and a slot frees up when a connection closes."},
	{ID: "V3-LIMIT-WS-CONN-REFUSAL", Area: limitsArea, Section: secConnection, Status: Ambiguous,
		Reason:    "the spec caps connections per IP address but does not say how a connection over the cap is refused (handshake status, or a close code after the handshake)",
		Statement: "How a WebSocket connection over the per-IP cap is refused."},
	{ID: "V3-LIMIT-WS-CONN-SCOPE", Area: limitsArea, Section: secConnection, Status: Ambiguous,
		Reason:    "Events: Connection caps WebSocket connections at 100 per IP address while Limits: Other limits caps the market data stream at 100 per IP; the spec does not say whether the three streams share one cap or have one each",
		Statement: "Whether the 100-connection cap per IP address is per stream or shared by the three streams."},
	{ID: "V3-LIMIT-WS-PING", Area: limitsArea, Section: secConnection, Status: Testable,
		Statement: "The server pings a WebSocket connection every 30 seconds after it is established: a connection that only listens gets a ping within 30 seconds."},
}
