package faults

// authFaults break the rules of the auth area (rules/auth.go).
var authFaults = []Fault{
	{"V3-AUTH-PUBLIC", "demands credentials for public market data"},
	{"V3-AUTH-REQUIRED", "serves the private endpoints outside the Spot and Margin tables (sub-accounts, buy crypto) without credentials"},
	{"V3-AUTH-BASIC", "refuses valid Basic credentials"},
	{"V3-AUTH-BASIC-FAIL", "accepts Basic credentials whatever the secret"},
	{"V3-AUTH-HS256", "signs the message without the ?query part, refusing correctly signed requests that have a query"},
	{"V3-AUTH-HS256-WINDOW", "leaves the window out of the signed message"},
	{"V3-AUTH-HS256-BODY", "leaves the body out of the signed message"},
	{"V3-AUTH-HS256-FAIL", "accepts any HS256 signature"},
	{"V3-AUTH-UNKNOWN-KEY", "answers an unknown API key with 1003 and HTTP 403"},
	{"V3-AUTH-MALFORMED", "answers a malformed Authorization header with 10001 and HTTP 400"},
	{"V3-AUTH-RIGHTS", "guards /spot/fee/{symbol} with Orderbook, History, Trading balance instead of Place/cancel orders"},
	{"V3-AUTH-RIGHT-ALONE-ORDERBOOK", "lets a key holding Payment information alone pass where Orderbook, History, Trading balance is needed"},
	{"V3-AUTH-RIGHT-ALONE-TRADING", "lets a key holding Withdraw cryptocurrencies alone pass where Place/cancel orders is needed"},
	{"V3-AUTH-RIGHT-ALONE-PAYMENT", "lets a key holding Withdraw cryptocurrencies alone pass where Payment information is needed"},
	{"V3-AUTH-RIGHT-ALONE-WITHDRAW", "lets a key holding Payment information alone pass where Withdraw cryptocurrencies is needed"},
}
