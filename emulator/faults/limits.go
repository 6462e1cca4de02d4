package faults

// limitsFaults break the rules of the limits area (rules/limits.go).
var limitsFaults = []Fault{
	{"V3-LIMIT-WINDOW", "counts in a fixed 1-second window that starts at a key's first request, instead of a sliding one"},
	{"V3-LIMIT-429", "answers a rate-limited request with HTTP 400 instead of 429"},
	{"V3-LIMIT-PER-IP", "counts per-IP limits per API key named in the Authorization header (per IP only for anonymous requests)"},
	{"V3-LIMIT-IP-DEFAULT", "allows 49 instead of 50 requests per window on /* (default)"},
	{"V3-LIMIT-IP-PUBLIC", "allows 81 instead of 80 requests per window on /public/*"},
	{"V3-LIMIT-IP-WALLET", "allows 21 instead of 20 requests per window on /wallet/*"},
	{"V3-LIMIT-IP-BUYCRYPTO-PROVIDER", "allows 21 instead of 20 requests per window on /buy-crypto/provider/*"},
	{"V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO", "allows 21 instead of 20 requests per window on /buy-crypto/fiat2crypto/*"},
	{"V3-LIMIT-IP-SPOT-ORDER", "allows 751 instead of 750 requests per window on /spot/order/*"},
	{"V3-LIMIT-IP-MARGIN", "allows 751 instead of 750 requests per window on the margin order, account and position paths"},
	{"V3-LIMIT-IP-FUTURES", "allows 751 instead of 750 requests per window on the futures order, account and position paths"},
	{"V3-LIMIT-IP-TRANSFER-CONVERT", "allows 19 instead of 20 requests per window on /transfer-convert/config"},
	{"V3-LIMIT-PER-ACCOUNT", "counts per-account limits per API key, so two keys of one account get two budgets"},
	{"V3-LIMIT-ACCT-BUYCRYPTO", "allows 51 instead of 50 requests per window per account on /buy-crypto/*"},
	{"V3-LIMIT-ACCT-SUBACCOUNT", "allows 51 instead of 50 requests per window per account on /sub-account/*"},
	{"V3-LIMIT-WS-PUBLIC-MSG", "allows 21 instead of 20 messages per window per IP on /ws/public"},
	{"V3-LIMIT-WS-TRADING-MSG", "allows 21 instead of 20 messages per window per IP on /ws/trading"},
	{"V3-LIMIT-WS-WALLET-MSG", "allows 21 instead of 20 messages per window per IP on /ws/wallet"},
	{"V3-LIMIT-WS-CONN", "accepts a 101st WebSocket connection from one IP address"},
	{"V3-LIMIT-WS-PING", "pings WebSocket connections every 60 seconds instead of 30"},
}
