package rules

// Limit is one row of a document's limit tables as the harness reads it:
// the numbers a limit rule's sentence states, declared once here for every
// part of the harness that needs them (the limit scenarios, the clients'
// pacing). It is a reading of the document, kept apart from the emulator's
// limiter on purpose, so that a misreading there cannot hide here.
type Limit struct {
	// Rule is the catalogue ID of the limit rule.
	Rule string
	// Stream rows count messages on a stream; the others REST requests.
	Stream bool
	// PerAccount rows count per account; the others per source address.
	PerAccount bool
	// Prefixes are the path classes of the row: relative to /api/3 for
	// REST ("/" is the default row), the stream path for streams.
	Prefixes []string
	// Methods are the stream methods a per-account stream row counts
	// (Prefixes is then the stream path).
	Methods []string
	// Rate and Burst are requests (or messages) per second; one 1-second
	// sliding window holds Rate+Burst.
	Rate, Burst int
}

// Limits returns the v3 limit table rows (v3 Limits section).
func Limits() []Limit {
	ip := func(rule string, rate, burst int, prefixes ...string) Limit {
		return Limit{Rule: rule, Prefixes: prefixes, Rate: rate, Burst: burst}
	}
	return []Limit{
		// Per IP address, REST.
		ip("V3-LIMIT-IP-DEFAULT", 20, 30, "/"),
		ip("V3-LIMIT-IP-PUBLIC", 30, 50, "/public/"),
		ip("V3-LIMIT-IP-WALLET", 10, 10, "/wallet/"),
		ip("V3-LIMIT-IP-BUYCRYPTO-PROVIDER", 10, 10, "/buy-crypto/provider/"),
		ip("V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO", 10, 10, "/buy-crypto/fiat2crypto/"),
		ip("V3-LIMIT-IP-SPOT-ORDER", 300, 450, "/spot/order"),
		ip("V3-LIMIT-IP-MARGIN", 300, 450, "/margin/order", "/margin/account", "/margin/position"),
		ip("V3-LIMIT-IP-FUTURES", 300, 450, "/futures/order", "/futures/account", "/futures/position"),
		ip("V3-LIMIT-IP-TRANSFER-CONVERT", 10, 10, "/transfer-convert/config"),
		// Per IP address, streams.
		{Rule: "V3-LIMIT-WS-PUBLIC-MSG", Stream: true, Prefixes: []string{"/ws/public"}, Rate: 10, Burst: 10},
		{Rule: "V3-LIMIT-WS-TRADING-MSG", Stream: true, Prefixes: []string{"/ws/trading"}, Rate: 10, Burst: 10},
		{Rule: "V3-LIMIT-WS-WALLET-MSG", Stream: true, Prefixes: []string{"/ws/wallet"}, Rate: 10, Burst: 10},
		// Per account, REST.
		{Rule: "V3-LIMIT-ACCT-WALLET", PerAccount: true, Prefixes: []string{"/wallet/", "/transfer-convert/config"}, Rate: 20, Burst: 30},
		{Rule: "V3-LIMIT-ACCT-BUYCRYPTO", PerAccount: true, Prefixes: []string{"/buy-crypto/"}, Rate: 20, Burst: 30},
		{Rule: "V3-LIMIT-ACCT-SUBACCOUNT", PerAccount: true, Prefixes: []string{"/sub-account/"}, Rate: 20, Burst: 30},
		// Per account, stream methods.
		acctMethods("V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE", "/ws/trading", 5, 0, "login", "spot_subscribe", "spot_unsubscribe",
			"spot_balance_subscribe", "spot_balance_unsubscribe", "margin_subscribe", "margin_unsubscribe", "futures_subscribe",
			"futures_unsubscribe", "futures_balance"),
		acctMethods("V3-LIMIT-ACCT-WS-TRADING-QUERY", "/ws/trading", 20, 10, "spot_balances", "spot_fee", "margin_get_accounts",
			"futures_get_accounts", "futures_balances", "futures_fee"),
		acctMethods("V3-LIMIT-ACCT-WS-TRADING-ORDER", "/ws/trading", 300, 200, "spot_new_order", "spot_new_order_list",
			"spot_replace_order", "margin_new_order", "margin_new_order_list", "margin_replace_order", "futures_new_order",
			"futures_new_order_list", "futures_replace_order"),
		acctMethods("V3-LIMIT-ACCT-WS-WALLET-LOGIN", "/ws/wallet", 2, 10, "login"),
		acctMethods("V3-LIMIT-ACCT-WS-WALLET", "/ws/wallet", 5, 10, "subscribe_transactions", "unsubscribe_transactions",
			"subscribe_wallet_balances", "unsubscribe_wallet_balances", "wallet_balances", "wallet_balance", "transactions"),
	}
}

// acctMethods is a per-account row of a stream's method table.
func acctMethods(rule, stream string, rate, burst int, methods ...string) Limit {
	return Limit{Rule: rule, Stream: true, PerAccount: true, Prefixes: []string{stream}, Methods: methods, Rate: rate, Burst: burst}
}

// V2Limits returns the rate rows of the v2 Limits section (prefixes
// relative to /api/2). Version 2 names no burst; the harness reads that as
// none (V2-LIMIT-BURST records what a target does). The Trading row's
// requests are not shown (V2-LIMIT-TRADING): its prefixes are the paths v2
// clients trade on, which the emulator serves beyond the contract.
func V2Limits() []Limit {
	return []Limit{
		{Rule: "V2-LIMIT-MARKETDATA", Prefixes: []string{"/public/"}, Rate: 100},
		{Rule: "V2-LIMIT-TRADING", PerAccount: true, Prefixes: []string{"/order", "/trading/"}, Rate: 300},
		{Rule: "V2-LIMIT-OTHER", PerAccount: true, Prefixes: []string{"/"}, Rate: 10},
	}
}

// LimitOf returns the limit row of a limit rule, v3 or v2.
func LimitOf(rule string) (Limit, bool) {
	for _, l := range append(Limits(), V2Limits()...) {
		if l.Rule == rule {
			return l, true
		}
	}
	return Limit{}, false
}
